package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/orca"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// gatherClosest runs 90 flow followers (radius 0.3) gathering at one goal on an
// open 40×40 grid for the given seconds at 30 frames per second, every other
// one with ORCA (the Avoider bundle) when mixed, all of them otherwise, and
// returns the closest approach, over every frame, of two ORCA agents and of two
// separation-only agents. It also reports whether, in the frame that brought
// the two ORCA agents closest, each stood among the other's MaxNeighbours
// nearest within NeighbourDist before the frame (the neighbour query could
// not have missed it).
func gatherClosest(t *testing.T, mixed bool, seconds int) closest {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(40, 40))
	goal := grid.Cell{X: 30, Y: 20}
	av := systems.Avoider{}
	o, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal}, av)
	require.NoError(t, err)
	p, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	for i := range 90 {
		pos := r2.Vec{X: 2.5 + float64(i%6), Y: 5.5 + float64(i/6)*2}
		if mixed && i%2 == 1 {
			p.Spawn(pos, nil)
		} else {
			o.Spawn(pos, nil)
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.FlowField{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)

	type agent struct {
		pos, vel, force r2.Vec
		radius, maxF    float64
		orca            bool
		params          components.ORCA
	}
	f := generic.NewFilter4[components.Position, components.Velocity, components.Kinematics, components.Steering]().
		With(generic.T[components.FlowFollower]())
	om := generic.NewMap1[components.ORCA](w)
	snapshot := func(dst []agent) []agent {
		dst = dst[:0]
		q := f.Query(w)
		for q.Next() {
			pos, vel, kin, st := q.Get()
			a := agent{pos: pos.Vec, vel: vel.Vec, force: st.Force, radius: kin.Radius, maxF: kin.MaxForce}
			if o := om.Get(q.Entity()); o != nil {
				a.orca, a.params = true, *o
			}
			dst = append(dst, a)
		}
		return dst
	}
	// among reports whether agent j is among agent i's MaxNeighbours nearest
	// within NeighbourDist in before (ties counted for j).
	among := func(before []agent, i, j int) bool {
		d := r2.Norm(r2.Sub(before[j].pos, before[i].pos))
		if d > before[i].params.NeighbourDist {
			return false
		}
		nearer := 0
		for k := range before {
			if k != i && k != j && r2.Norm(r2.Sub(before[k].pos, before[i].pos)) < d {
				nearer++
			}
		}
		return nearer < before[i].params.MaxNeighbours
	}
	const dt = 1.0 / 30
	// moved reports whether agent i moved as the force ORCA left it (not cut
	// by MaxForce, no wall slide): vel += force·dt, pos += vel·dt.
	moved := func(before, after []agent, i int) bool {
		b, a := before[i], after[i]
		return r2.Norm(a.force) <= a.maxF*(1+1e-9) &&
			r2.Norm(r2.Sub(a.vel, r2.Add(b.vel, r2.Scale(dt, a.force)))) < 1e-9 &&
			r2.Norm(r2.Sub(a.pos, r2.Add(b.pos, r2.Scale(dt, a.vel)))) < 1e-9
	}
	// violates reports whether agent i's new velocity lies outside the ORCA
	// half-plane agent j imposed on it at the start of the frame.
	violates := func(before, after []agent, i, j int) bool {
		a := orca.Agent{Position: before[i].pos, Velocity: before[i].vel, Radius: before[i].radius,
			TimeHorizon: before[i].params.TimeHorizon}
		n := orca.Neighbour{Position: before[j].pos, Velocity: before[j].vel, Radius: before[j].radius, Share: 0.5}
		l, ok := orca.AgentLine(&a, &n, dt)
		return ok && !l.Permits(after[i].vel, 1e-6)
	}
	c := closest{orca: math.Inf(1), sep: math.Inf(1)}
	var before, after []agent
	for range seconds * 30 {
		before = snapshot(before)
		s.Update(w)
		after = snapshot(after)
		for i := range after {
			for j := i + 1; j < len(after); j++ {
				d := r2.Norm(r2.Sub(after[i].pos, after[j].pos))
				switch {
				case after[i].orca && after[j].orca && d < c.orca:
					c.orca, c.seen = d, among(before, i, j) && among(before, j, i)
					c.moved = moved(before, after, i) && moved(before, after, j)
					c.violated = violates(before, after, i, j) && violates(before, after, j, i)
				case !after[i].orca && !after[j].orca:
					c.sep = min(c.sep, d)
				}
			}
		}
	}
	return c
}

// closest is what gatherClosest found.
type closest struct {
	orca, sep float64 // the closest approach of two ORCA agents, of two separation agents
	// in the frame that brought the ORCA pair closest:
	seen     bool // each among the other's neighbours before the frame
	moved    bool // both moved by the force ORCA wrote, uncut, with no wall slide
	violated bool // each one's new velocity outside the half-plane of the other
}

// TestORCAMixedCrowdOverlap pins a limit of ORCA found by newbie15's tower-defence
// wave (162 flow followers, a third with ORCA: two ORCA units 0.20 cells apart,
// radii 0.3 + 0.3). An ORCA crowd gathering at a goal keeps its discs apart to
// within a few hundredths of a cell; half of the same crowd with separation
// only (whose pairs come to 0.28 cells here, 0.08 in the wave) squeezes two ORCA agents well into
// each other, although each sees the other as a neighbour, takes all of the
// avoidance against the separation agents and has Movement apply its velocity
// unchanged on an open grid: the separation agents pressed in by the flow do
// not hold their course as ORCA's full-responsibility rule assumes, no
// velocity within MaxForce·dt avoids every neighbour, and ORCA's fallback then
// takes the one that violates all the neighbours' half-planes least, the
// other ORCA agent's as much as the rest.
func TestORCAMixedCrowdKeepsORCAApart(t *testing.T) {
	t.Parallel()
	const seconds = 30
	all := gatherClosest(t, false, seconds)
	require.Greater(t, all.orca, 0.55, "an all-ORCA crowd keeps its discs (radii sum 0.6) nearly apart")

	mixed := gatherClosest(t, true, seconds)
	t.Logf("all-ORCA %+v; mixed %+v", all, mixed)
	require.Less(t, mixed.sep, 0.3, "the separation-only agents pack closely")
	require.True(t, mixed.seen, "the closest ORCA pair saw each other through the neighbour query")
	require.True(t, mixed.moved, "Movement applied ORCA's velocities as chosen")
	// The pair used to come to 0.343 cells, each giving up the other's half-plane
	// as much as the separation agents' (no velocity within MaxForce·dt met them
	// all). Since fixorca21 the reciprocal half-planes give way only after those
	// of the agents that do not avoid (orca.Solver.Velocity): 0.600, as apart as
	// an all-ORCA crowd.
	// (not asserted since separation agents at rest stand still, Steer's
	// restPush: the closest pair, 0.5989 apart, each left the other's
	// half-plane in that frame, ORCA's program infeasible there, as in the
	// all-ORCA crowd; before, 0.5999 and kept)
	t.Logf("the closest ORCA pair left each other's half-plane: %v", mixed.violated)
	require.InDelta(t, 0.600, mixed.orca, 0.005, "closest ORCA pair in the mixed crowd")
}
