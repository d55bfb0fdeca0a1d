package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A printed report says where the example's unusable goal is (off the grid, or
// in a blocked cell) and which system its decision component needs, so a
// newcomer need not look the cause up.
func TestReportStringNamesTheGoalAndTheSystem(t *testing.T) {
	w, g := newWorld(10, 10)
	e := goodAgent(t, w)
	compOf[components.Intent](w, e).Goal = r2.Vec{X: 100.5, Y: 4.5}
	drop[components.FlowFollower](w, e)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
	s.Initialize(w)
	r := Diagnose(w)
	assert.False(t, r.SystemsUnchecked)
	assert.Equal(t, "diagnostics: 1 agent, 1 of them misconfigured (2 findings): "+
		"goal_unusable 1 (e.g. entity 1, goal (100.5, 4.5) cell (100, 4) off the 10×10 grid "+
		"(a unit mistake? positions are in cells, cell (x, y) covering [x, x+1)×[y, y+1): pixels given?)), "+
		"no_decision_system 1 (e.g. entity 1, a Brain needs systems.Decision)", r.String())

	g.SetCost(grid.Cell{X: 7, Y: 3}, grid.Blocked)
	compOf[components.Intent](w, e).Goal = r2.Vec{X: 7.25, Y: 3.75}
	assert.Contains(t, Diagnose(w).String(), "goal_unusable 1 (e.g. entity 1, goal (7.25, 3.75) cell (7, 3) in a blocked cell; "+
		"grid.NearestOpen(goal, 8) gives the open cell nearest it)")
	// six significant digits, not the 17 a position in a wall was printed with
	compOf[components.Intent](w, e).Goal = r2.Vec{X: 7.502490898251143, Y: 3.501229420711216}
	assert.Contains(t, Diagnose(w).String(), "goal (7.50249, 3.50123) cell (7, 3) in a blocked cell;")
	s.Finalize(w)

	// a StateMachine under Decision (not FSM): named
	w, _ = newWorld(10, 10)
	e = goodAgent(t, w)
	drop[components.Brain](w, e)
	b := fsm.NewBuilder("m")
	b.State("idle", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	put(w, e, components.StateMachine{Machine: m, Memory: fsm.Memory{}})
	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
	s.Initialize(w)
	assert.Equal(t, "diagnostics: 1 agent, 1 of them misconfigured (1 finding): "+
		"no_decision_system 1 (e.g. entity 1, a StateMachine needs systems.FSM)", Diagnose(w).String())
	s.Finalize(w)
}

// Before any system's Initialize the checks for missing systems are skipped, and
// the report says so rather than a bare "no misconfiguration".
func TestReportStringSaysSystemsUnchecked(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	r := Diagnose(w)
	assert.True(t, r.SystemsUnchecked)
	assert.Zero(t, r.Counts[CauseNoDecisionSystem], "not told before Initialize")
	assert.Equal(t, "diagnostics: 1 agent, no misconfiguration found (before any system's Initialize: "+
		"missing systems not checked; call Diagnose after Initialize)", r.String())
}

// An FSM Update hook that returns a state of no machine leaves the agent where it
// was; Diagnose reports the FSM system's count of them as one finding.
func TestDiagnoseReportsFSMBadTargets(t *testing.T) {
	w, _ := newWorld(10, 10)
	e := goodAgent(t, w)
	drop[components.Brain](w, e)
	b := fsm.NewBuilder("m")
	idle := b.State("idle", fsm.Hooks{Update: func(*fsm.Context) fsm.StateID { return 7 }})
	m, err := b.Build()
	require.NoError(t, err)
	put(w, e, components.StateMachine{Machine: m})
	f := &FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &FlowField{}, f, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
	s.Initialize(w)
	r0 := Diagnose(w)
	assert.Zero(t, r0.Total(), "%s", r0)
	s.Run(w, 60)
	r := Diagnose(w)
	assert.Equal(t, f.BadTargets, r.BadTargets)
	assert.Greater(t, r.BadTargets, uint64(3), "one a think, 10 a second")
	assert.Equal(t, 1, r.Total())
	assert.Equal(t, idle, compOf[components.StateMachine](w, e).Memory.Active)
	assert.Contains(t, r.String(), "state machine hooks returned a state not of their own machine")
	s.Finalize(w)
	assert.Zero(t, Diagnose(w).BadTargets, "a finalized FSM is not read")
}

// A NaN position or velocity is named in the report with what the systems do
// about it (before: "position_not_finite 1 (e.g. entity 1)" and nothing more).
func TestReportStringNamesABadPositionAndVelocity(t *testing.T) {
	w, _ := newWorld(10, 10)
	e := goodAgent(t, w)
	compOf[components.Position](w, e).Vec = r2.Vec{X: math.NaN(), Y: 2.5}
	compOf[components.Velocity](w, e).Vec = r2.Vec{X: 1, Y: math.Inf(-1)}
	got := Diagnose(w).String()
	assert.Contains(t, got, "position_not_finite 1 (e.g. entity 1, position (NaN, 2.5): left out of the spatial hash and held still; give it a finite Position)")
	assert.Contains(t, got, "velocity_not_finite 1 (e.g. entity 1, velocity (1, -Inf): Movement sets it to zero)")
}
