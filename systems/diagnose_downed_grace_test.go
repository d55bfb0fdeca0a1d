package systems_test

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// towerDefense builds a newcomer's tower-defense world: one tower (team 1, a
// strike that downs a creep at once) and n creeps (team 2, 10 hp) in its range,
// every one with a tree that strikes what it sees, and a schedule whose last
// system is a Diagnostics checking every frame, after Combat. It returns the
// schedule, Combat, the Diagnostics, its output and the creeps.
func towerDefense(t *testing.T, n int) (*arche.World, *ecs.Scheduler, *systems.Combat, *systems.Diagnostics, *bytes.Buffer, []arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	fight, err := bt.Compile("fight", bt.Action("Strike", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		if a.Perception.Visible {
			a.Intent.Attack = a.Perception.Target
		}
		return bt.Running
	}))
	require.NoError(t, err)
	tower, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: fight},
		systems.Combatant{Team: 1, MaxHealth: 1e6, Damage: 50, Range: 6})
	require.NoError(t, err)
	tower.Spawn(r2.Vec{X: 7.5, Y: 7.5}, nil)
	creep, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: fight},
		systems.Combatant{Team: 2, MaxHealth: 10, Range: 1})
	require.NoError(t, err)
	creeps := make([]arche.Entity, n)
	for i := range creeps {
		creeps[i] = creep.Spawn(r2.Vec{X: 3.5 + float64(i), Y: 10.5}, nil)
	}
	combat := &systems.Combat{}
	out := &bytes.Buffer{}
	diag := &systems.Diagnostics{Every: 1, Out: out}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, combat, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, diag)
	require.NoError(t, s.InitializeChecked(w))
	return w, s, combat, diag, out, creeps
}

// TestDiagnoseGivesAgentsDownedThisFrameAGrace is the newcomer's tower defense: the
// game removes the creeps Combat.Downed names between frames (the documented
// pattern), and a Diagnostics checking every frame runs after Combat. Before, the
// check of each kill frame saw the creep that fell in it, its brain still on, and
// the line flickered "downed_still_acting 1". A creep downed in the frame being
// checked (in Combat's Downed of this frame) is given that frame: no check counts it,
// nor a Diagnose between the Update and the removal.
func TestDiagnoseGivesAgentsDownedThisFrameAGrace(t *testing.T) {
	w, s, combat, diag, out, creeps := towerDefense(t, 4)
	hp := generic.NewMap[components.Health](w)
	kills := 0
	for f := range 300 {
		s.Update(w)
		assert.Zero(t, diag.Report.Counts[systems.CauseDownedStillActing], "frame %d: %s", f, diag.Report.String())
		if len(combat.Downed) > 0 {
			for _, e := range combat.Downed {
				assert.LessOrEqual(t, hp.Get(e).Current, 0.0)
			}
			r := systems.Diagnose(w) // between the Update and the game's removal: the same frame
			assert.Zero(t, r.Counts[systems.CauseDownedStillActing], "frame %d: %s", f, r.String())
		}
		for _, e := range combat.Downed {
			w.RemoveEntity(e)
			kills++
		}
	}
	require.Equal(t, len(creeps), kills, "the tower downs every creep")
	assert.Equal(t, 300, diag.Checks)
	assert.NotContains(t, out.String(), "downed_still_acting")
	s.Finalize(w)
}

// TestDiagnoseReportsAgentsStillActingAFrameAfterDowned: the grace is one frame. A
// creep downed and left in the world, its brain on, is counted by the check of the
// next frame (and of every frame after), by a Diagnose between frames as well.
func TestDiagnoseReportsAgentsStillActingAFrameAfterDowned(t *testing.T) {
	w, s, combat, diag, out, _ := towerDefense(t, 1)
	var down arche.Entity
	for f := 0; f < 300 && down.IsZero(); f++ {
		s.Update(w)
		if len(combat.Downed) > 0 {
			down = combat.Downed[0]
			assert.Zero(t, diag.Report.Counts[systems.CauseDownedStillActing], diag.Report.String())
		}
	}
	require.False(t, down.IsZero(), "the tower downs the creep")
	for range 3 { // not removed: it acts on a frame after the one it fell in
		s.Update(w)
		assert.Empty(t, combat.Downed)
		assert.Equal(t, 1, diag.Report.Counts[systems.CauseDownedStillActing], diag.Report.String())
		assert.Equal(t, down, diag.Report.Examples[systems.CauseDownedStillActing])
		assert.Contains(t, diag.Report.String(), "its decision still runs")
		r := systems.Diagnose(w)
		assert.Equal(t, 1, r.Counts[systems.CauseDownedStillActing], r.String())
	}
	assert.Contains(t, out.String(), "downed_still_acting 1")
	s.Finalize(w)
}
