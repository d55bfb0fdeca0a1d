package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestAPathAskedEveryFrameIsServed: an agent that sets Path.Want every frame (a leaf
// asking on each tick) replaced its request each frame, and the search begun for the
// old one was abandoned: with searches longer than a frame (a 128×128 map walled down
// the middle, Budget 50) it never got a path, 3,000 frames long, when its goal
// alternated between two cells or its start cell changed every 10 frames (a breaker's
// probe). A request made while pending now stays on its search once begun (see Asking
// again in PathQueue's doc): each case is served within two searches (an agent asking
// once is served at frame 165), with the path to the goal its search had.
func TestAPathAskedEveryFrameIsServed(t *testing.T) {
	for _, mode := range []string{"once", "same", "goal alternates", "start moves"} {
		t.Run(mode, func(t *testing.T) {
			w, m, e, pq := askerBehindAWall(t)
			ready := -1
			for f := 0; f < 3000 && ready < 0; f++ {
				p, pos := m.Get(e)
				pos.Vec = r2.Vec{X: 2.5, Y: 2.5}
				goal := grid.Cell{X: 120, Y: 2}
				switch mode {
				case "goal alternates":
					goal.Y += int32(f % 2)
				case "start moves":
					pos.Vec.X += float64(f/10) * 0.1
				}
				if f == 0 || mode != "once" {
					p.Want, p.Goal = true, goal
				}
				pq.Update(w)
				if p, _ := m.Get(e); p.State == components.PathReady {
					ready = f
					require.Contains(t, []grid.Cell{{X: 120, Y: 2}, {X: 120, Y: 3}}, p.Goal, "the goal the path leads to")
					require.Equal(t, p.Goal, p.Waypoints[len(p.Waypoints)-1])
				}
			}
			require.GreaterOrEqual(t, ready, 0, "never served: dropped %d, searches %d", pq.TotalDropped, pq.TotalSearches)
			require.Less(t, ready, 2*170, "served within two searches")
			t.Logf("%s: served at frame %d", mode, ready)
		})
	}
}

// askerBehindAWall returns a 128² world walled down the middle (x = 64, open
// only at its last two rows), one agent with a Path and a Position, and a
// PathQueue of Budget 50 on it (a search takes about 165 frames), finalized
// when the test ends.
func askerBehindAWall(t *testing.T) (*arche.World, generic.Map2[components.Path, components.Position], arche.Entity, *PathQueue) {
	t.Helper()
	w, g := newWorld(128, 128)
	for y := int32(0); y < 126; y++ {
		g.SetCost(grid.Cell{X: 64, Y: y}, grid.Blocked)
	}
	m := generic.NewMap2[components.Path, components.Position](w)
	e := m.New()
	pq := &PathQueue{Budget: 50}
	pq.Initialize(w)
	t.Cleanup(func() { pq.Finalize(w) })
	return w, m, e, pq
}
