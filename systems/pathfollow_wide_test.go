package systems_test

import (
	"math"
	"testing"

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

// A wide agent that sees its goal straight ahead through a gap narrower than
// its diameter does not head for it: PathFollow's "goal in sight" test uses
// the agent's clearance, so it follows its wide route through the 4-cell gap
// and arrives, never standing in a cell whose clearance is below its need
// and never closer to a wall than its radius (less a small steering slack).
// A point-sized agent at the same start goes straight through the 2-cell
// gap, as before.
func TestWideAgentDoesNotHeadForANarrowGapInSight(t *testing.T) {
	for _, tc := range []struct {
		radius float64
		gapX   [2]float64 // x range in which the agent crosses row 15
	}{{0.3, [2]float64{5, 7}}, {1.2, [2]float64{30, 34}}} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(40, 30)
		for x := int32(0); x < 40; x++ {
			if (x < 5 || x > 6) && (x < 30 || x > 33) {
				g.SetCost(grid.Cell{X: x, Y: 15}, grid.Blocked)
			}
		}
		arche.AddResource(w, g)
		start, goal := r2.Vec{X: 6, Y: 2.5}, r2.Vec{X: 6, Y: 27.5}
		require.True(t, g.LineOfSight(start, goal), "the goal is in (point) sight through the 2-cell gap")
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 8, Radius: tc.radius}})
		require.NoError(t, err)
		e := sp.Spawn(start, func(a *systems.Spawned) {
			*a.Intent = components.Intent{Move: true, Goal: goal}
		})
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.PathQueue{Smooth: true},
			&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1})
		s.Initialize(w)
		pos := generic.NewMap1[components.Position](w)
		need := grid.ClearanceFor(tc.radius)
		crossX, closest := math.NaN(), math.Inf(1)
		prev := start
		arrived := false
		for f := 0; f < 900 && !arrived; f++ {
			s.Run(w, 1)
			p := pos.Get(e).Vec
			if need > 1 {
				require.GreaterOrEqual(t, g.Clearance(g.CellAt(p)), need, "frame %d: at %v", f, p)
				closest = math.Min(closest, distToWall(g, p))
			}
			if (prev.Y-15.5)*(p.Y-15.5) <= 0 && p.Y != prev.Y {
				crossX = prev.X + (p.X-prev.X)*(15.5-prev.Y)/(p.Y-prev.Y)
			}
			prev = p
			arrived = r2.Norm(r2.Sub(p, goal)) < 0.1
		}
		s.Finalize(w)
		assert.True(t, arrived, "radius %v arrives (at %v)", tc.radius, prev)
		assert.True(t, crossX >= tc.gapX[0] && crossX <= tc.gapX[1], "radius %v crosses row 15 at x %.2f", tc.radius, crossX)
		if need > 1 {
			t.Logf("radius %v: closest to a wall %.3f", tc.radius, closest)
			assert.Greater(t, closest, tc.radius-0.25, "the disc stays (nearly) off the walls")
		}
	}
}
