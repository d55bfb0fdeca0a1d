package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestWideMoversThroughAGapAllSettle: 60 Movers of radius 0.6, 0.8 and 1.2
// (a player's tanks, Motion{Radius: r} and nothing else set), spawned in rows
// 2.6 cells apart on one side of a wall and sent to one point 14.5 cells
// beyond an 8-cell gap in it. The first to arrive settle about the point
// (settle.go), the crowd grows back towards the gap, and the rest reach it
// still walking their paths, never on their last leg: they pressed against
// the crowd and the wall's end for good, jostled back and forth at up to 4
// cells/s (radius 0.8: 8 agents still moving 90 s after the order; radius
// 1.2: a dozen at 53 s, one oscillating a cell to and fro at 2.5 cells/s, too
// far each way to count as stuck). Now a wide agent seeking a waypoint of its
// path settles as the group's arrivals do when it touches the settled crowd
// near the goal or its rim (not by the packing bound alone): every agent
// settled (DesiredHold, velocity zero) within 20 s of the order (5.5–6.7 s),
// the positions the same 10 s later, no disc ever in a wall, and at least a
// quarter of the group through the gap (17–26 of 60; the rest settle where
// they met the crowd, as an RTS group does at a choke point).
func TestWideMoversThroughAGapAllSettle(t *testing.T) {
	for _, r := range []float64{0.6, 0.8, 1.2} {
		t.Run(fmt.Sprint(r), func(t *testing.T) {
			t.Parallel()
			g := grid.New(64, 48)
			for y := range int32(48) {
				if y < 20 || y >= 28 {
					g.SetCost(grid.Cell{X: 32, Y: y}, grid.Blocked)
				}
			}
			w, s := settleWorld(t, g, 60, r, r2.Vec{X: 46.5, Y: 24.5}, func(i int) r2.Vec {
				return r2.Vec{X: 3.5 + float64(i%10)*2.6, Y: 8.5 + float64(i/10)*2.6}
			}, 1)
			settledAt, after := settleThenHold(t, w, s, g, 20)
			beyond := 0
			for _, p := range after {
				if p.X > 33 {
					beyond++
				}
			}
			require.GreaterOrEqual(t, beyond, 15, "a quarter of the group at least through the gap")
			t.Logf("radius %v: all settled after %.2f s, %d beyond the wall", r, float64(settledAt+1)/60, beyond)
		})
	}
}

// TestWideFlowFollowersThroughAGapComeToRest: 60 FlowFollowers of radius 0.6
// and 0.8 cross the wall of TestWideMoversThroughAGapAllSettle by its gap to a
// goal beyond, under a FlowField with Spacing set by hand to 2.5 radii (as
// Diagnose's flow_follower_spacing asks for wide ones) or left at zero, which
// now sets the same (autoSpacing; at the old default, 0.75, 40–50 of them
// still moved at up to 0.8 cells/s after 90 s). The crowd at rest pressed two of the radius-0.8
// agents at the gap's mouth towards the wall's end: braking to a stop, each
// cast wall feelers along its small velocity, which pushed it off the wall
// in one frame, and its crowd's push took it back in the next: they swung at
// 0.09 cells/s, frame by frame, for good. A braking disc of any radius now
// casts no feelers (Movement keeps wide discs out of walls too): nobody moves
// at 10⁻⁶ cells/s from 75 to 90 s (the fastest 9·10⁻⁸; radius 0.8 at rest from
// about 60 s).
func TestWideFlowFollowersThroughAGapComeToRest(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		auto bool
	}{{0.6, false}, {0.8, false}, {0.6, true}, {0.8, true}} {
		r := tc.r
		t.Run(fmt.Sprint(r, " auto ", tc.auto), func(t *testing.T) {
			t.Parallel()
			world := arche.NewWorld()
			w := &world
			g := grid.New(64, 48)
			for y := range int32(48) {
				if y < 20 || y >= 28 {
					g.SetCost(grid.Cell{X: 32, Y: y}, grid.Blocked)
				}
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Motion: systems.Motion{Radius: r}, Goal: grid.Cell{X: 46, Y: 24}})
			require.NoError(t, err)
			sp.SpawnBatch(60, func(k int, a *systems.Spawned) {
				a.Position.Vec = r2.Vec{X: 3.5 + float64(k%10)*2.6, Y: 8.5 + float64(k/10)*2.6}
			})
			ff := &systems.FlowField{Spacing: 2.5 * r}
			if tc.auto {
				ff.Spacing = 0
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, ff,
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			require.Zero(t, systems.Diagnose(w).Misconfigured)
			f := generic.NewFilter1[components.Velocity]()
			fastest := 0.0
			for frame := 1; frame <= 90*60; frame++ {
				s.Update(w)
				if frame > 75*60 {
					q := f.Query(w)
					for q.Next() {
						fastest = max(fastest, r2.Norm(q.Get().Vec))
					}
				}
			}
			require.Less(t, fastest, 1e-6, "the fastest agent from 75 to 90 s (cells/s)")
			require.Equal(t, 2.5*r, ff.Spacing)
			require.Zero(t, systems.Diagnose(w).Misconfigured)
		})
	}
}
