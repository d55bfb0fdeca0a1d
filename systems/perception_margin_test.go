package systems

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestPerceptionKeepsItsTargetWithinTheMargin traces a Combatant's target
// (TargetMargin 1 cell, the default) as three foes move: the target is kept
// while another foe is nearer by less than the margin, switched when one is
// nearer by more, dropped (the nearest taken) when it leaves the sight range
// or a wall hides it, and then the new target is kept in turn though the old
// one, visible again, is a little nearer. With a margin < 0 (none) the same
// moves give the nearest foe at every step. 1 and 2 workers.
func TestPerceptionKeepsItsTargetWithinTheMargin(t *testing.T) {
	for _, margin := range []float64{0, -1} {
		for _, workers := range []int{1, 2} {
			w, g, guards, foes := marginWorld(t, margin)
			guard := guards.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
			a := foes.Spawn(r2.Vec{X: 15.5, Y: 10.5}, nil) // 5 cells east
			b := foes.Spawn(r2.Vec{X: 10.5, Y: 16}, nil)   // 5.5 cells south
			c := foes.Spawn(r2.Vec{X: 10.5, Y: 30}, nil)   // out of sight
			name := map[arche.Entity]string{a: "A", b: "B", c: "C", {}: "-"}
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &Spatial{}, &Perception{Workers: workers}, &Decision{})
			s.Initialize(w)
			move := func(e arche.Entity, x, y float64) { compOf[components.Position](w, e).Vec = r2.Vec{X: x, Y: y} }
			var trace []string
			step := func() {
				s.Run(w, 2)
				per := compOf[components.Perception](w, guard)
				trace = append(trace, fmt.Sprintf("%s %.1f", name[per.Target], per.Distance))
			}
			step()                                           // A 5, B 5.5: the nearest, A
			move(b, 10.5, 14.7)                              // B 4.2: nearer by 0.8
			step()                                           // A kept
			move(b, 10.5, 13.9)                              // B 3.4: nearer by 1.6
			step()                                           // B
			move(b, 10.5, 19)                                // B 8.5: out of sight
			step()                                           // A, the nearest left
			move(c, 10.5, 5.2)                               // C 5.3 north, A 5
			step()                                           // A
			g.SetCost(grid.Cell{X: 13, Y: 10}, grid.Blocked) // a wall hides A
			step()                                           // C
			g.SetCost(grid.Cell{X: 13, Y: 10}, 1)            // A in sight again, 0.3 nearer
			step()                                           // C kept
			s.Finalize(w)
			want := []string{"A 5.0", "A 5.0", "B 3.4", "A 5.0", "A 5.0", "C 5.3", "C 5.3"}
			if margin < 0 { // the nearest at every step
				want = []string{"A 5.0", "B 4.2", "B 3.4", "A 5.0", "A 5.0", "C 5.3", "A 5.0"}
			}
			assert.Equal(t, want, trace, "margin %v, workers %d", margin, workers)
		}
	}
}

// marginWorld is a 32×32 world with a spawner of team-1 guards of the given
// TargetMargin and one of team-0 foes, all Combatants thinking an idle tree.
func marginWorld(t *testing.T, margin float64) (*arche.World, *grid.Grid, *Spawner, *Spawner) {
	t.Helper()
	idle, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	w, g := newWorld(32, 32)
	guards, err := NewSpawner(w, Combatant{Team: 1, TargetMargin: margin}, Thinker{Tree: idle})
	require.NoError(t, err)
	foes, err := NewSpawner(w, Combatant{Team: 0}, Thinker{Tree: idle})
	require.NoError(t, err)
	return w, g, guards, foes
}
