package systems

import (
	"math"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFollowFlowMatchesSteer: followFlow, with 1/dt given, is
// steer.FollowFlow to the bit, zero directions, dt ≤ 0 and NaN included.
func TestFollowFlowMatchesSteer(t *testing.T) {
	rng := steer.NewRand(11)
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	vals := []float64{0, -0.0, 1e-300, 3, -7.5, math.NaN(), math.Inf(1)}
	for k := range 200000 {
		vel := r2.Vec{X: rng.Float64()*10 - 5, Y: rng.Float64()*10 - 5}
		dir := r2.Vec{X: rng.Float64()*4 - 2, Y: rng.Float64()*4 - 2}
		speed, force, dt := 0.5+rng.Float64()*6, 1+rng.Float64()*30, []float64{1.0 / 60, 1.0 / 30, 0.1, 1e-9}[k%4]
		switch k % 11 {
		case 0:
			dir = r2.Vec{}
		case 1:
			dir.X = vals[rng.Intn(len(vals))]
		case 2:
			vel.Y = vals[rng.Intn(len(vals))]
		case 3:
			dt = []float64{0, -1, math.NaN(), 1e300}[rng.Intn(4)]
		case 4:
			speed *= 100 // a force that exceeds maxForce
		}
		want := steer.FollowFlow(vel, dir, speed, force, dt)
		got := followFlow(vel, dir, speed, force, dt, 1/dt)
		if bits(want) != bits(got) { // testify (a stack walk) only on a mismatch
			require.Equal(t, bits(want), bits(got), "vel %v dir %v speed %v force %v dt %v", vel, dir, speed, force, dt)
		}
	}
}

// TestSteerKind: a kind's speed and usability are those the force pass
// worked out per agent before (MaxSpeed times a factor in (0, 1), else
// MaxSpeed; UsableKinematics), and is tells kinds apart field by field.
func TestSteerKind(t *testing.T) {
	kin := components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
	wt := components.SteeringWeights{Wall: 1, Separation: 1.5, SeparationRadius: 0.75}
	for _, c := range []struct {
		factor, speed float64
	}{{0.5, 2}, {0, 4}, {1, 4}, {1.5, 4}, {-0.5, 4}, {math.NaN(), 4}, {0.25, 1}} {
		kd := newKind(&kin, &wt, c.factor)
		require.Equal(t, c.speed, kd.speed, "factor %v", c.factor)
		require.True(t, kd.usable && kd.hasW)
	}
	bad := kin
	bad.MaxForce = math.Inf(1)
	require.False(t, newKind(&bad, nil, 1).usable, "unusable kinematics")
	kd := newKind(&kin, &wt, 0.5)
	require.True(t, kd.is(&kin, &wt, 0.5))
	require.False(t, kd.is(&kin, nil, 0.5), "weights against none")
	none := newKind(&kin, nil, 0.5)
	require.False(t, none.is(&kin, &wt, 0.5), "none against weights")
	require.True(t, none.is(&kin, nil, 0.5))
	require.False(t, kd.is(&kin, &wt, 0.25), "another factor")
	other := wt
	other.Cohesion = 1
	require.False(t, kd.is(&kin, &other, 0.5), "other weights")
	require.False(t, kd.is(&bad, &wt, 0.5), "other kinematics")
	nan := newKind(&kin, &wt, math.NaN())
	require.False(t, nan.is(&kin, &wt, math.NaN()), "NaN is no kind's factor: == as before")
}

// TestForcePlainMatchesForce: forcePlain gives force's force to the bit for
// agents of plain kinds heading by Seek, Arrive and Flow: in the open, near
// walls, inside them and off the grid; standing, slow, fast and NaN
// velocities; separation forces zero, small, past MaxForce, NaN and
// infinite; weights that leave nothing for the move force, zero or NaN
// wall weights; MaxForce tiny and huge; dt 0, negative and NaN.
func TestForcePlainMatchesForce(t *testing.T) {
	g := wallyGrid(3)
	rng := steer.NewRand(5)
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	odd := []float64{0, math.Copysign(0, -1), 1e-300, math.NaN(), math.Inf(1), math.Inf(-1), 1e300}
	plain, walls, seps := 0, 0, 0
	clock := &ecs.Clock{}
	s := &Steer{grid: g, clock: clock}
	s.walls.update(g)
	for k := range 200000 {
		dt := []float64{1.0 / 60, 1.0 / 30, 0.1}[k%3]
		if k%97 == 0 {
			dt = []float64{0, -1, math.NaN(), 1e-300}[rng.Intn(4)]
		}
		clock.DT, s.invDT = dt, 1/dt
		kin := components.Kinematics{MaxSpeed: 0.5 + rng.Float64()*6, MaxForce: 1 + rng.Float64()*30, Radius: rng.Float64()}
		switch rng.Intn(20) {
		case 0:
			kin.MaxForce = []float64{1e-13, 1e-300, 1e200}[rng.Intn(3)]
		case 1:
			kin.Radius = -kin.Radius
		}
		wt := components.SteeringWeights{Wall: []float64{0, 1, 2.5, 100}[rng.Intn(4)], Separation: []float64{0, 1, 1.5, 50}[rng.Intn(4)],
			SeparationRadius: 0.75, Alignment: []float64{0, 1}[rng.Intn(2)], Cohesion: []float64{0, 1}[rng.Intn(2)]}
		if rng.Intn(3) > 0 {
			wt.Alignment, wt.Cohesion = 0, 0 // else NeighbourRadius 0 keeps it plain
		}
		if rng.Intn(30) == 0 {
			wt.Wall = odd[rng.Intn(len(odd))]
		}
		factor := []float64{1, 0.5, 0, 1.5}[rng.Intn(4)]
		kd := newKind(&kin, &wt, factor)
		kd.atStep(dt) // as the gather does
		if !kd.plain {
			continue
		}
		plain++
		a := steerAgent{pos: r2.Vec{X: rng.Float64()*34 - 2, Y: rng.Float64()*34 - 2}, point: r2.Vec{X: rng.Float64() * 30, Y: rng.Float64() * 30}}
		ang, sp := rng.Float64()*2*math.Pi, rng.Float64()*kin.MaxSpeed*1.2
		a.vel = r2.Vec{X: sp * math.Cos(ang), Y: sp * math.Sin(ang)}
		switch rng.Intn(12) {
		case 0:
			a.vel = r2.Vec{}
		case 1:
			a.vel.X = odd[rng.Intn(len(odd))]
		case 2:
			a.pos.Y = odd[rng.Intn(len(odd))]
		case 3:
			a.point = a.pos // at the point
		case 4:
			a.point.X = odd[rng.Intn(len(odd))]
		case 5: // within Arrive's reach
			a.point = r2.Vec{X: a.pos.X + 0.01*rng.Float64(), Y: a.pos.Y - 0.02*rng.Float64()}
		}
		var sep r2.Vec
		if kd.sep {
			switch rng.Intn(6) {
			case 0, 1:
			case 2:
				sep = r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5}
			case 3:
				sep = r2.Vec{X: kin.MaxForce * (rng.Float64() - 0.5), Y: kin.MaxForce * (rng.Float64() - 0.5)}
			case 4:
				sep = r2.Vec{X: kin.MaxForce * 0.6, Y: -kin.MaxForce * 0.8}
			case 5:
				sep = r2.Vec{X: odd[rng.Intn(len(odd))], Y: 1}
			}
			if sep != (r2.Vec{}) {
				seps++
			}
		}
		mode := []components.DesiredMode{components.DesiredSeek, components.DesiredArrive, components.DesiredFlow}[rng.Intn(3)]
		sc := &steerScratch{}
		want := s.force(&a, &kd, mode, -1, 0, sc, &sep)
		got := s.forcePlain(&a, &kd, mode, &sep)
		if bits(want) != bits(got) { // testify only on a mismatch: a call per case costs a stack walk
			require.Equal(t, bits(want), bits(got), "case %d: agent %+v, kind %+v, mode %v, sep %v, dt %v", k, a, kd, mode, sep, dt)
		}
		if _, _, near := s.nearWall(a.pos, a.vel, kin.Radius); near && wt.Wall > 0 {
			walls++
		}
	}
	require.Greater(t, plain, 50000)
	require.Greater(t, walls, 10000, "near walls")
	require.Greater(t, seps, 10000, "separation forces")
}

