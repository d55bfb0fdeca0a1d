package steer

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestExactBitsOnEveryBuild pins the bits of every behavior over 2,000 seeded
// random inputs each, as an FNV-1a digest of the results' float64 bits. The
// digests are the default build's (GOAMD64=v1, which has no fused
// multiply-add); a build that fuses (GOAMD64=v3, arm64) must give the same
// bits, which it does only while every product a sum takes is rounded first
// (see norm). .ci/run runs this test under GOAMD64=v3: a multiply-add fused
// back into any of these functions changes its digest there.
func TestExactBitsOnEveryBuild(t *testing.T) {
	const n = 2000
	want := map[string]uint64{
		"Seek":              0x4b27c76cd6a09afb,
		"Arrive":            0x536a657d3e0776b5,
		"Flee":              0x46be7e5c9498f846,
		"Pursue":            0x3c7cabe780ca3e71, // Predict counts a target's closing speed (session of 2026-12-06 06:27); 0xf8e2ba396002e145 before
		"FollowFlow":        0x49d1e65a8c66423d,
		"FollowPath":        0xe6f46053894fff10,
		"Separation":        0x7dd34e4c86f3528e,
		"Cohesion":          0xef1beff6ba1430bb,
		"Alignment":         0x5ff78553403e932a,
		"Wander":            0xf20ea6d5f422aeb3, // the angle's step √(3·dt)·Jitter and a Response (session of 2026-12-04 12:43); 0x9c738e2a94c4fd75 before; 0xbeabefa6f7f0cb65 with math.Sincos, whose bits differ under GOAMD64=v3 (now internal/detmath)
		"ObstacleAvoidance": 0xa9643c0f0dd24c7d,
		"WallAvoidance":     0xcdfb8cccbb5bcc94,
		"Accumulator":       0xb40fa30b70ece44e,
		"Integrate":         0xe21186b99c4cb8b3,
		"Truncate":          0x77345821c5e11213,
		"BrakingSpeed":      0x8f0d70a4c69ad019,
		"Catch":             0x6eb8618f01f7b966, // pinned since the session of 2026-12-06 06:27 (a target within the standoff pushes the pursuer back)
		"Evade":             0xdae5081ca2d2629a, // pinned since the session of 2026-12-06 06:27 (Predict counts a threat's closing speed)
	}
	r := NewRand(19)
	f := func() float64 { return float64(40 * (r.Float64() - 0.5)) }
	near := func(p, d r2.Vec, k float64) r2.Vec { return r2.Vec{X: p.X + float64(d.X/k), Y: p.Y + float64(d.Y/k)} }
	vec := func() r2.Vec { return r2.Vec{X: f(), Y: f()} }
	pos := func() float64 { return 0.1 + float64(8*r.Float64()) } // rounded, as below: the same inputs on every build
	blocked := func(x, y int32) bool { return (x*7+y*13)%5 == 0 }
	names := []string{"Seek", "Arrive", "Flee", "Pursue", "FollowFlow", "FollowPath", "Separation", "Cohesion",
		"Alignment", "Wander", "ObstacleAvoidance", "WallAvoidance", "Accumulator", "Integrate", "Truncate", "BrakingSpeed", "Catch", "Evade"}
	assert.Len(t, want, len(names))
	got := map[string]uint64{}
	for _, name := range names { // in order: they draw from one stream
		h := fnv.New64a()
		var buf [8]byte
		put := func(vs ...float64) {
			for _, v := range vs {
				b := math.Float64bits(v)
				for i := range buf {
					buf[i] = byte(b >> (8 * i))
				}
				h.Write(buf[:])
			}
		}
		putVec := func(v r2.Vec) { put(v.X, v.Y) }
		for range n {
			p, v, q, u := vec(), vec(), vec(), vec()
			speed, force, dt := pos(), pos(), 0.01+float64(0.05*r.Float64())
			switch name {
			case "Seek":
				putVec(Seek(p, v, q, speed, force, dt))
			case "Arrive":
				putVec(Arrive(p, v, near(p, q, 8), speed, force, 1e-3, dt))
			case "Flee":
				putVec(Flee(p, v, q, speed, force, math.Inf(1), dt))
			case "Pursue":
				putVec(Pursue(p, v, q, u, speed, force, 2, dt))
			case "FollowFlow":
				putVec(FollowFlow(v, q, speed, force, dt))
			case "FollowPath":
				fp, next := FollowPath(p, v, []r2.Vec{q, u, r2.Add(q, u)}, 0, 1, speed, force, dt)
				putVec(fp)
				put(float64(next))
			case "Separation":
				putVec(Separation(p, []r2.Vec{near(p, q, 20), near(p, u, 30)}, 2, force, 7))
			case "Cohesion":
				putVec(Cohesion(p, v, []r2.Vec{q, u}, speed, force, dt))
			case "Alignment":
				putVec(Alignment(v, []r2.Vec{q, u}, force, dt))
			case "Wander":
				w := Wander{Distance: 2, Radius: 1, Jitter: 3, Response: math.Abs(u.X) / 8, Angle: q.X}
				wr := NewRand(uint64(r.Intn(1 << 30)))
				putVec(w.Force(p, v, &wr, speed, force, dt))
				put(w.Angle)
			case "ObstacleAvoidance":
				putVec(ObstacleAvoidance(p, v, 0.4, []Circle{{Center: near(p, q, 4), Radius: 1 + r.Float64()}}, 2, force))
			case "WallAvoidance":
				putVec(WallAvoidance(r2.Vec{X: 20 + p.X, Y: 20 + p.Y}, v, blocked, 0.5, 1, math.Pi/4, force))
			case "Accumulator":
				a := Accumulator{Max: force}
				a.Add(q, 0.3)
				a.Add(u, 0.7)
				a.Add(v, 1)
				putVec(a.Sum)
			case "Integrate":
				np, nv := Integrate(p, v, q, speed, force, dt)
				putVec(np)
				putVec(nv)
			case "Truncate":
				putVec(Truncate(q, force))
			case "BrakingSpeed":
				put(BrakingSpeed(math.Abs(q.X), force, dt))
			case "Catch": // the target within a few cells: every branch (far, arriving, within the standoff)
				putVec(Catch(p, v, near(p, q, 8), u, 0.7, speed, force, 2, dt))
			case "Evade":
				putVec(Evade(p, v, q, u, speed, force, 2, math.Inf(1), dt))
			}
		}
		got[name] = h.Sum64()
	}
	for _, name := range names {
		assert.Equal(t, want[name], got[name], "%s: %#x (the default build's bits: see the doc)", name, got[name])
	}
}
