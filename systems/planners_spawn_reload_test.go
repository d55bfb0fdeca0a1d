package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A spawner's HTNThinker.State is written by the fact indices of the domain it was made
// with (guardV1: alarm is fact 0). After a reload that inserts "morale" before "alarm"
// (guardV2), the agents it spawns start with the State carried over by fact name, as the
// thinking agents' are: alarm 1, morale (new) 0, ammo 4. Copied as it was, alarm's 1
// became morale's and ammo's 4 alarm's, with nothing reported. Spawn, SpawnBatch and
// Respawn all start so, and a second reload is followed too.
func TestAnHTNSpawnerStateFollowsAReloadedDomainByFactName(t *testing.T) {
	reg, _ := reloadRegistry(t)
	id, err := reg.LoadJSON("guard.json", []byte(guardV1))
	require.NoError(t, err)
	d1 := reg.Domain(id)
	var state htn.State
	alarm, _ := d1.FactIndex("alarm")
	ammo, _ := d1.FactIndex("ammo")
	state[alarm], state[ammo] = 1, 4

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: id, State: state})
	require.NoError(t, err)
	hp := generic.NewMap1[components.HTNPlanner](w)
	believed := func(e arche.Entity, fact string) int32 {
		p := hp.Get(e)
		f, ok := p.Cache.FactIndex(fact)
		require.True(t, ok, fact)
		return p.State[f]
	}
	before := sp.Spawn(r2.Vec{}, nil)
	assert.Equal(t, int32(1), believed(before, "alarm"))
	assert.Equal(t, int32(4), believed(before, "ammo"))

	_, err = reg.ReloadJSON("guard.json", []byte(guardV2))
	require.NoError(t, err)
	after := sp.Spawn(r2.Vec{}, nil)
	assert.Same(t, reg.Domain(id), hp.Get(after).Cache)
	assert.Equal(t, int32(1), believed(after, "alarm"), "alarm carried over by name")
	assert.Equal(t, int32(0), believed(after, "morale"), "morale, added by the edit, starts at 0")
	assert.Equal(t, int32(4), believed(after, "ammo"))
	var batch []arche.Entity
	sp.SpawnBatch(3, func(_ int, a *systems.Spawned) { batch = append(batch, a.Entity) })
	for _, e := range batch {
		assert.Equal(t, int32(1), believed(e, "alarm"))
		assert.Equal(t, int32(0), believed(e, "morale"))
		assert.Equal(t, int32(4), believed(e, "ammo"))
	}
	require.NoError(t, sp.Respawn(before, r2.Vec{}, nil))
	assert.Equal(t, int32(1), believed(before, "alarm"), "a respawned agent starts the same way")
	assert.Equal(t, int32(0), believed(before, "morale"))

	// a second edit drops ammo and puts alarm last: still from the State's own layout
	_, err = reg.ReloadJSON("guard.json", []byte(`{"name": "guard", "facts": ["morale", "ammo2", "alarm"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"name": "Calm", "tasks": ["Wait"]}]},
	  {"name": "Wait"}]}`))
	require.NoError(t, err)
	third := sp.Spawn(r2.Vec{}, nil)
	assert.Equal(t, int32(1), believed(third, "alarm"))
	assert.Equal(t, int32(0), believed(third, "morale"))
	assert.Equal(t, int32(0), believed(third, "ammo2"))
	assert.Equal(t, htn.State{2: 1}, hp.Get(third).State, "nothing else is set")
}

// The same for a GOAPThinker's State over goap.Registry.Replace with a fact inserted
// before "alarm".
func TestAGOAPSpawnerStateFollowsAReplacedDomainByFactName(t *testing.T) {
	reg := &goap.Registry{}
	build := func(facts ...string) *goap.Domain {
		b := goap.NewBuilder("watch")
		var last goap.Fact
		for _, f := range facts {
			last = b.Fact(f)
		}
		b.Action(goap.Action{Name: "Look", Cost: 1, Effects: []goap.Effect{{Fact: last, Value: 1}},
			Run: func(*goap.Context) goap.Status { return goap.Running }})
		b.Goal(goap.Goal{Name: "Seen", Priority: 1, Want: []goap.Cond{{Fact: last, Op: goap.Eq, Value: 1}}})
		return must(b.Build())
	}
	id, err := reg.Add(build("alarm", "seen"))
	require.NoError(t, err)
	var state goap.State
	alarm, _ := reg.Domain(id).FactIndex("alarm")
	state[alarm] = 1

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id, State: state})
	require.NoError(t, err)
	_, err = reg.Replace(build("morale", "alarm", "seen"))
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	gp := generic.NewMap1[components.GOAPPlanner](w)
	p := gp.Get(e)
	require.Same(t, reg.Domain(id), p.Cache)
	alarm, _ = p.Cache.FactIndex("alarm")
	morale, _ := p.Cache.FactIndex("morale")
	assert.Equal(t, int16(1), p.State[alarm], "alarm carried over by name")
	assert.Equal(t, int16(0), p.State[morale], "morale, added, starts at 0")
}
