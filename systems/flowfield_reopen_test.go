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

// TestFlowFollowersGoWhenAWallOpens: five flow followers whose goal a wall
// seals off stand still (no path: Steer false); a gap opens in the wall (a
// tower sold, a door opened). The field is rebuilt for the new grid, and the
// agents must sample it again although none of them entered a new cell: they
// used to keep the sample taken on the sealed map (Steer false) for good, the
// whole-grid mode only (sector fields resampled).
func TestFlowFollowersGoWhenAWallOpens(t *testing.T) {
	for _, sectors := range []int{0, 5} {
		for _, sealedFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("sectors=%d/sealedAtStart=%v", sectors, sealedFirst), func(t *testing.T) {
				world := arche.NewWorld()
				w := &world
				g := grid.New(20, 10)
				arche.AddResource(w, g)
				goal := grid.Cell{X: 18, Y: 5}
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
				require.NoError(t, err)
				for i := 0; i < 5; i++ {
					sp.Spawn(r2.Vec{X: 2.5, Y: 2.5 + float64(i)}, nil)
				}
				seal := func() {
					for y := int32(0); y < 10; y++ {
						g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
					}
				}
				if sealedFirst {
					seal()
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{},
					&systems.FlowField{Sectors: sectors}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				s.Initialize(w)
				defer s.Finalize(w)
				if !sealedFirst {
					s.Run(w, 30) // under way, then the wall closes in front of them
					seal()
				}
				s.Run(w, 90)
				f := generic.NewFilter2[components.Position, components.FlowFollower]()
				q := f.Query(w)
				for q.Next() {
					p, ff := q.Get()
					require.False(t, ff.Steer, "sealed off: no direction")
					require.Less(t, p.X, 10.0)
				}
				g.SetCost(grid.Cell{X: 10, Y: 5}, 1) // the gap
				s.Run(w, 240)
				q = f.Query(w)
				for q.Next() {
					p, _ := q.Get()
					require.Greater(t, p.X, 14.0, "8 s after the gap opened every agent is through it, near the goal (18, 5)")
				}
			})
		}
	}
}

// TestFlowFieldEditsSameOnWorkers: the resample after a rebuilt field is the
// same on 1 and 2 workers: 400 followers, the wall's gap closed at frame 120
// (the far side sealed off) and opened again at frame 240, positions bit for
// bit equal at frame 420, and the crowd moving again after the reopening. (A
// crowd this dense jostles its members into new cells, which resampled them
// before the fix too: TestFlowFollowersGoWhenAWallOpens is the one that fails
// without it; this one guards the determinism.)
func TestFlowFieldEditsSameOnWorkers(t *testing.T) {
	var ps [2][]r2.Vec
	for i, workers := range []int{1, 2} {
		r := newGoalMoveRun(t, workers, grid.Cell{X: 80, Y: 48})
		g := arche.GetResource[grid.Grid](r.w)
		gap := func(cost float32) {
			for y := int32(44); y <= 52; y++ {
				g.SetCost(grid.Cell{X: 48, Y: y}, cost)
			}
		}
		var before, after []r2.Vec
		for f := 1; f <= 420; f++ {
			switch f {
			case 120:
				gap(grid.Blocked)
			case 240:
				before, _ = r.state()
				gap(1)
			}
			r.s.Update(r.w)
		}
		after, _ = r.state()
		moved := 0
		for k := range after {
			if r2.Norm(r2.Sub(after[k], before[k])) > 2 {
				moved++
			}
		}
		require.Greater(t, moved, 20, "followers sealed off set off when the gap opened")
		stuck := 0
		q := r.filt.Query(r.w)
		for q.Next() {
			_, ff := q.Get()
			if !ff.Steer && !ff.Arrived {
				stuck++
			}
		}
		require.Zero(t, stuck, "no follower left without a direction short of the goal")
		ps[i] = after
	}
	require.Equal(t, ps[0], ps[1])
}
