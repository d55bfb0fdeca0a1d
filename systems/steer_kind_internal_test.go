package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
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
		require.Equal(t, bits(want), bits(got), "vel %v dir %v speed %v force %v dt %v", vel, dir, speed, force, dt)
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
