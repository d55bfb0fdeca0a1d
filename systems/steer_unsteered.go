package systems

import (
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// unsteered is Steer's rule for an agent it cannot steer because it has no
// Desired (removed mid-run, or never given one) while it has Velocity,
// Kinematics and Steering, so that Movement would go on integrating its last
// force: its force becomes a brake (steer.Brake: −vel/dt within MaxForce),
// so it comes to a stop within MaxSpeed²/(2·MaxForce) cells instead of
// flying on under a stale force, or zero if its Kinematics or Velocity are
// unusable (Movement then zeroes the velocity). An agent tagged
// [components.OwnMotion] is left alone: its program may write its Steering.
type unsteered struct {
	filter *generic.Filter3[components.Velocity, components.Kinematics, components.Steering]
}

// init builds the filter.
func (u *unsteered) init() {
	u.filter = generic.NewFilter3[components.Velocity, components.Kinematics, components.Steering]().
		Without(generic.T[components.Desired](), generic.T[components.OwnMotion]())
}

// brake writes the braking force of every agent the filter matches, for a
// frame of dt seconds.
func (u *unsteered) brake(w *arche.World, dt float64) {
	q := u.filter.Query(w)
	for q.Next() {
		vel, kin, st := q.Get()
		if !UsableKinematics(kin) || !finiteVec(vel.Vec) {
			st.Force = r2.Vec{}
			continue
		}
		st.Force = steer.Brake(vel.Vec, kin.MaxForce, dt)
	}
}
