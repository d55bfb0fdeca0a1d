package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestWallBitsMatchOnOddWidthsAndBadInputs: the bitmap feelers (with
// clearAlong's box skip) give steer.WallAvoidance's force to the bit on grids
// whose rows straddle bitmap words in every way (widths 1, 63, 64, 65, 130),
// for agents on and beyond the map's edge, with long feelers, and with NaN,
// infinite and huge positions and velocities.
func TestWallBitsMatchOnOddWidthsAndBadInputs(t *testing.T) {
	rng := steer.NewRand(5)
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 1e18, math.MaxFloat64}
	for _, sz := range [][2]int{{1, 40}, {63, 9}, {64, 7}, {65, 8}, {130, 5}, {3, 3}} {
		w, h := sz[0], sz[1]
		g := grid.New(w, h)
		for range w * h / 6 {
			g.SetCost(grid.Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}, grid.Blocked)
		}
		var b wallBits
		b.update(g)
		blocked := func(x, y int32) bool { return !g.Passable(grid.Cell{X: x, Y: y}) }
		for range 20000 {
			p := r2.Vec{X: rng.Float64()*float64(w+4) - 2, Y: rng.Float64()*float64(h+4) - 2}
			if rng.Intn(3) == 0 {
				p = r2.Vec{X: math.Round(p.X), Y: math.Round(p.Y)}
			}
			a := rng.Float64() * 2 * math.Pi
			sp := rng.Float64() * 40
			v := r2.Vec{X: sp * math.Cos(a), Y: sp * math.Sin(a)}
			if rng.Intn(20) == 0 {
				p.X = bad[rng.Intn(len(bad))]
			}
			if rng.Intn(20) == 0 {
				v.Y = bad[rng.Intn(len(bad))]
			}
			want := steer.WallAvoidance(p, v, blocked, feelerTime, 0.5, math.Pi/4, 20)
			var got r2.Vec
			require.NotPanics(t, func() { got = b.avoid(p, v, feelerTime, 0.125, 20, math.Inf(-1), 0, nil) }, // every feeler cast
				"%dx%d at %v, velocity %v", w, h, p, v)
			if want != got { // testify only on a mismatch (NaN too): a call per case costs a stack walk
				require.Equal(t, want, got, "%dx%d at %v, velocity %v", w, h, p, v)
			}
		}
	}
}

// TestSteerWithAHugePositionDoesNotPanic: an agent at a finite but huge
// position (off the map by 1e300 cells) is off the grid for nearWall, so its
// feelers are cast; clearAlong converted the box's bounds to int, which
// wrapped (int(Ceil(1e300)) − 1), passed the bounds test and indexed the
// bitmap out of range: Steer panicked on user data.
func TestSteerWithAHugePositionDoesNotPanic(t *testing.T) {
	for _, p := range []r2.Vec{{X: 1e300, Y: 5.5}, {X: 5.5, Y: -1e300}, {X: math.MaxFloat64, Y: 3}} {
		w, _ := newWorld(16, 16)
		m := generic.NewMap7[components.Position, components.Velocity, components.Kinematics, components.Steering,
			components.Intent, components.SteeringWeights, components.Path](w)
		var e arche.Entity
		for _, q := range []r2.Vec{p, p, r2.Add(p, r2.Vec{X: 1e-3})} { // neighbours on it and beside it
			e = m.New()
			put(w, e, components.Desired{})
			pos, vel, kin, _, in, wt, _ := m.Get(e)
			pos.Vec, vel.Vec = q, r2.Vec{X: 1, Y: 1}
			*kin = components.Kinematics{MaxSpeed: 2, MaxForce: 10, Radius: 0.3}
			*in = components.Intent{Move: true, Goal: r2.Vec{X: 10.5, Y: 10.5}}
			*wt = components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 2, Alignment: 1, Cohesion: 1, NeighbourRadius: 3}
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Steer{Workers: 1})
		s.Initialize(w)
		require.NotPanics(t, func() { s.Update(w) }, "an agent at %v", p)
		_, _, _, st, _, _, _ := m.Get(e)
		require.True(t, finiteVec(st.Force), "at %v: force %v", p, st.Force)
		s.Finalize(w)
	}
}
