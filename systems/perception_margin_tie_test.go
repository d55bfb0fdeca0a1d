package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A kept target is not dropped for a foe at the same distance, whatever the
// margin: a margin m > 0 below half a unit in the last place of the kept
// distance (1e-16 against 5 cells) left dk − m = dk, and the bounded search
// then took the foe of the lower entity ID at exactly dk, a foe nearer by 0,
// not by m. A lies 5 cells east (the lower ID), B first 4 cells south (the
// nearest, taken), then 5: B is kept. 1 and 2 workers.
func TestPerceptionKeepsItsTargetAgainstAnEqualFoe(t *testing.T) {
	for _, margin := range []float64{1e-16, 0.5} {
		for _, workers := range []int{1, 2} {
			w, _, guards, foes := marginWorld(t, margin)
			guard := guards.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
			a := foes.Spawn(r2.Vec{X: 15.5, Y: 10.5}, nil) // 5 cells east
			b := foes.Spawn(r2.Vec{X: 10.5, Y: 14.5}, nil) // 4 cells south
			require.Less(t, a.ID(), b.ID())
			require.Equal(t, margin, compOf[components.Perception](w, guard).TargetMargin)
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &Spatial{}, &Perception{Workers: workers}, &Decision{})
			s.Initialize(w)
			s.Run(w, 2)
			require.Equal(t, b, compOf[components.Perception](w, guard).Target, "B, the nearest")
			compOf[components.Position](w, b).Vec = r2.Vec{X: 10.5, Y: 15.5} // 5 cells, as A
			var got []arche.Entity
			for range 3 {
				s.Run(w, 2)
				per := compOf[components.Perception](w, guard)
				got = append(got, per.Target)
				assert.Equal(t, 5.0, per.Distance)
			}
			s.Finalize(w)
			assert.Equal(t, []arche.Entity{b, b, b}, got, "margin %v, workers %d: B kept against A at the same distance", margin, workers)
		}
	}
}
