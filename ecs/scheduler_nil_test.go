package ecs_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
)

// An optional system left unset (a nil interface, or a nil *T) in a schedule is a
// programming error named when the schedule is made, not a nil dereference at the
// first Initialize ("invalid memory address or nil pointer dereference").
func TestSchedulerRefusesANilSystem(t *testing.T) {
	var clock *ecs.ClockSystem
	assert.PanicsWithValue(t, "ecs: NewScheduler/Scheduler.Add: system 1 is nil (an optional system left unset? leave it out of the list)", func() {
		ecs.NewScheduler(ecs.NewClockSystem(1.0/60), nil)
	})
	assert.PanicsWithValue(t, "ecs: NewScheduler/Scheduler.Add: system 0 is a nil *ecs.ClockSystem (an optional system left unset? leave it out of the list)", func() {
		ecs.NewScheduler(clock)
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0 / 60))
	assert.Panics(t, func() { s.Add(nil) })
}
