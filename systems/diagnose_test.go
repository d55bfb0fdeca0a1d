package systems

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// moverSchedule is the movement pipeline in the order that works.
func moverSchedule(extra ...ecs.System) *ecs.Scheduler {
	all := append([]ecs.System{ecs.NewClockSystem(1.0 / 60), &Spatial{}, &PathQueue{}, &PathFollow{}, &Steer{}}, extra...)
	return ecs.NewScheduler(append(all, &Movement{})...)
}

// A door closes on a mover's goal; it gets PathUnreachable (goal_unusable while it
// still aims there), then its program sends it elsewhere and it arrives. The new
// goal is in sight: PathFollow lets the unreachable answer for the old goal go
// (a Path belongs to the current goal, see keepFor), and Diagnose, which once
// counted it as path_goal_unusable for ever, finds nothing.
func TestDiagnoseForgetsAPathForAGoalGivenUp(t *testing.T) {
	w, g := newWorld(32, 32)
	for y := range int32(20) {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	sp, err := NewSpawner(w, Mover{})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *Spawned) { a.MoveTo(r2.Vec{X: 20.5, Y: 2.5}) })
	s := moverSchedule()
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 30)
	g.SetCost(grid.Cell{X: 20, Y: 2}, grid.Blocked) // the door closes on the goal
	s.Run(w, 30)
	r := Diagnose(w)
	assert.Equal(t, 1, r.Counts[CauseGoalUnusable], "%s", r)
	assert.Zero(t, r.Counts[CausePathGoal], "one fault, one finding: %s", r)

	compOf[components.Intent](w, e).Goal = r2.Vec{X: 5.5, Y: 2.5} // the program gives up
	s.Run(w, 300)
	require.InDelta(t, 5.5, compOf[components.Position](w, e).X, 0.2, "the mover reached its new goal")
	path := compOf[components.Path](w, e)
	require.Equal(t, components.PathNone, path.State, "the answer for the old goal is let go")
	require.Equal(t, grid.Cell{X: 5, Y: 2}, path.Goal)
	require.Empty(t, path.Waypoints)
	r = Diagnose(w)
	assert.Zero(t, r.Total(), "a goal given up leaves no fault: %s", r)

	// an unreachable answer held while the agent pursues a point in that
	// cell is counted
	*path = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 20, Y: 2}}
	*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentPursue, Point: r2.Vec{X: 20.5, Y: 2.5}}
	r = Diagnose(w)
	assert.Equal(t, 1, r.Counts[CausePathGoal], "%s", r)
	// and while it pursues an agent standing in it
	target := sp.Spawn(r2.Vec{X: 20.5, Y: 2.5}, nil)
	*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentPursue, Target: target}
	r = Diagnose(w)
	assert.Equal(t, 1, r.Counts[CausePathGoal], "%s", r)
	compOf[components.Position](w, target).X = 25.5 // it moved on: the agent will ask for its new cell
	r = Diagnose(w)
	assert.Zero(t, r.Counts[CausePathGoal], "%s", r)
}

