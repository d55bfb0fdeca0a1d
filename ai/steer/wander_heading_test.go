package steer_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestWanderForceAlongAHeadingWithoutDirection: a heading that is zero, NaN or
// infinite counts as none given (the velocity's direction, +x at rest), as Force
// does; one of another length counts by its direction. Before, a zero or NaN heading
// put the wander target on the agent (it braked, -4 cells/s², for good) and an
// infinite one gave no force at all.
func TestWanderForceAlongAHeadingWithoutDirection(t *testing.T) {
	pos, vel := r2.Vec{X: 5, Y: 5}, r2.Vec{X: 0.5}
	force := func(heading r2.Vec) r2.Vec {
		w := steer.Wander{Distance: 2, Radius: 1, Jitter: 1}
		r := steer.NewRand(1)
		return w.ForceAlong(pos, vel, heading, &r, 2, 4, 0.1)
	}
	w := steer.Wander{Distance: 2, Radius: 1, Jitter: 1}
	r := steer.NewRand(1)
	want := w.Force(pos, vel, &r, 2, 4, 0.1)
	assert.Greater(t, want.X, 3.9, "wandering on along +x: %v", want)
	for _, h := range []r2.Vec{{}, {X: math.NaN()}, {X: math.Inf(1)}, {X: math.NaN(), Y: 1}} {
		assert.Equal(t, want, force(h), "heading %v", h)
	}
	assert.InDelta(t, want.X, force(r2.Vec{X: 3}).X, 1e-12, "a heading of length 3 counts by its direction")
	assert.InDelta(t, want.Y, force(r2.Vec{X: 3}).Y, 1e-12)
	// at rest: +x
	w = steer.Wander{Distance: 2, Radius: 1, Jitter: 1}
	r = steer.NewRand(1)
	atRest := w.ForceAlong(pos, r2.Vec{}, r2.Vec{}, &r, 2, 4, 0.1)
	assert.Greater(t, atRest.X, 3.9, "%v", atRest)
}
