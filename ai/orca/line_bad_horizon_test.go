package orca

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// AgentLine and ObstacleLine, called on their own (a solver or a debug drawing of
// the half-planes of one's own), reported a line with a NaN point as defined (ok
// true) for a horizon of 0 or NaN (the zero Agent's), or one so small that its
// inverse overflows, and for discs already overlapping a dt of 1e-300; a negative
// horizon or dt gave a finite line with no meaning. They report false now, as
// for the undefined line of two coincident agents.
func TestLinesOfAnUnusableHorizonAreUndefined(t *testing.T) {
	wall := Segment{A: r2.Vec{X: 3, Y: 1}, B: r2.Vec{X: 3, Y: -1}}
	for _, h := range []float64{0, -1, math.NaN(), 5e-324} {
		_, ok := ObstacleLine(r2.Vec{}, r2.Vec{X: 1}, 0.5, h, wall)
		assert.False(t, ok, "ObstacleLine, horizon %v", h)

		a := Agent{Velocity: r2.Vec{X: 1}, Radius: 0.5, TimeHorizon: h}
		_, ok = AgentLine(&a, &Neighbour{Position: r2.Vec{X: 3, Y: 0.2}, Radius: 0.5}, 0.1)
		assert.False(t, ok, "AgentLine, horizon %v", h)

		a.TimeHorizon = 2 // overlapping discs: dt decides
		_, ok = AgentLine(&a, &Neighbour{Position: r2.Vec{X: 0.5}, Radius: 0.5}, h)
		assert.False(t, ok, "AgentLine of overlapping discs, dt %v", h)
	}
	_, ok := AgentLine(&Agent{Velocity: r2.Vec{X: 1}, Radius: 0.5, TimeHorizon: 2},
		&Neighbour{Position: r2.Vec{X: 0.5}, Radius: 0.5}, 1e-300)
	assert.False(t, ok, "a dt whose inverse overflows")

	// usable values still give their lines: a wall touched needs no horizon
	l, ok := ObstacleLine(r2.Vec{}, r2.Vec{X: 1}, 0.5, 2, wall)
	assert.True(t, ok)
	assert.True(t, finiteLine(l))
	l, ok = ObstacleLine(r2.Vec{X: 2.6}, r2.Vec{X: 1}, 0.5, 0, wall)
	assert.True(t, ok, "touching: the line moves away from the wall whatever the horizon")
	assert.Equal(t, r2.Vec{}, l.Point)
	l, ok = ObstacleLine(r2.Vec{}, r2.Vec{X: 1}, 0.5, math.Inf(1), wall)
	assert.True(t, ok, "an infinite horizon: the cone without its cut-off")
	assert.True(t, finiteLine(l))
}