// TestOfBitsMakesTheSameKind: ofBits, the gather's inline test, reads
// Kinematics and SteeringWeights as words (the layout it assumes is
// checked), is true exactly when the kinematics, weights (or their
// absence) and speed factor have the kind's bits, and a kind made again
// from such values is the kind, to the bit (±0 and NaN included, where ==
// and the bits disagree: the gather asks is only where ofBits fails).
func TestOfBitsMakesTheSameKind(t *testing.T) {
	require.Equal(t, uintptr(24), unsafe.Sizeof(components.Kinematics{}))
	require.Equal(t, uintptr(48), unsafe.Sizeof(components.SteeringWeights{}))
	require.Equal(t, uintptr(24), unsafe.Offsetof(components.SteeringWeights{}.Alignment))
	vals := []float64{0, math.Copysign(0, -1), 1, 0.75, 4, 20, math.NaN(), math.Inf(1), -3}
	rng := steer.NewRand(17)
	pick := func() float64 { return vals[rng.Intn(len(vals))] }
	kindBits := func(kd *steerKind) [14]uint64 {
		return [14]uint64{math.Float64bits(kd.kin.MaxSpeed), math.Float64bits(kd.kin.MaxForce), math.Float64bits(kd.kin.Radius),
			math.Float64bits(kd.wt.Wall), math.Float64bits(kd.wt.Separation), math.Float64bits(kd.wt.SeparationRadius),
			math.Float64bits(kd.wt.Alignment), math.Float64bits(kd.wt.Cohesion), math.Float64bits(kd.wt.NeighbourRadius),
			math.Float64bits(kd.factor), math.Float64bits(kd.speed),
			uint64(boolInt(kd.hasW)) | uint64(boolInt(kd.usable))<<1, uint64(boolInt(kd.sep)), uint64(boolInt(kd.plain))}
	}
	same := 0
	for k := range 200000 {
		kin := components.Kinematics{MaxSpeed: pick(), MaxForce: pick(), Radius: pick()}
		wt := components.SteeringWeights{Wall: pick(), Separation: pick(), SeparationRadius: pick(),
			Alignment: pick(), Cohesion: pick(), NeighbourRadius: pick()}
		factor := pick()
		var w *components.SteeringWeights
		if k%3 != 0 {
			w = &wt
		}
		kd := newKind(&kin, w, factor)
		// the agent: the same values, or one of them changed (maybe to
		// the same value, or to the other zero)
		kin2, wt2, factor2, w2 := kin, wt, factor, w
		switch k % 13 {
		case 0:
			kin2.MaxSpeed = pick()
		case 1:
			kin2.Radius = pick()
		case 2:
			wt2.Wall = pick()
		case 3:
			wt2.SeparationRadius = pick()
		case 4:
			wt2.Alignment = pick()
		case 5:
			wt2.NeighbourRadius = pick()
		case 6:
			factor2 = pick()
		case 7:
			if w2 == nil {
				w2 = &wt2
			} else {
				w2 = nil
			}
		}
		if w2 != nil {
			w2 = &wt2
		}
		bits := [10]uint64{math.Float64bits(kin2.MaxSpeed), math.Float64bits(kin2.MaxForce), math.Float64bits(kin2.Radius),
			math.Float64bits(factor2)}
		if w2 != nil {
			for i, v := range []float64{wt2.Wall, wt2.Separation, wt2.SeparationRadius, wt2.Alignment, wt2.Cohesion, wt2.NeighbourRadius} {
				bits[4+i] = math.Float64bits(v)
			}
		}
		want := bits[0] == math.Float64bits(kin.MaxSpeed) && bits[1] == math.Float64bits(kin.MaxForce) &&
			bits[2] == math.Float64bits(kin.Radius) && bits[3] == math.Float64bits(factor) && (w2 == nil) == (w == nil)
		if want && w != nil {
			for i, v := range []float64{wt.Wall, wt.Separation, wt.SeparationRadius, wt.Alignment, wt.Cohesion, wt.NeighbourRadius} {
				want = want && bits[4+i] == math.Float64bits(v)
			}
		}
		got := kd.ofBits(&kin2, w2, factor2)
		if want != got { // testify only on a mismatch: a call per case costs a stack walk
			require.Equal(t, want, got, "case %d: %+v %+v %v against %+v %v %v", k, kin2, w2, factor2, kin, w, factor)
		}
		if got {
			same++
			again := newKind(&kin2, w2, factor2)
			if kindBits(&kd) != kindBits(&again) {
				require.Equal(t, kindBits(&kd), kindBits(&again), "case %d", k)
			}
		}
	}
	require.Greater(t, same, 20000)
}

