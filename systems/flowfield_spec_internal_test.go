package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowFieldCollectSamplesAsWork: the collect pass samples the agents
// that entered a new cell against the last frame's fields and writes only
// the listed agents back (see flowResolve); every FlowFollower must end
// each frame exactly as with sampling left to Work (noSpec), through steady
// frames, goal moves (one goal of three, and all at once), a wall built
// across the crowd and a door closed on agents (fields rebuilt and
// swapped), fields built over frames (Budget), agents added and removed, a
// user resetting Cell, Arrived and Goal of some agents, and a Spacing
// change, with 1, 2 and 3 workers. It also checks that the steady frames
// took the listed path and that guesses failed after agents were sampled
// (the undo ran).
func TestFlowFieldCollectSamplesAsWork(t *testing.T) {
	t.Parallel()
	for _, budget := range []int{0, 1500} {
		for _, workers := range []int{1, 2, 3} {
			checkSpecAsWork(t, budget, workers, 0)
		}
	}
	// one field at most: a new goal's request restarts the field the
	// collect pass sampled with, and its followers are left without one
	for _, workers := range []int{1, 2} {
		checkSpecAsWork(t, 0, workers, 1)
	}
}

func checkSpecAsWork(t *testing.T, budget, workers, fields int) {
	type side struct {
		w    *arche.World
		g    *grid.Grid
		b    generic.Map2[components.Position, components.FlowFollower]
		ff   *FlowField
		ents []arche.Entity
	}
	goals := []grid.Cell{{X: 40, Y: 32}, {X: 10, Y: 50}, {X: 55, Y: 8}}
	mk := func(noSpec bool) *side {
		world := arche.NewWorld()
		s := &side{w: &world, g: grid.New(64, 64)}
		for y := int32(16); y < 48; y++ {
			s.g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked)
		}
		for x := int32(36); x < 50; x++ {
			s.g.SetCost(grid.Cell{X: x, Y: 40}, grid.Blocked)
		}
		arche.AddResource(s.w, s.g)
		s.b = generic.NewMap2[components.Position, components.FlowFollower](s.w)
		s.ff = &FlowField{Workers: workers, Budget: budget, Spacing: 0.6, Capacity: fields, MaxFields: fields, noSpec: noSpec}
		s.ff.Initialize(s.w)
		return s
	}
	a, ref := mk(false), mk(true)
	sides := []*side{a, ref}
	rng := rand.New(rand.NewPCG(11, uint64(workers)))
	add := func(k int) {
		for range k {
			p := r2.Vec{X: 1.5 + rng.Float64()*61, Y: 1.5 + rng.Float64()*61}
			gl := goals[rng.IntN(len(goals))]
			for _, s := range sides {
				s.ents = append(s.ents, s.b.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: gl}))
			}
		}
	}
	add(900)
	listed, undone := 0, 0
	frames := 160
	if fields > 0 {
		frames = 70 // past the first removal (frame 50)
	}
	for frame := range frames {
		switch frame {
		case 20: // one goal of three moves
			goals[1] = grid.Cell{X: 20, Y: 20}
		case 35: // a wall across the crowd: every field rebuilt and swapped in
			for _, s := range sides {
				for x := int32(5); x < 28; x++ {
					s.g.SetCost(grid.Cell{X: x, Y: 30}, grid.Blocked)
				}
			}
		case 50: // agents removed, nobody switching
			for _, s := range sides {
				for _, e := range s.ents[:150] {
					s.w.RemoveEntity(e)
				}
				s.ents = s.ents[150:]
			}
		case 60: // new followers
			add(200)
		case 70: // a door closed on agents: cells under them blocked
			for _, s := range sides {
				for y := int32(50); y < 56; y++ {
					for x := int32(40); x < 46; x++ {
						s.g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
					}
				}
			}
		case 85: // and opened again
			for _, s := range sides {
				for y := int32(50); y < 56; y++ {
					for x := int32(40); x < 46; x++ {
						s.g.SetCost(grid.Cell{X: x, Y: y}, 1)
					}
				}
			}
		case 100: // every goal moves at once
			goals[0], goals[1], goals[2] = grid.Cell{X: 60, Y: 60}, grid.Cell{X: 45, Y: 45}, grid.Cell{X: 5, Y: 5}
		case 130:
			for _, s := range sides {
				s.ff.Spacing = 1.1
			}
		}
		// the user's writes, and everyone drifting along its sample (or
		// towards its goal), the same on both sides
		for i := range a.ents {
			pa, fa := a.b.Get(a.ents[i])
			pr, fr := ref.b.Get(ref.ents[i])
			if *pr != *pa || *fr != *fa { // testify only on a mismatch (a stack walk a call)
				require.Equal(t, *pr, *pa)
				require.Equal(t, *fr, *fa, "budget %d, workers %d, frame %d, agent %d", budget, workers, frame, i)
			}
			gl := goals[i%len(goals)]
			reset := rng.IntN(40)
			dx, dy := rng.Float64()*0.3, rng.Float64()*0.3
			for _, s := range []struct {
				p *components.Position
				f *components.FlowFollower
			}{{pa, fa}, {pr, fr}} {
				if frame >= 20 {
					s.f.Goal = gl
				}
				switch reset {
				case 0:
					s.f.Cell = noCell
				case 1:
					s.f.Arrived = !s.f.Arrived
				}
				to := s.f.Aim
				if !s.f.Steer {
					to = a.g.Center(s.f.Goal)
				}
				d := r2.Sub(to, s.p.Vec)
				if n := r2.Norm(d); n > 0 && !s.f.Arrived {
					s.p.Vec = r2.Add(s.p.Vec, r2.Scale(0.25/n, d))
				}
				s.p.X += dx - 0.15
				s.p.Y += dy - 0.15
			}
		}
		for _, s := range sides {
			s.ff.Update(s.w)
		}
		if a.ff.listed {
			listed++
		}
		for _, u := range a.ff.undo {
			if len(u) > 0 && !a.ff.spec {
				undone++
				break
			}
		}
		require.False(t, ref.ff.listed)
		require.Equal(t, ref.ff.Waiting, a.ff.Waiting)
	}
	if fields == 0 {
		require.Greater(t, listed, 60, "budget %d, workers %d: frames written back from the list", budget, workers)
	}
	require.Greater(t, undone, 0, "budget %d, workers %d: guesses failed after sampling", budget, workers)
	for _, s := range sides {
		s.ff.Finalize(s.w)
	}
}
