// Package scene is an example's world with its systems, built but not yet initialized,
// and the one way the examples run it: a fault of setup comes back as an error (printed
// as one line by the example's main), not as a panic.
package scene

import (
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// Scene is a built world and the systems that run it, in frame order.
type Scene struct {
	World *arche.World
	Sched *ecs.Scheduler
	// Report writes the outcome once Play's frames have run; nil: nothing.
	Report func() error
}

// Play initializes the systems with [ecs.Scheduler.InitializeChecked], runs frames
// frames, finalizes the systems and calls Report, returning its error. A fault of setup
// found by a system's Initialize (a missing resource, an unusable setting, an order
// that cannot work) is returned as its *[ecs.SetupError], with no frame run.
func (s *Scene) Play(frames int) error {
	if err := s.Sched.InitializeChecked(s.World); err != nil {
		return err
	}
	s.Sched.Run(s.World, frames)
	s.Sched.Finalize(s.World)
	if s.Report == nil {
		return nil
	}
	return s.Report()
}
