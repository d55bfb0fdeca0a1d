package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestPerceptionIsTheNearestVisibleFoe checks every perception of a crowd
// (half the agents with a 120° field of view) against the plain rule, scanned
// without the bucket search or the line-of-sight shortcut: the agent of
// another team within SightRange, inside the field of view and in line of
// sight over the grid, nearest (by squared distance), and of equals the lowest entity ID. 1 and 2
// workers (the foe index built on the workers too).
func TestPerceptionIsTheNearestVisibleFoe(t *testing.T) {
	defer systems.SetLightParallelMin(systems.SetLightParallelMin(1)) // the foe index built on the workers
	for _, workers := range []int{1, 2} {
		sc := newCrowd(t, 3000, 4, workers, false)
		s := ecs.NewScheduler(sc.systems()...)
		s.Initialize(sc.World)
		t.Cleanup(func() { s.Finalize(sc.World) })
		f := generic.NewFilter3[components.Position, components.Faction, components.Perception]()
		q := f.Query(sc.World)
		for i := 0; q.Next(); i++ {
			if _, _, per := q.Get(); i%2 == 0 {
				per.FieldOfView = 2 * math.Pi / 3
			}
		}
		nb := ecs.Resource[systems.Neighbours](sc.World)
		checked, seen := 0, 0
		for frame := range 40 {
			// the frame's systems up to Perception, the check, then the rest
			rest := sc.systems()
			for len(rest) > 0 {
				sys := rest[0]
				rest = rest[1:]
				sys.Update(sc.World)
				if sys == ecs.System(sc.Perception) {
					break
				}
			}
			now := ecs.ClockOf(sc.World).Time
			q := f.Query(sc.World)
			for q.Next() {
				pos, fac, per := q.Get()
				id := nb.ID(q.Entity())
				if !per.Fresh || per.Time != now || id < 0 {
					continue // did not perceive this frame
				}
				checked++
				require.Equal(t, pos.Vec, nb.Positions[id])
				want, wantD := plainPerceive(sc, nb, q.Entity(), nb.Positions[id], fac.Team, per)
				require.Equal(t, want != arche.Entity{}, per.Visible, "workers %d frame %d", workers, frame)
				if per.Visible {
					seen++
					require.Equal(t, want, per.Target, "workers %d frame %d", workers, frame)
					require.Equal(t, wantD, per.Distance)
				}
			}
			for _, sys := range rest {
				sys.Update(sc.World)
			}
		}
		assert.Greater(t, checked, 3000, "agents perceived")
		assert.Greater(t, seen, 100, "foes seen")
	}
}

// plainPerceive is Perception's rule written as a scan of Query's answer.
// The agent's Heading was set by the perception under test (from its
// Velocity when non-zero), as the rule says.
func plainPerceive(sc *crowd, nb *systems.Neighbours, self arche.Entity, pos r2.Vec, team uint8, per *components.Perception) (arche.Entity, float64) {
	cosHalf := -2.0
	if fov := per.FieldOfView; fov > 0 && fov < 2*math.Pi && (per.Heading.X != 0 || per.Heading.Y != 0) {
		cosHalf = math.Cos(fov / 2)
	}
	hn := math.Hypot(per.Heading.X, per.Heading.Y)
	best, bestD2 := arche.Entity{}, math.Inf(1)
	for _, id := range nb.Hash.Query(pos, per.SightRange, nil) {
		if nb.Teams[id] == team || nb.Entities[id] == self {
			continue
		}
		d := r2.Sub(nb.Positions[id], pos)
		d2 := float64(d.X*d.X) + float64(d.Y*d.Y) // rounded as Perception's (no multiply-add on any build)
		dist := math.Sqrt(d2)
		if d2 > bestD2 || (d2 == bestD2 && nb.Entities[id].ID() > best.ID()) || (cosHalf > -2 && dist > 0 && float64(d.X*per.Heading.X)+float64(d.Y*per.Heading.Y) < cosHalf*dist*hn) ||
			!sc.Grid.LineOfSight(pos, nb.Positions[id]) {
			continue
		}
		best, bestD2 = nb.Entities[id], d2
	}
	return best, math.Sqrt(bestD2)
}
