package systems

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// A crowd that LOD slows down keeps its stagger spread over the slower interval: a
// newcomer's city spawned 50,000 thinkers at the default 0.1 s and slowed 40,000 of them to
// 2 s; each kept the phase it was spawned with, a fraction of 0.1 s, so every 2 s the whole
// slowed crowd thought within 6 frames (about 2,000 thinks a frame out of 12,000 in the
// repro, none in the 114 frames between: a frame at about 4 times the median every 2 s).
// LOD moved Think.Next by the difference of the intervals; it now scales the wait to the
// next think by the ratio of the intervals, so a crowd spread over 0.1 s is spread over 2 s.
func TestLODSlowedCrowdKeepsItsThinksSpread(t *testing.T) {
	const n = 1200
	lod := &LOD{Points: []r2.Vec{{X: 290, Y: 10}}, Levels: []LODLevel{{Distance: 1, Interval: 0.1}, {Distance: math.Inf(1), Interval: 2}}}
	w, s, dec := staggeredCrowd(t, n, lod)
	busy, busiest, total := 0, 0, 0
	for f := range 360 {
		s.Update(w)
		if f >= 120 { // two whole 2 s periods after the first
			total += dec.Thought
			busiest = max(busiest, dec.Thought)
			if dec.Thought > 0 {
				busy++
			}
		}
	}
	assert.InDelta(t, 2*n, total, n/20, "each agent thinks once every 2 s")
	assert.LessOrEqual(t, busiest, 3*n/120, "thinks in the busiest frame (n/120 = %d a frame if spread)", n/120)
	assert.GreaterOrEqual(t, busy, 200, "frames of the 240 with a think")
}

// And back: a crowd sped up from 2 s to 0.1 s is spread over 0.1 s at once.
func TestLODSpedUpCrowdKeepsItsThinksSpread(t *testing.T) {
	const n = 1200
	lod := &LOD{Points: []r2.Vec{{X: 290, Y: 10}}, Levels: []LODLevel{{Distance: 1, Interval: 0.1}, {Distance: math.Inf(1), Interval: 2}}}
	w, s, dec := staggeredCrowd(t, n, lod)
	for f := range 330 {
		if f == 250 {
			lod.Levels[0].Distance = 1e6 // every agent in the 0.1 s level
		}
		s.Update(w)
		if f >= 270 { // 10 Hz at 60 frames/s: about n/6 a frame
			assert.InDelta(t, n/6, dec.Thought, n/12, "frame %d: thinks per frame once sped up", f)
		}
	}
}
