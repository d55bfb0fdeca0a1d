package balance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSharesFollowTimes: a part that took twice as long as the other gives
// up a quarter of the way to the share that would have evened them (1/3:
// its speed is half the other's); one that took three times as long, as
// much (a speed under half the fastest's is taken as half); repeated, the
// shares settle where the times are equal.
func TestSharesFollowTimes(t *testing.T) {
	var s Shares
	s.Reset(2)
	assert.Equal(t, []int{0, 50, 100}, s.Bounds(100, nil), "equal shares at first")
	s.Took(0, 2000)
	s.Took(1, 1000)
	s.Adapt()
	assert.InDelta(t, 0.5+0.25*(1.0/3-0.5), s.w[0], 1e-12, "0.5 + 0.25·(1/3 − 0.5)")
	assert.InDelta(t, 0.5+0.25*(1.0/3-0.5), s.Cut(1), 1e-12)
	assert.Equal(t, []int{0, 46, 100}, s.Bounds(100, nil))
	s.Reset(2)
	s.Took(0, 3000)
	s.Took(1, 1000)
	s.Adapt()
	assert.InDelta(t, 0.5+0.25*(1.0/3-0.5), s.w[0], 1e-12, "three times as long counts as twice")
	s.Reset(2)
	// a worker twice as slow per item: times proportional to share × speed
	for range 60 {
		s.Took(0, int64(2e6*s.w[0]))
		s.Took(1, int64(1e6*s.w[1]))
		s.Adapt()
	}
	assert.InDelta(t, 1.0/3, s.w[0], 1e-3, "settles where both take as long")
	// a part's time missing (it did not run): the shares stay
	w0 := s.w[0]
	s.Took(1, 5)
	s.Adapt()
	assert.Equal(t, w0, s.w[0])
}

// TestSharesBounded: however lopsided the times, no part's share leaves
// [0.5, 1.5] of an equal one, and the shares sum to 1.
func TestSharesBounded(t *testing.T) {
	var s Shares
	s.Reset(3)
	for range 40 {
		s.Took(0, 1)
		s.Took(1, 1e9)
		s.Took(2, 1e9)
		s.Adapt()
	}
	sum := 0.0
	for _, w := range s.w {
		sum += w
		assert.GreaterOrEqual(t, w, lowest/3-1e-12)
		assert.LessOrEqual(t, w, highest/3+1e-12)
	}
	assert.InDelta(t, 1, sum, 1e-12)
	b := s.Bounds(1000, nil)
	require.Len(t, b, 4)
	assert.Equal(t, 0, b[0])
	assert.Equal(t, 1000, b[3])
	for k := range 3 {
		assert.LessOrEqual(t, b[k], b[k+1])
	}
	assert.Equal(t, []int{0, 0}, func() []int { var o Shares; o.Reset(1); return o.Bounds(0, nil) }(), "one part, no item")
}
