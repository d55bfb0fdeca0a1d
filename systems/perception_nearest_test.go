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
// (half the agents with a 120° field of view; a third with no TargetMargin, a
// third with the Combatant's default of 1 cell, a third with 2.5) against the
// plain rule, scanned without the bucket search or the line-of-sight shortcut:
// the agent of another team within SightRange, inside the field of view and in
// line of sight over the grid, nearest (by squared distance), and of equals the
// lowest entity ID; but the last target, if it is such an agent still, unless
// the nearest is within its distance less the margin. 1 and 2 workers (the foe
// index built on the workers too).
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
			_, _, per := q.Get()
			if i%2 == 0 {
				per.FieldOfView = 2 * math.Pi / 3
			}
			require.Equal(t, systems.DefaultTargetMargin, per.TargetMargin, "the Combatant's default")
			switch i % 3 {
			case 0:
				per.TargetMargin = 0
			case 2:
				per.TargetMargin = 2.5
			}
		}
		last := map[arche.Entity]components.Perception{}
		kept := 0
		nb := ecs.Resource[systems.Neighbours](sc.World)
		checked, seen := 0, 0
		for frame := range 40 {
			// the frame's systems up to Perception, the check, then the rest
			rest := sc.systems()
			for len(rest) > 0 {
				sys := rest[0]
				rest = rest[1:]
				if sys == ecs.System(sc.Perception) {
					clear(last)
					for q := f.Query(sc.World); q.Next(); {
						_, _, per := q.Get()
						last[q.Entity()] = *per
					}
					sys.Update(sc.World)
					break
				}
				sys.Update(sc.World)
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
				want, wantD := plainPerceive(sc, nb, q.Entity(), nb.Positions[id], fac.Team, per, last[q.Entity()])
				require.Equal(t, want != arche.Entity{}, per.Visible, "workers %d frame %d", workers, frame)
				if per.Visible {
					seen++
					if near, _ := plainPerceive(sc, nb, q.Entity(), nb.Positions[id], fac.Team, per, components.Perception{}); near != want {
						kept++ // kept while a nearer one is in sight
					}
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
		assert.Greater(t, kept, 10, "targets kept while another was nearer")
	}
}

// plainPerceive is Perception's rule written as a scan of Query's answer;
// last is the agent's Perception before the update (its target kept by
// TargetMargin). The agent's Heading was set by the perception under test
// (from its Velocity when non-zero), as the rule says.
func plainPerceive(sc *crowd, nb *systems.Neighbours, self arche.Entity, pos r2.Vec, team uint8, per *components.Perception,
	last components.Perception) (arche.Entity, float64) {
	cosHalf := -2.0
	if fov := per.FieldOfView; fov > 0 && fov < 2*math.Pi && (per.Heading.X != 0 || per.Heading.Y != 0) {
		cosHalf = math.Cos(fov / 2)
	}
	hn := math.Hypot(per.Heading.X, per.Heading.Y)
	// sees returns the squared distance to the agent of hash ID id, +Inf if it is not seen
	sees := func(id int32) float64 {
		if nb.Teams[id] == team || nb.Entities[id] == self {
			return math.Inf(1)
		}
		d := r2.Sub(nb.Positions[id], pos)
		d2 := float64(d.X*d.X) + float64(d.Y*d.Y) // rounded as Perception's (no multiply-add on any build)
		dist := math.Sqrt(d2)
		if d2 > per.SightRange*per.SightRange ||
			(cosHalf > -2 && dist > 0 && float64(d.X*per.Heading.X)+float64(d.Y*per.Heading.Y) < cosHalf*dist*hn) ||
			!sc.Grid.LineOfSight(pos, nb.Positions[id]) {
			return math.Inf(1)
		}
		return d2
	}
	best, bestD2 := arche.Entity{}, math.Inf(1)
	for _, id := range nb.Hash.Query(pos, per.SightRange, nil) {
		d2 := sees(id)
		if d2 > bestD2 || (d2 == bestD2 && nb.Entities[id].ID() > best.ID()) || math.IsInf(d2, 1) {
			continue
		}
		best, bestD2 = nb.Entities[id], d2
	}
	if m := per.TargetMargin; m > 0 && last.Visible {
		if id := nb.ID(last.Target); id >= 0 {
			if kd2 := sees(id); !math.IsInf(kd2, 1) {
				if r := math.Sqrt(kd2) - m; r < 0 || !(bestD2 <= r*r) {
					return last.Target, math.Sqrt(kd2)
				}
			}
		}
	}
	return best, math.Sqrt(bestD2)
}
