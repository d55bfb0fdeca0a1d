package systems_test

import (
	"fmt"
	"strings"
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
)

// SetFlowGoal called directly from a behavior-tree leaf was documented as undetected:
// it rewrote other agents' FlowFollower while they thought on other workers. It now
// panics naming the leaf and the fix (Agent.Commands), for 1 and 2 workers, the panic
// reaching Update's caller with the world unlocked and no goal changed; the same call
// queued on Agent.Commands works, as does a call between frames.
func TestSetFlowGoalFromALeafPanicsNamingTheFix(t *testing.T) {
	from, to := grid.Cell{X: 1, Y: 1}, grid.Cell{X: 5, Y: 5}
	for _, queued := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("queued %t, %d workers", queued, workers), func(t *testing.T) {
				tree, err := bt.Compile("mover", bt.Action("Move", func(ctx *bt.Context) bt.Status {
					a := systems.AgentOf(ctx)
					if queued {
						a.Commands.Run(func(w *arche.World) { systems.SetFlowGoal(w, from, to) })
					} else {
						systems.SetFlowGoal(a.World, from, to)
					}
					return bt.Success
				}))
				require.NoError(t, err)
				world := arche.NewWorld()
				w := &world
				m := generic.NewMap5[components.Brain, components.Think, components.Position, components.Intent, components.FlowFollower](w)
				for range 50 {
					b, th, _, _, f := m.Get(m.New())
					*b, *th, f.Goal = components.Brain{Tree: tree, Memory: tree.NewMemory()}, components.Think{Interval: 0.1}, from
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), &systems.Decision{Workers: workers})
				s.Initialize(w)
				defer s.Finalize(w)
				goals := func() (n int) {
					q := generic.NewFilter1[components.FlowFollower]().Query(w)
					for q.Next() {
						if q.Get().Goal == to {
							n++
						}
					}
					return n
				}
				if queued {
					require.NotPanics(t, func() { s.Run(w, 2) })
					assert.Equal(t, 50, goals())
					return
				}
				func() {
					defer func() {
						msg, ok := recover().(string)
						require.True(t, ok, "a string panic")
						assert.True(t, strings.HasPrefix(msg, "systems: SetFlowGoal called from a behavior-tree leaf (the Decision system"), msg)
						assert.Contains(t, msg, "queue it on Agent.Commands instead")
					}()
					s.Run(w, 2)
					t.Error("no panic")
				}()
				assert.False(t, w.IsLocked())
				assert.Zero(t, goals(), "no goal changed")
				assert.Equal(t, 50, systems.SetFlowGoal(w, from, to), "between frames it works")
			})
		}
	}
}
