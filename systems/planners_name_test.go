package systems_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A planner is named by its domain's name: a Name built at run time (not the registry's
// string) and no ID resolves on the first think, the ID and the domain are cached, and
// the name is replaced by the registry's own string (interned: no string buffer lives
// only in a component). A stale ID beside a valid name is corrected; thinking then
// allocates nothing.
func TestPlannersResolveTheirDomainByName(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	hreg, _ := guardHTN(t)
	greg, _ := fetchGOAP(t)
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: 1})
	require.NoError(t, err)
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: 1})
	require.NoError(t, err)
	built := strings.Repeat("gu", 1) + "ard" // not the registry's string
	he := hs.Spawn(r2.Vec{}, func(a *systems.Spawned) {
		p := systems.Component[components.HTNPlanner](a)
		p.Name, p.Domain, p.Cache = built, 0, nil
	})
	ge := gs.Spawn(r2.Vec{}, func(a *systems.Spawned) {
		p := systems.Component[components.GOAPPlanner](a)
		p.Name, p.Domain, p.Cache = "fetch", 7, nil // a stale ID
	})
	h, g := &systems.HTN{}, &systems.GOAP{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), h, g)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	hm, gm := generic.NewMap1[components.HTNPlanner](w), generic.NewMap1[components.GOAPPlanner](w)
	hp, gp := hm.Get(he), gm.Get(ge)
	assert.Equal(t, htn.ID(1), hp.Domain)
	assert.Same(t, hreg.Domain(1), hp.Cache)
	assert.Equal(t, unsafe.StringData(hreg.Domain(1).Name()), unsafe.StringData(hp.Name), "interned")
	assert.NotZero(t, hp.Run.Plans)
	assert.Equal(t, goap.ID(1), gp.Domain)
	assert.Same(t, greg.Domain(1), gp.Cache)
	assert.NotZero(t, gp.Run.Plans)
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CausePlannerDomain])

	hs.SpawnBatch(50, nil)
	gs.SpawnBatch(50, nil)
	s.Run(w, 20) // planners' buffers grow
	allocs := testing.AllocsPerRun(20, func() { s.Run(w, 1) })
	assert.Zero(t, allocs, "a think resolves the cached name without allocating")
}
