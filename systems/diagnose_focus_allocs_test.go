package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Telling a focus point from an agent (Report.Agents) read the world's component
// types into a map at every check: 8 allocations a check of a Diagnostics in a world
// of some 30 types (a real game's), where its checks allocate nothing in steady state.
// It allocates nothing now, and still tells the camera from the agents.
func TestDiagnosticsCheckWithAFocusPointAllocatesNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	agents := generic.NewMap4[components.Position, components.Velocity, components.Intent, components.Think](w)
	for i := range 10 {
		_, _, in, th := agents.Get(agents.New())
		in.Goal, th.Interval = r2.Vec{X: float64(i), Y: 1}, 0.1
	}
	cams := generic.NewMap2[components.Position, components.Focus](w)
	cams.New()
	for _, register := range []func(*arche.World) arche.ID{
		arche.ComponentID[components.Brain], arche.ComponentID[components.Path], arche.ComponentID[components.Health],
		arche.ComponentID[components.Blackboard], arche.ComponentID[components.LOD], arche.ComponentID[components.Rand],
		arche.ComponentID[components.Faction], arche.ComponentID[components.Weapon], arche.ComponentID[components.Steering],
		arche.ComponentID[components.Desired], arche.ComponentID[components.Kinematics], arche.ComponentID[components.Perception],
	} {
		register(w)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.05))
	s.Initialize(w)
	diag := &systems.Diagnostics{}
	diag.Initialize(w)
	diag.Check(w)
	require.Equal(t, 10, diag.Report.Agents, "the camera is no agent: %s", diag.Report)
	diag.Check(w)
	assert.Zero(t, testing.AllocsPerRun(5, func() { diag.Check(w) }), "a check in steady state allocates nothing")
	assert.Equal(t, 10, diag.Report.Agents)
}
