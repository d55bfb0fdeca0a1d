package systems

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// pfAgent is one agent's PathFollow inputs and outputs, copied out.
type pfAgent struct {
	pos  components.Position
	in   components.Intent
	des  components.Desired
	path components.Path
	prog components.Progress
	kin  components.Kinematics
}

// Review of PathFollow's inline common case (sightHit in followRun, and a
// line tested again after a cell changed that the bitmap shows clear): over
// random agents (goal moved, agent teleported, cache keyed on other cells,
// SpeedFactor of every kind, NaN, infinite and huge positions and goals,
// stuck windows about to close, invalid modes, earlier Desired with NaN
// bits), a frame of PathFollow with 1 and 3 workers leaves every Desired,
// Path and Progress, and the Stuck count, as calling follow (the slow path)
// on a copy of each agent does.
func TestPathFollowInlineCaseMatchesFollow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	g := grid.New(24, 24)
	for y := range int32(18) {
		g.SetCost(grid.Cell{X: 12, Y: y}, grid.Blocked)
	}
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 3e9, -0.0}
	coord := func() float64 {
		if rng.IntN(12) == 0 {
			return odd[rng.IntN(len(odd))]
		}
		return rng.Float64() * 24
	}
	speeds := []float64{0, 0.5, 1, -1, math.NaN(), 2, 1e-300, math.Inf(1), 0.999}
	const n = 3000
	agents := make([]pfAgent, n)
	for i := range agents {
		a := &agents[i]
		a.pos.Vec = r2.Vec{X: coord(), Y: coord()}
		a.in = components.Intent{Move: rng.IntN(5) != 0, Goal: r2.Vec{X: coord(), Y: coord()},
			SpeedFactor: speeds[rng.IntN(len(speeds))], Point: r2.Vec{X: coord(), Y: coord()}}
		switch rng.IntN(10) {
		case 0:
			a.in.Mode = components.IntentFlee
		case 1:
			a.in.Mode = components.IntentPursue
		case 2:
			a.in.Mode = components.IntentEvade
		case 3:
			a.in.Mode = components.IntentMode(9) // not a mode
		}
		from, to := g.CellAt(a.pos.Vec), g.CellAt(a.in.Goal)
		switch rng.IntN(6) {
		case 0: // the agent was teleported since the test
			from.X++
		case 1: // the goal moved
			to.Y--
		}
		ready := rng.IntN(2) == 0
		a.path = components.Path{SightFrom: from, SightTo: to, SightKnown: rng.IntN(6) != 0, SightClear: rng.IntN(4) != 0,
			Goal: to, Waypoints: []grid.Cell{from, {X: 12, Y: 20}, to}, Next: rng.IntN(3)}
		if ready {
			a.path.State = components.PathReady
		} else {
			a.path.State = components.PathState(rng.IntN(4))
		}
		a.prog = components.Progress{Anchor: a.pos.Vec, Since: -3 * rng.Float64()}
		if rng.IntN(3) == 0 {
			a.prog.Anchor = r2.Vec{X: coord(), Y: coord()}
		}
		a.kin = components.Kinematics{MaxSpeed: 2, MaxForce: 4, Radius: []float64{0.3, 1.2, math.NaN()}[rng.IntN(3)]}
		if rng.IntN(4) == 0 {
			a.des = components.Desired{Mode: components.DesiredArrive, Point: a.in.Goal, SpeedFactor: a.in.SpeedFactor}
		}
		if rng.IntN(8) == 0 {
			a.des.Point.X = math.NaN()
		}
	}
	for _, workers := range []int{1, 3} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, g)
		b := generic.NewMap6[components.Position, components.Intent, components.Desired, components.Path, components.Progress, components.Kinematics](w)
		ents := make([]arche.Entity, n)
		for i := range agents {
			a := agents[i]
			a.path.Waypoints = slices.Clone(a.path.Waypoints)
			ents[i] = b.NewWith(&a.pos, &a.in, &a.des, &a.path, &a.prog, &a.kin)
		}
		pf := &PathFollow{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, pf)
		s.Initialize(w)
		s.Update(w)
		stuck := pf.Stuck
		hits := 0
		for i := range agents {
			if pf.sightHit(agents[i].pos.Vec, &agents[i].in, &agents[i].path) {
				hits++
			}
		}
		require.Greater(t, hits, n/10, "the inline case is taken")
		// and its second form: the cells changed, and the bitmap shows the
		// line clear (followRun tests it again itself)
		retests := 0
		for i := range agents {
			a := &agents[i]
			from, to := g.CellAt(a.pos.Vec), g.CellAt(a.in.Goal)
			if onGridCoords(a.pos.Vec) && onGridCoords(a.in.Goal) && a.in.Mode == components.IntentGo && a.in.Move &&
				(!a.path.SightKnown || from != a.path.SightFrom || to != a.path.SightTo) &&
				grid.ClearanceFor(a.kin.Radius) == 1 && pf.sight.clear(a.pos.Vec, a.in.Goal) {
				retests++
			}
		}
		require.Greater(t, retests, n/40, "the inline test of a changed cell is taken")
		// the slow path on copies, after the frame (same clock, grid and neighbours)
		var sc followScratch
		for i := range agents {
			a := agents[i]
			a.path.Waypoints = slices.Clone(a.path.Waypoints)
			j := followJob{pos: a.pos.Vec, intent: &a.in, desired: &a.des, path: &a.path, progress: &a.prog, kin: &a.kin}
			pf.follow(&j, &sc)
			pf.askUnreachable(&sc) // Update's pass after the workers
			p, in, d, pa, pr, _ := b.Get(ents[i])
			require.Equal(t, [2]uint64{bitsOf(a.pos.X), bitsOf(a.pos.Y)}, [2]uint64{bitsOf(p.X), bitsOf(p.Y)})
			require.Equal(t, bitsOf(a.in.SpeedFactor), bitsOf(in.SpeedFactor))
			require.Equal(t, desiredBits(a.des), desiredBits(*d), "agent %d %+v", i, agents[i])
			require.Equal(t, a.path, *pa, "agent %d %+v", i, agents[i])
			require.Equal(t, progressBits(a.prog), progressBits(*pr), "agent %d %+v", i, agents[i])
		}
		require.Equal(t, sc.stuck, stuck, "workers %d", workers)
		require.Positive(t, stuck, "some windows closed")
		s.Finalize(w)
	}
}

