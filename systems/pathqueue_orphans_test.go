package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// review4Run drives a path queue of a small budget (searches carried over
// frames) through a busy normal run: requests, requests replacing waiting
// ones, goals moved while waiting (as PathFollow does), agents removed and
// their IDs reused, wide agents, grid edits; and, when fresh, Path values
// replaced whole by the user (Request starts again from 0). Before each
// Update Diagnose must count no path_not_queued, and the Update must ask
// again for nothing.
func review4Run(t *testing.T, seed uint64, fresh bool) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(60, 50)
	rng := steer.NewRand(seed)
	for range 400 {
		g.SetCost(grid.Cell{X: int32(rng.Intn(60)), Y: int32(rng.Intn(50))}, grid.Blocked)
	}
	arche.AddResource(w, g)
	pq := &PathQueue{Budget: 40}
	pq.Initialize(w)
	m := generic.NewMap3[components.Position, components.Path, components.Kinematics](w)
	paths := generic.NewMap1[components.Path](w)
	cell := func() grid.Cell { return grid.Cell{X: int32(rng.Intn(60)), Y: int32(rng.Intn(50))} }
	var es []arche.Entity
	spawn := func() {
		c := cell()
		es = append(es, m.NewWith(&components.Position{Vec: r2.Vec{X: float64(c.X) + 0.5, Y: float64(c.Y) + 0.5}},
			&components.Path{Want: true, Goal: cell(), Priority: int8(rng.Intn(3))},
			&components.Kinematics{Radius: []float64{0.3, 0.5, 1.2}[rng.Intn(3)]}))
	}
	for range 30 {
		spawn()
	}
	for frame := range 300 {
		for range 4 {
			i := rng.Intn(len(es))
			e := es[i]
			p := paths.Get(e)
			switch rng.Intn(7) {
			case 0, 1:
				p.Want, p.Goal = true, cell()
			case 2:
				if p.State == components.PathPending {
					p.Goal = cell() // PathFollow: the queue serves the newest goal
				}
			case 3:
				w.RemoveEntity(e)
				es[i] = es[len(es)-1]
				es = es[:len(es)-1]
				spawn() // likely reuses the ID
			case 4:
				g.SetCost(cell(), []float32{grid.Blocked, 1}[rng.Intn(2)])
			case 5:
				if fresh {
					*p = components.Path{Want: true, Goal: cell()}
				}
			}
		}
		if r := Diagnose(w); r.Counts[CausePathNotQueued] != 0 {
			e := r.Examples[CausePathNotQueued]
			p := paths.Get(e)
			t.Fatalf("frame %d: %d path_not_queued (entity %v request %d); waiting %d", frame, r.Counts[CausePathNotQueued], e, p.Request, pq.waiting)
		}
		pq.Update(w)
		if pq.Requeued != 0 {
			t.Fatalf("frame %d: requeued %d in a normal run", frame, pq.Requeued)
		}
	}
	if pq.TotalServed == 0 {
		t.Fatal("nothing served")
	}
}

func TestPathQueueNormalRunNoOrphans(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		review4Run(t, seed, false)
	}
}

func TestPathQueueFreshPathValueNoOrphans(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		review4Run(t, seed, true)
	}
}

// Orphans made by hand (a Ready path set back to PathPending without Want) in
// a busy queue with stale tickets around: each is reported by Diagnose and
// served within a bounded number of frames.
func TestPathQueueHandMadeOrphansServed(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 40)
	arche.AddResource(w, g)
	rng := steer.NewRand(77)
	pq := &PathQueue{Budget: 60}
	pq.Initialize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	paths := generic.NewMap1[components.Path](w)
	cell := func() grid.Cell { return grid.Cell{X: int32(rng.Intn(40)), Y: int32(rng.Intn(40))} }
	var es []arche.Entity
	for range 40 {
		c := cell()
		es = append(es, m.NewWith(&components.Position{Vec: r2.Vec{X: float64(c.X) + 0.5, Y: float64(c.Y) + 0.5}},
			&components.Path{Want: true, Goal: cell()}))
	}
	since := map[arche.Entity]int{}
	for frame := range 400 {
		for range 3 {
			p := paths.Get(es[rng.Intn(len(es))])
			p.Want, p.Goal = true, cell() // replaced requests: stale tickets
		}
		if frame%7 == 0 {
			e := es[rng.Intn(len(es))]
			if p := paths.Get(e); p.State == components.PathReady && !p.Want {
				p.State = components.PathPending // an orphan
				since[e] = frame
				if n := Diagnose(w).Counts[CausePathNotQueued]; n == 0 {
					t.Fatalf("frame %d: orphan not reported", frame)
				}
			}
		}
		pq.Update(w)
		for e, f := range since {
			if p := paths.Get(e); p.State != components.PathPending {
				delete(since, e)
			} else if frame-f > 60 {
				t.Fatalf("frame %d: orphan %v pending since frame %d (requeued in total %d)", frame, e, f, pq.TotalRequeued)
			}
		}
	}
	if pq.TotalRequeued == 0 {
		t.Fatal("no orphan requeued")
	}
}
