package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestMovementTruncatesAsIntegrate checks Movement's integration, written out
// in its loop, against steer.Integrate bit for bit, for forces and velocities
// at, just under and just over their limits (within a few ulps and within
// 1e-7 and 1e-9 of them), and random ones. Every step stays within half a
// cell on an open grid, where Movement's answer is Integrate's.
func TestMovementTruncatesAsIntegrate(t *testing.T) {
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(64, 64))
	clock := ecs.NewClockSystem(1.0 / 60)
	m := &Movement{Workers: 1}
	build := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](&w)
	rng := rand.New(rand.NewPCG(3, 17))
	// a length near limit: the limit scaled by 1 + rel, nudged by ulps
	near := func(limit float64) float64 {
		l := limit
		switch rng.IntN(5) {
		case 0:
		case 1:
			l = limit * (1 + (rng.Float64()*2-1)*1e-7)
		case 2:
			l = limit * (1 + (rng.Float64()*2-1)*1e-9)
		case 3:
			l = limit * (0.2 + 1.6*rng.Float64())
		}
		for range rng.IntN(5) {
			if rng.IntN(2) == 0 {
				l = math.Nextafter(l, 0)
			} else {
				l = math.Nextafter(l, math.Inf(1))
			}
		}
		return l
	}
	vec := func(l float64) r2.Vec {
		a := rng.Float64() * 2 * math.Pi
		return r2.Vec{X: l * math.Cos(a), Y: l * math.Sin(a)}
	}
	type agent struct {
		e              arche.Entity
		pos, vel, frc  r2.Vec
		maxV, maxF, dt float64
	}
	var agents []agent
	for i := range 4000 {
		maxV, maxF := 0.5+3*rng.Float64(), 1+20*rng.Float64()
		a := agent{pos: r2.Vec{X: 4.25 + float64(i%50), Y: 4.25 + float64(i/50%50)}, maxV: maxV, maxF: maxF}
		a.vel, a.frc = vec(near(maxV)), vec(near(maxF))
		if i%7 == 0 { // a velocity that the force takes over the limit or just under it
			a.vel = vec(near(maxV) - near(maxF)/60)
		}
		a.e = build.NewWith(&components.Position{Vec: a.pos}, &components.Velocity{Vec: a.vel},
			&components.Kinematics{MaxSpeed: maxV, MaxForce: maxF, Radius: 0.3}, &components.Steering{Force: a.frc})
		agents = append(agents, a)
	}
	clock.Initialize(&w)
	m.Initialize(&w)
	defer m.Finalize(&w)
	clock.Update(&w)
	m.Update(&w)
	dt := ecs.ClockOf(&w).DT
	truncated := 0
	for _, a := range agents {
		wantP, wantV := steer.Integrate(a.pos, a.vel, a.frc, a.maxV, a.maxF, dt)
		p, v, _, _ := build.Get(a.e)
		if math.Float64bits(p.X) != math.Float64bits(wantP.X) || math.Float64bits(p.Y) != math.Float64bits(wantP.Y) ||
			math.Float64bits(v.X) != math.Float64bits(wantV.X) || math.Float64bits(v.Y) != math.Float64bits(wantV.Y) {
			t.Fatalf("agent vel %v force %v (limits %v, %v): Movement %v %v, Integrate %v %v", a.vel, a.frc, a.maxV, a.maxF, p.Vec, v.Vec, wantP, wantV)
		}
		if math.Hypot(a.vel.X+dt*a.frc.X, a.vel.Y+dt*a.frc.Y) > a.maxV {
			truncated++
		}
	}
	if truncated < 100 || truncated > len(agents)-100 {
		t.Fatalf("%d of %d velocities over the limit: the test should have many of both", truncated, len(agents))
	}
}

// TestMovementSameCellAsStep checks Movement's in-cell shortcut (a step
// within half a cell that stays in the agent's cell, found by truncation for
// coordinates in [+0, 2³¹)) against its general path, step, bit for bit:
// agents beside walls, on and within an ulp of cell edges, at −0 and at
// small negative coordinates (where truncation is not the floor), off the
// grid, with steps of every direction up to half a cell.
func TestMovementSameCellAsStep(t *testing.T) {
	w := arche.NewWorld()
	g := grid.New(16, 16)
	for y := int32(0); y < 16; y++ {
		g.SetCost(grid.Cell{X: 8, Y: y}, grid.Blocked)
	}
	g.SetCost(grid.Cell{X: 0, Y: 0}, grid.Blocked)
	arche.AddResource(&w, g)
	clock := ecs.NewClockSystem(1.0 / 60)
	m := &Movement{Workers: 1}
	build := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](&w)
	rng := rand.New(rand.NewPCG(5, 23))
	coord := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return -rng.Float64() * 0.4
		case 2:
			return -3 - rng.Float64()
		case 3: // on a cell edge, or an ulp beside it
			v := float64(rng.IntN(17))
			switch rng.IntN(3) {
			case 0:
				v = math.Nextafter(v, math.Inf(-1))
			case 1:
				v = math.Nextafter(v, math.Inf(1))
			}
			return v
		case 4: // near the wall column
			return 8 + (rng.Float64()*2-1)*0.3
		case 5:
			return 20 + rng.Float64()
		}
		return rng.Float64() * 16
	}
	type agent struct {
		e             arche.Entity
		pos, vel, frc r2.Vec
	}
	const maxV, maxF = 29.0, 40.0 // up to ~0.49 cells a frame at 60 frames/s
	var agents []agent
	for range 20000 {
		a := agent{pos: r2.Vec{X: coord(), Y: coord()}}
		ang := rng.Float64() * 2 * math.Pi
		sp := maxV * rng.Float64()
		a.vel = r2.Vec{X: sp * math.Cos(ang), Y: sp * math.Sin(ang)}
		a.frc = r2.Vec{X: (rng.Float64()*2 - 1) * maxF, Y: (rng.Float64()*2 - 1) * maxF}
		a.e = build.NewWith(&components.Position{Vec: a.pos}, &components.Velocity{Vec: a.vel},
			&components.Kinematics{MaxSpeed: maxV, MaxForce: maxF, Radius: 0.3}, &components.Steering{Force: a.frc})
		agents = append(agents, a)
	}
	clock.Initialize(&w)
	m.Initialize(&w)
	defer m.Finalize(&w)
	clock.Update(&w)
	m.Update(&w)
	dt := ecs.ClockOf(&w).DT
	inCell, blocked := 0, 0
	for _, a := range agents {
		next, nv := steer.Integrate(a.pos, a.vel, a.frc, maxV, maxF, dt)
		wantP, wantV := m.step(a.pos, next, nv, 0.3)
		p, v, _, _ := build.Get(a.e)
		if math.Float64bits(p.X) != math.Float64bits(wantP.X) || math.Float64bits(p.Y) != math.Float64bits(wantP.Y) ||
			math.Float64bits(v.X) != math.Float64bits(wantV.X) || math.Float64bits(v.Y) != math.Float64bits(wantV.Y) {
			t.Fatalf("agent at %v vel %v force %v: Movement %v %v, step %v %v", a.pos, a.vel, a.frc, p.Vec, v.Vec, wantP, wantV)
		}
		if g.CellAt(a.pos) == g.CellAt(next) {
			inCell++
		}
		if wantP != next {
			blocked++
		}
	}
	if inCell < 1000 || blocked < 100 {
		t.Fatalf("%d steps within a cell, %d blocked: the test should have many of both", inCell, blocked)
	}
}
