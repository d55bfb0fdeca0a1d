package scenario

import (
	"cmp"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// nbCheck runs after Spatial and checks this frame's Neighbours against the
// world: every agent with a finite Position is in it at its position, hash IDs
// follow entity IDs, and hash queries equal a brute-force scan.
type nbCheck struct {
	t   *testing.T
	f   *generic.Filter2[components.Position, components.Velocity]
	rng steer.Rand
}

func (c *nbCheck) Initialize(w *arche.World) {
	c.f = generic.NewFilter2[components.Position, components.Velocity]()
}
func (c *nbCheck) Finalize(w *arche.World) {}
func (c *nbCheck) Update(w *arche.World) {
	t := c.t
	nb := ecs.Resource[systems.Neighbours](w)
	q := c.f.Query(w)
	var pts []r2.Vec
	n := 0
	for q.Next() {
		p, _ := q.Get()
		e := q.Entity()
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			require.Less(t, nb.ID(e), int32(0))
			continue
		}
		n++
		id := nb.ID(e)
		if id < 0 {
			t.Fatalf("agent %v not in the hash", e)
		}
		// testify only on a mismatch: a call per agent and frame costs a stack walk
		if hp, ok := nb.Hash.Position(id); p.Vec != nb.Positions[id] || !ok || p.Vec != hp {
			require.Equal(t, p.Vec, nb.Positions[id], "agent %v", e)
			require.True(t, ok, "agent %v", e)
			require.Equal(t, p.Vec, hp, "agent %v", e)
		}
		pts = append(pts, p.Vec)
	}
	require.Equal(t, n, len(nb.Entities))
	require.True(t, slices.IsSortedFunc(nb.Entities, func(a, b arche.Entity) int { return cmp.Compare(a.ID(), b.ID()) }))
	for range 5 {
		if len(pts) == 0 {
			break
		}
		center := pts[c.rng.Intn(len(pts))]
		got := nb.Hash.Query(center, 2.5, nil)
		slices.Sort(got)
		var want []int32
		for id, p := range nb.Positions[:len(nb.Entities)] {
			if r2.Norm(r2.Sub(p, center)) <= 2.5 {
				want = append(want, int32(id))
			}
		}
		require.Equal(t, want, got)
	}
}

// swarmChurnRun runs the swarm with structural changes and goal changes
// between frames (agents spawned, removed, given another goal, a position
// made NaN and restored), checking Neighbours after Spatial each frame, and
// returns the state hash after every frame.
func swarmChurnRun(t *testing.T, workers int, frames int) []uint64 {
	sc, err := NewSwarm(SwarmConfig{Agents: 1500, Seed: 31, Workers: workers, GoalEvery: 0.5})
	require.NoError(t, err)
	w := sc.World
	list := sc.Systems()
	list = slices.Insert(list, 2, ecs.System(&nbCheck{t: t, rng: steer.NewRand(5)}))
	s := ecs.NewScheduler(list...)
	s.Initialize(w)
	defer s.Finalize(w)
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Motion: swarmMotion(systems.AvoidSeparation), Goal: sc.Director.Goal})
	require.NoError(t, err)
	rng := steer.NewRand(77)
	all := generic.NewFilter2[components.Position, components.FlowFollower]()
	get := generic.NewMap2[components.Position, components.FlowFollower](w)
	var ents []arche.Entity
	var nanned arche.Entity
	var nanAt r2.Vec
	var hashes []uint64
	for f := range frames {
		s.Update(w)
		hashes = append(hashes, systems.StateHash(w))
		if !nanned.IsZero() && w.Alive(nanned) {
			p, _ := get.Get(nanned)
			p.Vec = nanAt
			nanned = arche.Entity{}
		}
		ents = ents[:0]
		q := all.Query(w)
		for q.Next() {
			ents = append(ents, q.Entity())
		}
		slices.SortFunc(ents, func(a, b arche.Entity) int { return cmp.Compare(a.ID(), b.ID()) })
		switch f % 4 {
		case 0: // remove a few (storage order no longer entity order)
			for range 1 + rng.Intn(4) {
				k := rng.Intn(len(ents))
				if w.Alive(ents[k]) {
					w.RemoveEntity(ents[k])
				}
			}
		case 1: // spawn a few
			for range 1 + rng.Intn(6) {
				p, ok := randomOpenCell(sc.Grid, &rng)
				require.True(t, ok)
				sp.Spawn(p, nil)
			}
		case 2: // another goal for some
			for range 3 {
				e := ents[rng.Intn(len(ents))]
				if !w.Alive(e) {
					continue
				}
				p, ok := randomOpenCell(sc.Grid, &rng)
				require.True(t, ok)
				_, ff := get.Get(e)
				ff.Goal = sc.Grid.CellAt(p)
			}
		case 3: // a NaN position for one frame
			e := ents[rng.Intn(len(ents))]
			if w.Alive(e) {
				p, _ := get.Get(e)
				nanned, nanAt = e, p.Vec
				p.Vec = r2.Vec{X: math.NaN(), Y: 1}
			}
		}
	}
	return hashes
}

// review5: the swarm under churn (agents added and removed between frames,
// goals changed, a NaN frame) gives the same state after every frame for 1
// and 2 workers (and 3 with ARCHAI_LONG), and its Neighbours are the world's after every Spatial
// (Spatial's counted rebuild, FlowField's fused measure, PathFollow's flowHit).
func TestSwarmChurnSameForAnyWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	const frames = 90
	want := swarmChurnRun(t, 1, frames)
	others := []int{2}
	if os.Getenv("ARCHAI_LONG") != "" {
		others = append(others, 3) // (3 workers: a minute's budget for go test ./... spares it)
	}
	for _, workers := range others {
		got := swarmChurnRun(t, workers, frames)
		for f := range frames {
			require.Equal(t, want[f], got[f], "%d workers, frame %d", workers, f)
		}
	}
}
