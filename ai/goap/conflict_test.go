package goap_test

import (
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A goal or an action whose conditions on one fact cannot all hold (y > 5 and y < 3)
// was built, and the planner then blamed the plan's length: every search ran to
// MaxSteps actions adding to y and returned ErrPlanTooLong, "a longer plan might
// (split the goal into nearer ones)", while no plan of any length exists, and
// WhyNoPlan explained nothing (""). Build now refuses such conditions (ErrConflict),
// naming the goal or action and the fact's conditions.
func TestBuildRefusesConditionsThatCannotAllHold(t *testing.T) {
	build := func(pre, want []goap.Cond) error {
		b := goap.NewBuilder("d")
		x, y := b.Fact("x"), b.Fact("y")
		_ = y
		b.Action(goap.Action{Name: "Grow", Cost: 1, Effects: []goap.Effect{{Fact: 1, Value: 1, Add: true}}})
		b.Action(goap.Action{Name: "Win", Cost: 1, Pre: pre, Effects: []goap.Effect{{Fact: x, Value: 1}}})
		b.Goal(goap.Goal{Name: "G", Priority: 1, Want: want})
		_, err := b.Build()
		return err
	}
	x1 := []goap.Cond{{Fact: 0, Op: goap.Eq, Value: 1}}
	err := build([]goap.Cond{{Fact: 1, Op: goap.Gt, Value: 5}, {Fact: 1, Op: goap.Lt, Value: 3}}, x1)
	require.ErrorIs(t, err, goap.ErrConflict)
	assert.EqualError(t, err, `goap: domain "d": action 1 "Win": conditions on y cannot all hold: `+
		`y > 5, y < 3: conditions that contradict each other`)

	err = build(nil, []goap.Cond{{Fact: 1, Op: goap.Ge, Value: 5}, {Fact: 1, Op: goap.Le, Value: 3}})
	assert.ErrorIs(t, err, goap.ErrConflict)
	err = build(nil, []goap.Cond{{Fact: 1, Op: goap.Eq, Value: 4}, {Fact: 1, Op: goap.Ne, Value: 4}})
	assert.ErrorIs(t, err, goap.ErrConflict)
	err = build([]goap.Cond{{Fact: 1, Op: goap.Lt, Value: -32768}}, x1)
	assert.ErrorIs(t, err, goap.ErrConflict, "no int16 value is below -32768")
	err = build([]goap.Cond{{Fact: 1, Op: goap.Gt, Value: 2}, {Fact: 1, Op: goap.Lt, Value: 5},
		{Fact: 1, Op: goap.Ne, Value: 3}, {Fact: 1, Op: goap.Ne, Value: 4}}, x1)
	assert.ErrorIs(t, err, goap.ErrConflict, "3 and 4 are the only values between, and both excluded")

	// conditions that can hold together are kept
	assert.NoError(t, build([]goap.Cond{{Fact: 1, Op: goap.Gt, Value: 2}, {Fact: 1, Op: goap.Lt, Value: 5},
		{Fact: 1, Op: goap.Ne, Value: 3}}, x1))
	assert.NoError(t, build([]goap.Cond{{Fact: 1, Op: goap.Ge, Value: 3}, {Fact: 0, Op: goap.Le, Value: 0}}, x1))
}
