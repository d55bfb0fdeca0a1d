package orca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r2"
)

// awkward are values a program or an edited save can hand the solver: every one is
// accepted by Velocity's checks or has a fixed result.
var awkward = []float64{0, 1, -1, 0.5, 1e-300, 5e-324, 1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1),
	math.NaN(), 1e-9, 1e9, 2, 10, -1e300}

// within reports whether v is finite and no faster than a's MaxSpeed (when usable).
func within(v r2.Vec, a *Agent) bool {
	return finite(v) && (!usable(a.MaxSpeed) || math.Hypot(v.X, v.Y) <= a.MaxSpeed*(1+1e-6)+1e-290)
}

// One awkward value in an otherwise ordinary scene (a head-on neighbour, one beside, two
// walls). A radius or a share near math.MaxFloat64, an ObstacleHorizon of 5e-324 (its
// inverse is +Inf) or a velocity of -1e300 used to give a NaN velocity, which the ORCA
// system turned into a NaN steering force; the result is finite and within MaxSpeed now.
func TestOneAwkwardValueGivesAFiniteVelocity(t *testing.T) {
	var s Solver
	base := Agent{Velocity: r2.Vec{X: 1}, Preferred: r2.Vec{X: 1}, Radius: 0.4, MaxSpeed: 2, MaxDelta: 0.5,
		TimeHorizon: 2, ObstacleHorizon: 1, Bias: 0.1}
	type scene struct {
		a   Agent
		nb  []Neighbour
		obs []Segment
		dt  float64
	}
	set := map[string]func(sc *scene, x float64){
		"Radius":          func(sc *scene, x float64) { sc.a.Radius = x },
		"MaxSpeed":        func(sc *scene, x float64) { sc.a.MaxSpeed = x },
		"MaxDelta":        func(sc *scene, x float64) { sc.a.MaxDelta = x },
		"TimeHorizon":     func(sc *scene, x float64) { sc.a.TimeHorizon = x },
		"ObstacleHorizon": func(sc *scene, x float64) { sc.a.ObstacleHorizon = x },
		"Bias":            func(sc *scene, x float64) { sc.a.Bias = x },
		"dt":              func(sc *scene, x float64) { sc.dt = x },
		"Velocity.X":      func(sc *scene, x float64) { sc.a.Velocity.X = x },
		"Position.X":      func(sc *scene, x float64) { sc.a.Position.X = x },
		"Preferred.X":     func(sc *scene, x float64) { sc.a.Preferred.X = x },
		"Desired.Y":       func(sc *scene, x float64) { sc.a.Desired.Y = x },
		"nb.Radius":       func(sc *scene, x float64) { sc.nb[0].Radius = x },
		"nb.Velocity.X":   func(sc *scene, x float64) { sc.nb[0].Velocity.X = x },
		"nb.Position.Y":   func(sc *scene, x float64) { sc.nb[0].Position.Y = x },
		"nb.Share":        func(sc *scene, x float64) { sc.nb[0].Share = x },
		"obs.A.Y":         func(sc *scene, x float64) { sc.obs[0].A.Y = x },
		"obs.B.X":         func(sc *scene, x float64) { sc.obs[1].B.X = x },
	}
	for name, f := range set {
		for _, x := range awkward {
			sc := scene{a: base, dt: 0.1,
				nb: []Neighbour{{Position: r2.Vec{X: 1.5, Y: 0.1}, Velocity: r2.Vec{X: -1}, Radius: 0.4, Share: 0.5},
					{Position: r2.Vec{X: 0.3, Y: 0.2}, Radius: 0.4, Share: 1}},
				obs: []Segment{{A: r2.Vec{X: 3, Y: -1}, B: r2.Vec{X: 3, Y: 1}}, {A: r2.Vec{X: -1, Y: 0.5}, B: r2.Vec{X: 1, Y: 0.5}}}}
			f(&sc, x)
			if v := s.Velocity(&sc.a, sc.nb, sc.obs, sc.dt); !within(v, &sc.a) {
				t.Errorf("%s = %v: velocity %v", name, x, v)
			}
		}
	}
}

// Random scenes of awkward values everywhere: the velocity is finite and within
// MaxSpeed (about 1.3% of such scenes failed before).
func TestAwkwardScenesGiveAFiniteVelocity(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() float64 {
		if r.IntN(3) == 0 {
			return r.Float64()*20 - 10
		}
		return awkward[r.IntN(len(awkward))]
	}
	vec := func() r2.Vec { return r2.Vec{X: pick(), Y: pick()} }
	var s Solver
	for range 100_000 {
		a := Agent{Position: vec(), Velocity: vec(), Preferred: vec(), Radius: pick(), MaxSpeed: pick(),
			MaxDelta: pick(), TimeHorizon: pick(), ObstacleHorizon: pick(), Bias: pick(), Desired: vec()}
		if r.IntN(2) == 0 {
			a.Position, a.Velocity, a.MaxSpeed = r2.Vec{}, r2.Vec{X: r.Float64()}, 2
		}
		var nb []Neighbour
		for k := r.IntN(4); k > 0; k-- {
			n := Neighbour{Position: vec(), Velocity: vec(), Radius: pick(), Share: pick()}
			if r.IntN(2) == 0 { // near enough to matter
				n.Position = r2.Add(a.Position, r2.Vec{X: r.Float64()*2 - 1, Y: r.Float64()*2 - 1})
			}
			nb = append(nb, n)
		}
		var obs []Segment
		for k := r.IntN(3); k > 0; k-- {
			obs = append(obs, Segment{A: vec(), B: vec()})
		}
		dt := 0.1
		if r.IntN(2) == 0 {
			dt = pick()
		}
		if v := s.Velocity(&a, nb, obs, dt); !within(v, &a) {
			t.Fatalf("velocity %v for %+v, neighbours %+v, obstacles %+v, dt %v", v, a, nb, obs, dt)
		}
	}
}
