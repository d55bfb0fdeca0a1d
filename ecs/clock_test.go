package ecs

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckedClockRefusesBadDT(t *testing.T) {
	cases := []struct {
		dt   float64
		want string // error message; "" for none
	}{
		{1.0 / 60, ""},
		{1e9, ""}, // absurd but finite: the systems cope (Movement cuts steps)
		{math.SmallestNonzeroFloat64, ""},
		{0, "ecs: clock step 0: dt must be a finite number of seconds > 0"},
		{-0.5, "ecs: clock step -0.5: dt must be a finite number of seconds > 0"},
		{math.NaN(), "ecs: clock step NaN: dt must be a finite number of seconds > 0"},
		{math.Inf(1), "ecs: clock step +Inf: dt must be a finite number of seconds > 0"},
		{math.Inf(-1), "ecs: clock step -Inf: dt must be a finite number of seconds > 0"},
	}
	for _, c := range cases {
		s, err := NewClockSystemChecked(c.dt)
		if c.want == "" {
			require.NoError(t, err, "dt %v", c.dt)
			w := arche.NewWorld()
			s.Initialize(&w)
			s.Update(&w)
			assert.Equal(t, c.dt, ClockOf(&w).DT)
			continue
		}
		assert.Nil(t, s)
		assert.EqualError(t, err, c.want)
		assert.ErrorIs(t, err, ErrDT)
		assert.ErrorIs(t, CheckDT(c.dt), ErrDT)
	}
}
