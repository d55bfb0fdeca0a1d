package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// Movement lets an agent in a blocked cell move freely in the grid: an agent that starts
// a frame in an open cell must still never end it in a blocked one, however fast, on
// walls 1 to 10 cells thick, diagonal gaps (blocked cells touching at a corner), at the
// grid's edges and from off the grid. Random forces each frame, speeds up to 300 cells/s
// (10 cells a frame), at 1 and 3 workers.
func TestHealthyAgentsNeverEnterWalls(t *testing.T) {
	for _, workers := range []int{1, 3} {
		w, g := newWorld(48, 40)
		rng := rand.New(rand.NewPCG(13, uint64(workers)))
		for x := int32(6); x < 16; x++ { // a wall 10 thick
			for y := int32(0); y < 30; y++ {
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			}
		}
		for y := int32(4); y < 40; y++ { // a wall 1 thick
			g.SetCost(grid.Cell{X: 24, Y: y}, grid.Blocked)
		}
		for i := int32(0); i < 12; i++ { // a diagonal of cells touching at corners
			g.SetCost(grid.Cell{X: 30 + i, Y: 10 + i}, grid.Blocked)
			g.SetCost(grid.Cell{X: 30 + i, Y: 30 - i}, grid.Blocked)
		}
		for range 60 { // scattered single cells and 2×2 blocks
			x, y := int32(rng.IntN(48)), int32(rng.IntN(40))
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			if rng.IntN(2) == 0 && x+1 < 48 && y+1 < 40 {
				g.SetCost(grid.Cell{X: x + 1, Y: y + 1}, grid.Blocked)
			}
		}
		m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
		var es []arche.Entity
		for len(es) < 400 {
			p := r2.Vec{X: rng.Float64()*52 - 2, Y: rng.Float64()*44 - 2} // some off the grid
			if c := g.CellAt(p); g.InBounds(c) && !g.Passable(c) {
				continue
			}
			e := m.New()
			pos, _, kin, _ := m.Get(e)
			pos.Vec = p
			*kin = components.Kinematics{MaxSpeed: 1 + rng.Float64()*299, MaxForce: 5000, Radius: 0.3}
			es = append(es, e)
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &Movement{Workers: workers})
		s.Initialize(w)
		was := make([]bool, len(es))
		for f := range 300 {
			for i, e := range es {
				pos, _, _, st := m.Get(e)
				c := g.CellAt(pos.Vec)
				was[i] = !g.InBounds(c) || g.Passable(c) // open, or off the grid
				if f%10 == 0 {
					st.Force = r2.Vec{X: rng.NormFloat64() * 3000, Y: rng.NormFloat64() * 3000}
				}
			}
			s.Update(w)
			for i, e := range es {
				pos, _, _, _ := m.Get(e)
				c := g.CellAt(pos.Vec)
				if was[i] && g.InBounds(c) && !g.Passable(c) {
					t.Fatalf("workers %d frame %d: agent %d entered the blocked cell %v at %v", workers, f, i, c, pos.Vec)
				}
			}
		}
		s.Finalize(w)
	}
}

// An agent that stands in a blocked cell (a door closed on it, a spawn in a wall) moves
// freely through blocked cells until it is out, but never deeper into the wall
// (fixdoor21; before, it walked straight through a wall 10 cells thick and came out on
// the far side, even where that was a room no path led to): pressed east from the
// wall's west cell it stays in that cell (the next one east is deeper), and pressed west
// it walks out of the wall on the west side.
func TestAgentInAThickWallCrossesIt(t *testing.T) {
	w, g := newWorld(30, 10)
	for x := int32(10); x < 20; x++ {
		for y := int32(0); y < 10; y++ {
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
	east, west := m.New(), m.New()
	for _, e := range []arche.Entity{east, west} {
		pos, _, kin, st := m.Get(e)
		pos.Vec = r2.Vec{X: 10.5, Y: 5.5} // in the wall's west cell
		*kin = components.Kinematics{MaxSpeed: 4, MaxForce: 20}
		st.Force = r2.Vec{X: 20} // heading east, deeper into the wall
		if e == west {
			st.Force = r2.Vec{X: -20}
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 240)
	p, _, _, _ := m.Get(east)
	assert.Equal(t, grid.Cell{X: 10, Y: 5}, g.CellAt(p.Vec), "pressed east: stays in the west cell, not deeper in (at %v)", p.Vec)
	p, _, _, _ = m.Get(west)
	assert.Less(t, p.X, 10.0, "pressed west: out of the wall")
}
