package ecs_test

import (
	"fmt"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// After N Updates the Clock describes the last frame run: Frame N−1 and Time
// (N−1)·DT, the start of that frame. The time that has passed is Time+DT, and the next
// Update runs frame Frame+1.
func ExampleClock() {
	w := arche.NewWorld()
	s := ecs.NewScheduler(ecs.NewClockSystem(0.5))
	s.Initialize(&w)
	s.Run(&w, 4)
	c := ecs.ClockOf(&w)
	fmt.Printf("Scheduler.Frames %d: Clock.Frame %d, Time %.1f s; elapsed %.1f s, next frame %d\n",
		s.Frames(), c.Frame, c.Time, c.Time+c.DT, c.Frame+1)
	s.Update(&w)
	fmt.Printf("one more Update: Frame %d, Time %.1f s\n", c.Frame, c.Time)
	// Output:
	// Scheduler.Frames 4: Clock.Frame 3, Time 1.5 s; elapsed 2.0 s, next frame 4
	// one more Update: Frame 4, Time 2.0 s
}