// ORCA between Steer and Movement is the one order that avoids: the others are
// refused at Initialize, naming the systems and the order; a schedule left
// initialized on the world (installed twice) does not count as a wrong order.
func TestORCAOutOfOrderPanicsAtInitialize(t *testing.T) {
	clock := func() ecs.System { return ecs.NewClockSystem(1.0 / 60) }
	for _, c := range []struct {
		name  string
		order func(o *ORCA) []ecs.System
		panic string
	}{
		{"Steer, Movement, ORCA", func(o *ORCA) []ecs.System {
			return []ecs.System{clock(), &Spatial{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, o}
		}, "systems: ORCA is initialized after Movement: the force it writes is overwritten by the next frame's Steer before Movement reads it, so no agent avoids; order the systems Steer, ORCA, Movement"},
		{"ORCA, Steer, Movement", func(o *ORCA) []ecs.System {
			return []ecs.System{clock(), &Spatial{}, &PathQueue{}, &PathFollow{}, o, &Steer{}, &Movement{}}
		}, "systems: ORCA is initialized before Steer: Steer overwrites the force ORCA writes, so no agent avoids; order the systems Steer, ORCA, Movement"},
		{"Movement, ORCA, Steer", func(o *ORCA) []ecs.System {
			return []ecs.System{clock(), &Spatial{}, &PathQueue{}, &PathFollow{}, &Movement{}, o, &Steer{}}
		}, "systems: ORCA is initialized before Steer: Steer overwrites the force ORCA writes, so no agent avoids; order the systems Steer, ORCA, Movement"},
		{"Steer, ORCA, Movement", func(o *ORCA) []ecs.System {
			return []ecs.System{clock(), &Spatial{}, &PathQueue{}, &PathFollow{}, &Steer{}, o, &Movement{}}
		}, ""},
		{"ORCA after Movement, no Steer (its force is read the next frame)", func(o *ORCA) []ecs.System {
			return []ecs.System{clock(), &Spatial{}, &Movement{}, o}
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _ := newWorld(32, 32)
			s := ecs.NewScheduler(c.order(&ORCA{})...)
			if c.panic != "" {
				assert.PanicsWithError(t, c.panic, func() { s.Initialize(w) })
				return
			}
			require.NotPanics(t, func() { s.Initialize(w) })
			// a second schedule of the same order, the first not finalized: Twice, no panic
			s2 := ecs.NewScheduler(c.order(&ORCA{})...)
			require.NotPanics(t, func() { s2.Initialize(w) })
			assert.Contains(t, Diagnose(w).Twice, "orca")
			s2.Finalize(w)
			s.Finalize(w)
			// a level restart in the same order
			require.NotPanics(t, func() { s.Initialize(w) })
			s.Finalize(w)
		})
	}
}

// A Weapon asked to strike with no Combat system: the strike never lands and
// Diagnose said nothing.
func TestDiagnoseReportsAStrikeWithoutCombat(t *testing.T) {
	for _, withCombat := range []bool{false, true} {
		w, _ := newWorld(10, 10)
		sp, err := NewSpawner(w, Mover{})
		require.NoError(t, err)
		a := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		b := sp.Spawn(r2.Vec{X: 3.5, Y: 2.5}, nil)
		put(w, a, components.Weapon{Damage: 1, Range: 2})
		put(w, b, components.Health{Current: 5, Max: 5})
		var extra []ecs.System
		if withCombat {
			extra = append(extra, &Combat{})
		}
		s := moverSchedule(extra...)
		s.Initialize(w)
		compOf[components.Intent](w, a).Attack = b // the decision asks for a strike
		r := Diagnose(w)
		if withCombat {
			assert.Zero(t, r.Total(), "%s", r)
			s.Run(w, 1)
			assert.Equal(t, 4.0, compOf[components.Health](w, b).Current)
		} else {
			assert.Equal(t, 1, r.Counts[CauseNoCombatSystem], "%s", r)
			assert.Equal(t, a, r.Examples[CauseNoCombatSystem])
			assert.Contains(t, r.String(), "no_combat_system 1 (e.g. entity 1, a Weapon's Intent.Attack needs systems.Combat, after the decision systems)")
			s.Run(w, 1)
			assert.Equal(t, 5.0, compOf[components.Health](w, b).Current, "no strike without Combat")
		}
		s.Finalize(w)
	}
	// before any archai system is initialized, a missing one cannot be told
	w, _ := newWorld(10, 10)
	e := goodAgent(t, w)
	put(w, e, components.Weapon{Damage: 1, Range: 2})
	compOf[components.Intent](w, e).Attack = e
	assert.Zero(t, Diagnose(w).Counts[CauseNoCombatSystem])
}

// A report names what the example entity of a cause about missing components
// lacks, printed after the example.
func TestReportNamesWhatTheExampleLacks(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(w *arche.World, e arche.Entity)
		cause Cause
		lacks []string
	}{
		{"a thinker without the Mover's components", func(w *arche.World, e arche.Entity) { dropMotion(w, e) },
			CauseSteerIncomplete, []string{"Velocity", "Kinematics", "Desired", "Steering"}},
		{"steered without Desired", func(w *arche.World, e arche.Entity) { drop[components.Desired](w, e) },
			CauseSteerIncomplete, []string{"Desired"}},
		{"a Path without a Position", func(w *arche.World, e arche.Entity) {
			for _, id := range w.Ids(e) {
				w.Remove(e, id)
			}
			put(w, e, components.Path{})
		}, CauseSteerIncomplete, []string{"Position"}},
		{"a brain without a Position", func(w *arche.World, e arche.Entity) {
			drop[components.Position](w, e)
			drop[components.Perception](w, e)
		}, CauseDecisionIncomplete, []string{"Position"}},
		{"a Perception without Faction and Think", func(w *arche.World, e arche.Entity) {
			drop[components.Faction](w, e)
			drop[components.Think](w, e)
		}, CausePerceptionIncomplete, []string{"Think", "Faction"}},
		{"an ORCA without Steering", func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5})
			drop[components.Steering](w, e)
		}, CauseORCAInvalid, []string{"Steering"}},
		{"an ORCA of bad values: nothing lacks", func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: -1, ObstacleHorizon: 1, NeighbourDist: 5})
		}, CauseORCAInvalid, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _ := newWorld(10, 10)
			goodAgent(t, w)
			e := goodAgent(t, w)
			c.spoil(w, e)
			r := Diagnose(w)
			require.Equal(t, e, r.Examples[c.cause], "%s", r)
			assert.Equal(t, c.lacks, r.Lacks(c.cause))
			want := c.cause.String() + " 1 (e.g. entity " + fmt.Sprint(e.ID()) + ")"
			if c.lacks != nil {
				want = c.cause.String() + " 1 (e.g. entity " + fmt.Sprint(e.ID()) + ", lacks " + strings.Join(c.lacks, ", ")
				if c.cause == CauseSteerIncomplete && !slices.Equal(c.lacks, []string{"Position"}) {
					want += steerIncompleteFix // how to give them: the Mover bundle
				}
				want += ")"
			}
			assert.Contains(t, r.String(), want)
		})
	}
	var r Report
	assert.Nil(t, r.Lacks(CauseSteerIncomplete), "no example")
	assert.Nil(t, r.Lacks(NumCauses))
}