// TestSteerKindAtStep: what atStep works out once a kind and frame is what
// forcePlain worked out per agent before, to the bit: arrive's far test's
// bound and its tests of the limits alone, and crowdSlow's answer from
// crowdTop2, for usual and odd limits, steps and velocities.
func TestSteerKindAtStep(t *testing.T) {
	rng := steer.NewRand(41)
	odd := []float64{0, math.Copysign(0, -1), 1e-300, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1, 1e154, math.MaxFloat64}
	pick := func(usual float64) float64 {
		if rng.Intn(5) == 0 {
			return odd[rng.Intn(len(odd))]
		}
		return usual
	}
	slow, brakes := 0, 0
	for k := range 200000 {
		kin := components.Kinematics{MaxSpeed: pick(0.5 + rng.Float64()*6), MaxForce: pick(1 + rng.Float64()*30), Radius: 0.3}
		wt := components.SteeringWeights{Wall: 1, Separation: 1.5, SeparationRadius: 0.75}
		factor := []float64{1, 0.5, 0, 1.5, math.NaN()}[rng.Intn(5)]
		dt := pick([]float64{1.0 / 60, 1.0 / 30, 0.1, 0.5}[rng.Intn(4)])
		kd := newKind(&kin, &wt, factor)
		kd.atStep(dt)
		maxF, maxSpeed := kd.kin.MaxForce, kd.speed
		h := maxSpeed + float64(maxF*dt/2)
		b := h * h * (1 + 1e-9)
		ok := maxSpeed > 0 && maxF > 0 && b <= math.MaxFloat64
		if math.Float64bits(b) != math.Float64bits(kd.brakeB) || ok != kd.brakeOK { // testify (a stack walk) only on a mismatch
			require.Equal(t, math.Float64bits(b), math.Float64bits(kd.brakeB), "case %d", k)
			require.Equal(t, ok, kd.brakeOK, "case %d", k)
		}
		if ok {
			brakes++
		}
		vel := r2.Vec{X: pick((rng.Float64() - 0.5) * 3), Y: pick((rng.Float64() - 0.5) * 3)}
		want := crowdSlow(vel, maxF, dt)
		if got := !(norm2(vel) > kd.crowdTop2); got != want {
			require.Equal(t, want, got, "case %d: vel %v, maxF %v, dt %v", k, vel, maxF, dt)
		}
		if want {
			slow++
		}
	}
	require.Greater(t, slow, 20000)
	require.Greater(t, brakes, 20000)
}
