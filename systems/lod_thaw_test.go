package systems

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent whose stagger phase falls inside the thaw frame's step (Next in [now, now+dt))
// would have thought in that frame anyway: after the thaw think its next think is an
// Interval later, not in the next frame. Think.Next at the thaw was the latest phase time at
// or before now, so those agents (one in six at 10 Hz and 60 frames/s) thought in the thaw
// frame and again in the next one: 213 thinks in frame 181 instead of about 100, each tree
// seeing a dt of 1/60 s instead of its 0.1 s interval.
func TestLODThawDoesNotThinkTwiceInARow(t *testing.T) {
	const n = 600
	lod := &LOD{Points: []r2.Vec{{X: 10, Y: 10}}}
	w, s, dec := staggeredCrowd(t, n, lod)
	total := 0
	for f := range 186 {
		switch f {
		case 60:
			lod.Points[0] = r2.Vec{X: 290, Y: 10} // beyond 96 cells: all frozen
		case 180:
			lod.Points[0] = r2.Vec{X: 10, Y: 10} // back: all thaw in this frame
		}
		s.Update(w)
		switch {
		case f == 180:
			assert.Equal(t, n, dec.Thought, "every thawed agent thinks in the thaw frame")
		case f > 180:
			assert.InDelta(t, n/6, dec.Thought, n/12, "frame %d: thinks per frame after a thaw", f)
			total += dec.Thought
		}
	}
	// frames 181..185 with 180 are one interval: each agent thinks in one of them besides the thaw think
	assert.InDelta(t, 5*n/6, total, n/30, "thinks in the five frames after the thaw")
}

// A LOD level of Interval 0 thinks at DefaultThinkInterval (LODLevel's doc): a crowd that
// thaws into it, or moves into it from a slower level, keeps its stagger too. thawNext
// read Interval 0 as "no interval" and set every Think.Next to now (all in one frame of
// six for good), and a level change from 0.5 s to 0 moved Next back 0.5 s, so that the
// next think's Next+0.1 was still past and became now+0.1 for all of them.
func TestLODIntervalZeroLevelKeepsTheStagger(t *testing.T) {
	for _, far := range []r2.Vec{{X: 290, Y: 10}, {X: 80, Y: 10}} { // frozen; 0.5 s level
		const n = 600
		lod := &LOD{Points: []r2.Vec{{X: 10, Y: 10}}, Levels: []LODLevel{{Distance: 32}, {Distance: 96, Interval: 0.5}}}
		w, s, dec := staggeredCrowd(t, n, lod)
		for f := range 306 {
			switch f {
			case 60:
				lod.Points[0] = far
			case 180:
				lod.Points[0] = r2.Vec{X: 10, Y: 10}
			}
			s.Update(w)
			if f >= 300 {
				assert.InDelta(t, n/6, dec.Thought, n/12, "far %v, frame %d: thinks per frame at the default 10 Hz", far, f)
			}
		}
	}
}
