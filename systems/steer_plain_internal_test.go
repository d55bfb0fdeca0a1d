package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestForcePlainMatchesForceOnOddInputs (review17): TestForcePlainMatchesForce's
// comparison on the inputs it leaves usual: odd speed factors, radii, separation
// weights and radii, kinematics at the edge of usable, huge positions and
// points, odd clock steps; every value forcePlain may be called with must give
// force's bits.
func TestForcePlainMatchesForceOnOddInputs(t *testing.T) {
	g := wallyGrid(3)
	rng := steer.NewRand(17)
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	odd := []float64{0, math.Copysign(0, -1), 1e-300, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1, 1e154, math.MaxFloat64}
	pick := func() float64 { return odd[rng.Intn(len(odd))] }
	clock := &ecs.Clock{}
	s := &Steer{grid: g, clock: clock}
	s.walls.update(g)
	plain := 0
	for k := range 200000 {
		dt := []float64{1.0 / 60, 0.1, 0, -1, math.NaN(), 1e-300, math.Inf(1), 1e300}[rng.Intn(8)]
		clock.DT, s.invDT = dt, 1/dt
		kin := components.Kinematics{MaxSpeed: 0.5 + rng.Float64()*6, MaxForce: 1 + rng.Float64()*30, Radius: rng.Float64()}
		switch rng.Intn(6) {
		case 0:
			kin.MaxSpeed = pick()
		case 1:
			kin.MaxForce = pick()
		case 2:
			kin.Radius = pick()
		}
		wt := components.SteeringWeights{Wall: []float64{0, 1, 100}[rng.Intn(3)], Separation: 1, SeparationRadius: 0.75}
		switch rng.Intn(5) {
		case 0:
			wt.Wall = pick()
		case 1:
			wt.Separation = pick()
		case 2:
			wt.SeparationRadius = pick()
		case 3:
			wt.Alignment, wt.Cohesion, wt.NeighbourRadius = pick(), pick(), pick()
		}
		factor := []float64{1, 0.5, 0, 1.5, math.NaN(), math.Inf(1), -1, 5e-324}[rng.Intn(8)]
		kd := newKind(&kin, &wt, factor)
		kd.atStep(dt) // as the gather does
		if !kd.plain {
			continue
		}
		plain++
		a := steerAgent{pos: r2.Vec{X: rng.Float64()*34 - 2, Y: rng.Float64()*34 - 2}, point: r2.Vec{X: rng.Float64() * 30, Y: rng.Float64() * 30}}
		a.vel = r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5}
		switch rng.Intn(8) {
		case 0:
			a.point = r2.Vec{X: pick(), Y: pick()}
		case 1:
			a.pos = r2.Vec{X: a.pos.X * 1e150, Y: a.pos.Y}
		case 2:
			a.vel = r2.Vec{X: pick(), Y: 1}
		case 3:
			a.point = r2.Vec{X: a.pos.X, Y: a.pos.Y + 5e-324}
		}
		sep := r2.Vec{}
		if rng.Intn(3) == 0 {
			sep = r2.Vec{X: pick(), Y: rng.Float64()}
		}
		mode := []components.DesiredMode{components.DesiredSeek, components.DesiredArrive, components.DesiredFlow}[rng.Intn(3)]
		sc := &steerScratch{}
		want := s.force(&a, &kd, mode, -1, 0, sc, &sep)
		got := s.forcePlain(&a, &kd, mode, &sep)
		if bits(want) != bits(got) { // testify only on a mismatch: a call per case costs a stack walk
			require.Equal(t, bits(want), bits(got), "case %d: agent %+v, kind %+v, mode %v, sep %v, dt %v", k, a, kd, mode, sep, dt)
		}
	}
	require.Greater(t, plain, 20000)
}

// TestPullsMatchSteer: arrivePull and seekPull, truncated, are steer.Arrive
// and steer.Seek to the bit (and flowPull followFlow's steer.FollowFlow) for
// every dt > 0, usual and odd inputs alike; forcePlain truncates them inline
// (TestForcePlainMatchesForce compares that).
func TestPullsMatchSteer(t *testing.T) {
	rng := steer.NewRand(29)
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	odd := []float64{0, math.Copysign(0, -1), 1e-300, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1, 1e154, math.MaxFloat64, ArrivedRadius}
	pick := func(usual float64) float64 {
		if rng.Intn(6) == 0 {
			return odd[rng.Intn(len(odd))]
		}
		return usual
	}
	for k := range 300000 {
		dt := []float64{1.0 / 60, 0.1, 1, 1e-300, 1e300, 5e-324, math.Inf(1), 0.05}[rng.Intn(8)]
		maxSpeed, maxForce := pick(0.5+rng.Float64()*6), pick(1+rng.Float64()*30)
		pos := r2.Vec{X: pick(rng.Float64() * 30), Y: pick(rng.Float64() * 30)}
		target := r2.Vec{X: pick(rng.Float64() * 30), Y: pick(rng.Float64() * 30)}
		switch rng.Intn(4) {
		case 0: // near the target: arriving, braking, arrived
			target = r2.Vec{X: pos.X + (rng.Float64()-0.5)*rng.Float64()*0.1, Y: pos.Y + (rng.Float64()-0.5)*1e-3}
		case 1:
			target = pos
		}
		vel := r2.Vec{X: pick((rng.Float64() - 0.5) * 8), Y: pick((rng.Float64() - 0.5) * 8)}
		want := steer.Arrive(pos, vel, target, maxSpeed, maxForce, ArrivedRadius, dt)
		got := steer.Truncate(arrivePull(pos, vel, target, maxSpeed, maxForce, dt, 1/dt), maxForce)
		if bits(want) != bits(got) { // testify only on a mismatch: 900,000 calls cost a stack walk each
			require.Equal(t, bits(want), bits(got), "case %d: Arrive(%v, %v, %v, %v, %v, dt %v)", k, pos, vel, target, maxSpeed, maxForce, dt)
		}
		want = steer.Seek(pos, vel, target, maxSpeed, maxForce, dt)
		got = steer.Truncate(seekPull(pos, vel, target, maxSpeed, 1/dt), maxForce)
		if bits(want) != bits(got) { // testify only on a mismatch: 900,000 calls cost a stack walk each
			require.Equal(t, bits(want), bits(got), "case %d: Seek(%v, %v, %v, %v, %v, dt %v)", k, pos, vel, target, maxSpeed, maxForce, dt)
		}
		want = steer.FollowFlow(vel, r2.Sub(target, pos), maxSpeed, maxForce, dt)
		got = steer.Truncate(flowPull(vel, r2.Sub(target, pos), maxSpeed, 1/dt), maxForce)
		if bits(want) != bits(got) { // testify only on a mismatch: 900,000 calls cost a stack walk each
			require.Equal(t, bits(want), bits(got), "case %d: FollowFlow(%v, %v, %v, %v, dt %v)", k, vel, r2.Sub(target, pos), maxSpeed, maxForce, dt)
		}
	}
}
