package systems_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// Agents spawned on one spot (a door, a spawn point) with one goal coincide exactly, with
// the same velocity: the ORCA half-plane of such a pair is undefined, so each ignored the
// other and the five travelled stacked on one point all the way (pair distance 0.000 at
// every frame). The ORCA system parts them now: each sees the other a hair off, in a
// direction fixed by the pair and opposite for the two.
func TestORCAPartsAgentsSpawnedOnOneSpot(t *testing.T) {
	for _, workers := range []int{1, 2} {
		sc := newAvoidScene(t, 40, 40, workers, nil)
		for range 5 {
			sc.add(r2.Vec{X: 5.5, Y: 5.5}, r2.Vec{X: 30.5, Y: 20.5})
		}
		minDist := func() float64 {
			d := 1e9
			for i := range sc.agents {
				for j := i + 1; j < len(sc.agents); j++ {
					d = min(d, r2.Norm(r2.Sub(sc.pos.Get(sc.agents[i]).Vec, sc.pos.Get(sc.agents[j]).Vec)))
				}
			}
			return d
		}
		sc.Sched.Initialize(sc.World)
		for range 60 { // one second
			sc.Sched.Update(sc.World)
		}
		assert.Greater(t, minDist(), 0.3, "parted within a second (radius 0.3), %d workers", workers)
		for range 60 * 20 {
			sc.Sched.Update(sc.World)
		}
		for i, e := range sc.agents {
			assert.Less(t, r2.Norm(r2.Sub(sc.pos.Get(e).Vec, sc.goals[i])), 1.5, "agent %d near the goal", i)
		}
		sc.Sched.Finalize(sc.World)
	}
}