func bitsOf(v float64) uint64 { return math.Float64bits(v) }

func desiredBits(d components.Desired) [6]uint64 {
	return [6]uint64{uint64(d.Mode), bitsOf(d.SpeedFactor), bitsOf(d.Point.X), bitsOf(d.Point.Y), bitsOf(d.Vel.X), bitsOf(d.Vel.Y)}
}

func progressBits(p components.Progress) [5]uint64 {
	s := uint64(0)
	if p.Stuck {
		s = 1
	}
	return [5]uint64{bitsOf(p.Anchor.X), bitsOf(p.Anchor.Y), bitsOf(p.Since), s, uint64(p.Count)}
}

// onGridCoords is the range test v.X, v.Y in [0, 2³¹) in one comparison of
// bits, which leaves −0 out (sightHit serves it): checked against the plain
// rule on the values at and around its edges.
func TestOnGridCoordsIsTheRangeTest(t *testing.T) {
	edges := []float64{0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		1, 0.5, 255.99, 1 << 31, math.Nextafter(1<<31, 0), math.Nextafter(1<<31, math.Inf(1)), 1 << 32,
		-1, -(1 << 31), math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, x := range edges {
		for _, y := range edges {
			plain := func(v float64) bool { return v >= 0 && v < 1<<31 && !math.Signbit(v) }
			require.Equal(t, plain(x) && plain(y), onGridCoords(r2.Vec{X: x, Y: y}), "%v, %v", x, y)
		}
	}
}
