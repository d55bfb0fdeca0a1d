package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A program that loads a new level by replacing the world's *grid.Grid (or its Clock)
// while the systems run: each system keeps the grid it found at Initialize, so the
// agents path around the old map's walls and walk through the new one's, and Diagnose
// (which checks against the new grid) used to say nothing. Report.Replaced names the
// replaced resources; Finalize and Initialize again clears it, and so does a program
// that edits the map in place.
func TestDiagnoseReportsAResourceReplacedMidRun(t *testing.T) {
	w, g := newWorld(10, 10)
	goodAgent(t, w)
	clock := ecs.NewClockSystem(1.0 / 60)
	d := &Diagnostics{Every: 1}
	s := ecs.NewScheduler(clock, &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, d)
	s.Initialize(w)
	s.Run(w, 2)
	r := Diagnose(w)
	require.Zero(t, r.Total(), "%s", r)

	g.SetCost(grid.Cell{X: 7, Y: 7}, grid.Blocked) // edited in place: the systems see it
	r = Diagnose(w)
	assert.Nil(t, r.Replaced, "%s", r)

	w.Resources().Remove(arche.ResourceID[grid.Grid](w))
	arche.AddResource(w, grid.New(10, 10)) // a new level into the running world
	r = Diagnose(w)
	assert.Equal(t, []string{"*grid.Grid"}, r.Replaced)
	assert.Equal(t, 1, r.Total())
	assert.Equal(t, "diagnostics: 1 agent, none misconfigured (1 finding): resources replaced since the systems' Initialize (they run on the old ones): *grid.Grid (Finalize the systems, then replace the resource, then Initialize them again)", r.String())

	old := ecs.ClockOf(w)
	w.Resources().Remove(arche.ResourceID[ecs.Clock](w))
	arche.AddResource(w, &ecs.Clock{DT: 1.0 / 60})
	s.Run(w, 3)
	assert.Equal(t, int64(0), ecs.ClockOf(w).Frame, "the new clock stands: the ClockSystem steps the old one")
	assert.Equal(t, int64(4), old.Frame)
	assert.Equal(t, []string{"*grid.Grid", "*ecs.Clock"}, d.Report.Replaced)
	assert.Equal(t, 2, d.Report.Total())
	assert.Zero(t, testing.AllocsPerRun(10, func() { d.Check(w) }))

	s.Finalize(w)
	assert.Nil(t, Diagnose(w).Replaced, "no system runs: the next Initialize takes the new ones")
	s.Initialize(w)
	s.Run(w, 1)
	r = Diagnose(w)
	assert.Nil(t, r.Replaced, "%s", r)
	assert.Zero(t, r.Total(), "%s", r)
	assert.Equal(t, int64(0), ecs.ClockOf(w).Frame, "the systems run on the new clock")
	s.Finalize(w)
}

// The planners' registries too, while an HTN or GOAP system runs: the planners keep
// the registry they found at Initialize, and Diagnose's planner_domain_unknown checks
// the new one.
func TestDiagnoseReportsARegistryReplacedMidRun(t *testing.T) {
	w, _ := newWorld(10, 10)
	arche.AddResource(w, &htn.Registry{})
	arche.AddResource(w, &goap.Registry{})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &HTN{}, &GOAP{})
	s.Initialize(w)
	s.Run(w, 1)
	require.Nil(t, Diagnose(w).Replaced)
	w.Resources().Remove(arche.ResourceID[htn.Registry](w))
	arche.AddResource(w, &htn.Registry{})
	w.Resources().Remove(arche.ResourceID[goap.Registry](w))
	arche.AddResource(w, &goap.Registry{})
	assert.Equal(t, []string{"*htn.Registry", "*goap.Registry"}, Diagnose(w).Replaced)
	s.Finalize(w)
	assert.Nil(t, Diagnose(w).Replaced)

	// without a planner system, a registry is nobody's: replacing it is no finding
	w, _ = newWorld(10, 10)
	arche.AddResource(w, &htn.Registry{})
	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Movement{})
	s.Initialize(w)
	w.Resources().Remove(arche.ResourceID[htn.Registry](w))
	arche.AddResource(w, &htn.Registry{})
	assert.Nil(t, Diagnose(w).Replaced)
	s.Finalize(w)
}

// Combat reads no grid, clock or registry: a world whose only live archai system is
// Combat may replace its grid (a new level) without Diagnose calling it replaced.
func TestDiagnoseReplacedIgnoresAGridOnlyCombatWasInitializedWith(t *testing.T) {
	w, _ := newWorld(10, 10)
	s := ecs.NewScheduler(&Combat{})
	s.Initialize(w)
	w.Resources().Remove(arche.ResourceID[grid.Grid](w))
	arche.AddResource(w, grid.New(10, 10))
	assert.Nil(t, Diagnose(w).Replaced)

	// with a system that holds the grid live too, the same replacement is reported
	pf := &PathFollow{}
	s2 := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, pf)
	s2.Initialize(w)
	w.Resources().Remove(arche.ResourceID[grid.Grid](w))
	arche.AddResource(w, grid.New(10, 10))
	assert.Equal(t, []string{"*grid.Grid"}, Diagnose(w).Replaced)
	s2.Finalize(w)
	s.Finalize(w)
}
