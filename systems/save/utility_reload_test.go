package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A designer's edit of a reasoner file, loaded again under the same name
// (utility.Registry.LoadJSON) and swapped into every agent between frames, then a
// save before the agents think again: their States are still the old reasoner's,
// which Utility starts afresh at the next think. Save wrote them as they were, so
// an edit that added an action made a file the loader refused ("3 scores and 0
// considerations, the reasoner has 4 and 0"), and an edit of the same shape loaded
// with the old choice kept (the new reasoner adopting it), a run other than the
// unbroken one. Save now writes the State as the next think starts it.
func TestASaveRightAfterAReasonerSwapLoadsAndContinues(t *testing.T) {
	reasoner := func(weights ...float64) *utility.Reasoner {
		var acts []utility.Action
		for i, wt := range weights {
			acts = append(acts, utility.Action{Name: string(rune('a' + i)), Weight: wt})
		}
		r, err := utility.New("villager", utility.Policy{}.WithHysteresis(0.5), acts...)
		require.NoError(t, err)
		return r
	}
	for _, tc := range []struct {
		name string
		next *utility.Reasoner
	}{
		{"an action added", reasoner(0.2, 0.3, 0.25, 0.1)},
		{"the same shape", reasoner(0.2, 0.3, 0.25)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(8, 8))
			sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: reasoner(0.5, 0.3, 0.2)})
			require.NoError(t, err)
			var es []arche.Entity
			for i := range 4 {
				es = append(es, sp.Spawn(r2.Vec{X: float64(i) + 0.5, Y: 0.5}, nil))
			}
			run := func(w *arche.World) (*ecs.Scheduler, *systems.Utility) {
				u := &systems.Utility{}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), u)
				require.NoError(t, s.InitializeChecked(w))
				return s, u
			}
			s, u := run(w)
			s.Run(w, 12) // every agent has chosen "a"
			um := generic.NewMap[components.UtilityBrain](w)
			for _, e := range es {
				require.Equal(t, 0, um.Get(e).State.Choice)
				um.Get(e).Reasoner = tc.next // the name is the same: ID stays
			}

			data, err := save.Save(w, nil, u)
			require.NoError(t, err)
			l, err := save.Load(data, save.Registry{Reasoners: []*utility.Reasoner{tc.next}})
			require.NoError(t, err, "a file Save wrote must load")
			arche.AddResource(l.World, grid.New(8, 8))
			s2, u2 := run(l.World)
			require.NoError(t, l.Restore(u2))

			s.Run(w, 12)
			s2.Run(l.World, 12)
			lm := generic.NewMap[components.UtilityBrain](l.World)
			for _, e := range es {
				// the old choice "a" is not held by hysteresis under the new reasoner
				assert.Equal(t, 1, um.Get(e).State.Choice)
				assert.Equal(t, um.Get(e).State, lm.Get(e).State)
			}
			assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))
		})
	}
}
