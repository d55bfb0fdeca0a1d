package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
)

// The longest clock step at which Steer keeps a crowd of default Movers
// (MaxForce 20 cells/s², separation weight 1 within 0.9 cells) and of default
// FlowFollowers (weight 1.5 within 0.75 cells) at rest; Diagnose reports an
// agent on a longer step as step_too_long.
func ExampleSeparationStepLimit() {
	kin := components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
	mover := components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 0.9}
	follower := components.SteeringWeights{Wall: 1, Separation: 1.5, SeparationRadius: 0.75}
	fmt.Printf("Mover: %.3f s, FlowFollower: %.3f s\n",
		systems.SeparationStepLimit(&kin, &mover), systems.SeparationStepLimit(&kin, &follower))
	// Output:
	// Mover: 0.085 s, FlowFollower: 0.063 s
}
