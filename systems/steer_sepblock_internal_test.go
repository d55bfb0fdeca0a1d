package systems

import (
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/spatial"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestSepJobLayout: the offsets and sizes steer_sepfilter_amd64.s reads
// and writes.
func TestSepJobLayout(t *testing.T) {
	amd64AssemblyOnly(t)
	var j sepJob
	var e sepEnt
	assert.Equal(t, []uintptr{0, 16, 24, 48, 88, 8, 104}, []uintptr{unsafe.Offsetof(j.pos), unsafe.Offsetof(j.r2max),
		unsafe.Offsetof(j.runs), unsafe.Offsetof(j.runs) + unsafe.Sizeof(sepRun{}), unsafe.Offsetof(j.end), unsafe.Sizeof(j.end), unsafe.Sizeof(j)})
	assert.Equal(t, []uintptr{0, 8, 8, 16, 24}, []uintptr{unsafe.Offsetof(j.runs[0].lo), unsafe.Offsetof(j.runs[0].n),
		unsafe.Sizeof(j.runs[0].lo), unsafe.Offsetof(j.runs[0].self), unsafe.Sizeof(j.runs[0])})
	assert.Equal(t, []uintptr{0, 16}, []uintptr{unsafe.Offsetof(e.d), unsafe.Sizeof(e)})
}

// TestSepFilterMatchesGo: sepFilter (the AVX2 kernel where the processor
// has it) lists sepFilterGo's candidates to the bit, for calls of 1 to 8
// jobs with runs of 0 to 9 candidates (an empty one also at the array's
// end), the agent's own slot at a run's start, end, middle or absent,
// candidates near and far, exactly at radius, at tiny and huge offsets, at pos itself, duplicated, and NaN. It
// writes nothing past the list's end and one more entry.
func TestSepFilterMatchesGo(t *testing.T) {
	if !sepFilterKernel {
		t.Skip("no assembly kernel on this machine")
	}
	rng := steer.NewRand(13)
	nan := math.NaN()
	const size = 64
	sorted := make([]r2.Vec, size)
	kept, dropped := 0, 0
	var want, got [8 * 18]sepEnt
	for trial := range 20000 {
		jobs := make([]sepJob, 1+rng.Intn(8))
		for i := range sorted {
			sorted[i] = r2.Vec{X: 3 + 4*rng.Float64(), Y: 5 + 4*rng.Float64()}
		}
		total := 0
		for j := range jobs {
			radius := []float64{0.75, 0.9, 1, 2.5, 0x1p-500, 0x1p500, 1e-160}[rng.Intn(7)]
			pos := r2.Vec{X: 3 + float64(rng.Intn(64))/16, Y: 5 + float64(rng.Intn(64))/16} // dyadic
			if rng.Intn(8) == 0 {
				pos = r2.Vec{X: (rng.Float64() - 0.5) * 1e300, Y: rng.Float64() * 1e-300}
			}
			jb := &jobs[j]
			*jb = sepJob{pos: pos, r2max: radius * radius, radius: radius}
			for k := range jb.runs {
				n := rng.Intn(10)
				lo := rng.Intn(size - sepSpan(n) + 1)
				if n == 0 && rng.Intn(2) == 0 {
					lo = size // an empty run reads nothing, even at the end
				}
				self := []int{0, n - 1, n / 2, -1, n, rng.Intn(n + 1), math.MinInt32}[rng.Intn(7)]
				jb.runs[k] = sepRun{lo, n, self}
				total += n
				for i := lo; i < lo+n; i++ { // candidates about this agent
					u, v := rng.Float64()*2-1, rng.Float64()*2-1
					q := r2.Vec{X: pos.X + 1.5*radius*u, Y: pos.Y + 1.5*radius*v}
					switch rng.Intn(40) {
					case 0: // exactly at radius (exact for the dyadic pos and radii)
						q = r2.Vec{X: pos.X - radius, Y: pos.Y}
					case 1:
						q = r2.Vec{X: pos.X, Y: pos.Y + radius}
					case 2: // at pos: a zero distance
						q = pos
					case 3: // tiny offsets: squares that underflow
						q = r2.Vec{X: pos.X + 1e-170*u, Y: pos.Y + 3e-165*v}
					case 4: // huge: pos−q or its square overflows
						q = r2.Vec{X: 1.7e308 * u, Y: pos.Y}
					case 5:
						q = r2.Vec{X: nan, Y: pos.Y}
					case 6:
						q = r2.Vec{X: pos.X, Y: math.Inf(1)}
					case 7: // a duplicate of the one before
						if i > 0 {
							q = sorted[i-1]
						}
					}
					sorted[i] = q
				}
			}
		}
		canary := sepEnt{d: r2.Vec{X: 12345, Y: -6789}}
		for i := range got {
			got[i], want[i] = canary, canary
		}
		for j := range jobs {
			jobs[j].end = -5 // each job's end is written
		}
		goJobs := append([]sepJob(nil), jobs...)
		wm := sepFilterGo(sorted, goJobs, want[:total+1])
		gm := sepFilter(sorted, jobs, got[:total+1])
		msg := fmt.Sprintf("trial %d: jobs %v", trial, goJobs)
		require.Equal(t, wm, gm, "count: %s", msg)
		for j := range jobs {
			require.Equal(t, goJobs[j].end, jobs[j].end, "job %d's end: %s", j, msg)
		}
		require.Equal(t, wm, jobs[len(jobs)-1].end, "the last job's end is the count: %s", msg)
		for i := range gm {
			w, g := want[i], got[i]
			if w == g && math.Float64bits(w.d.X) == math.Float64bits(g.d.X) && math.Float64bits(w.d.Y) == math.Float64bits(g.d.Y) {
				continue // testify only on a mismatch (a stack walk a call)
			}
			require.Equal(t, [2]uint64{math.Float64bits(w.d.X), math.Float64bits(w.d.Y)},
				[2]uint64{math.Float64bits(g.d.X), math.Float64bits(g.d.Y)}, "entry %d: %s", i, msg)
		}
		for i := total + 1; i < len(got); i++ {
			if got[i] != canary {
				require.Equal(t, canary, got[i], "entry %d past the room: %s", i, msg)
			}
		}
		kept += gm
		dropped += total - gm
	}
	assert.Greater(t, kept, 50000, "candidates kept")
	assert.Greater(t, dropped, 50000, "candidates left out")
}

// sepBlockSteer returns a Steer over a hash of pos (buckets of 2 cells on
// a size×size map) whose hot records hold an agent at each slot, of the
// kinds kinds (by slot, in turn), at its hash position, moved off it for
// every fifth one; every seventh slot holds no agent.
func sepBlockSteer(pos []r2.Vec, size float64, kinds []steerKind, seed uint64) *Steer {
	world := arche.NewWorld()
	ents := make([]arche.Entity, len(pos))
	for i := range ents {
		ents[i] = world.NewEntity()
	}
	h := spatial.NewHash(2, size, size)
	h.BuildFrom(pos, 1, nil)
	s := &Steer{nb: &Neighbours{Hash: h, Entities: ents}, kinds: kinds}
	s.layout, s.dense = h.Layout()
	_, s.sorted = h.Sorted()
	s.hot = make([]steerAgent, len(pos))
	rng := steer.NewRand(seed)
	for k, p := range s.sorted {
		if k%7 == 3 {
			continue
		}
		if k%5 == 0 {
			p = r2.Add(p, r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5})
		}
		s.hot[k] = steerAgent{pos: p, kind: uint32(components.DesiredFlow)<<kindBits | uint32(k%len(kinds)), out: 1}
	}
	return s
}

// sepBlockMatches checks that separationBlock gives every agent of s with
// a separation force separation's force to the bit, in blocks of
// blockSize slots and of 37, and leaves the others' entries as they were.
func sepBlockMatches(t *testing.T, s *Steer, what string) {
	t.Helper()
	sc := &steerScratch{}
	for _, bs := range []int{blockSize, 37} {
		for lo := 0; lo < len(s.hot); lo += bs {
			end := min(lo+bs, len(s.hot))
			seps := make([]r2.Vec, end-lo)
			canary := r2.Vec{X: -1234, Y: 5678}
			for i := range seps {
				seps[i] = canary
			}
			s.separationBlock(lo, end, seps, sc)
			for k := lo; k < end; k++ {
				a := &s.hot[k]
				kd := &s.kinds[a.kind&(1<<kindBits-1)]
				want := canary
				if a.out != 0 && kd.sep && finiteVec(a.pos) {
					want = s.separation(a.pos, k, kd.wt.SeparationRadius, kd.kin.MaxForce)
				}
				got := seps[k-lo]
				if math.Float64bits(want.X) == math.Float64bits(got.X) && math.Float64bits(want.Y) == math.Float64bits(got.Y) {
					continue // testify only on a mismatch
				}
				require.Equal(t, [2]uint64{math.Float64bits(want.X), math.Float64bits(want.Y)},
					[2]uint64{math.Float64bits(got.X), math.Float64bits(got.Y)},
					"%s: slot %d at %v, kind %+v", what, k, a.pos, *kd)
			}
		}
	}
}

// sepKinds are kinds of agents with radii of one, two and more bucket
// rows, radii separation does not take its fast loop for, forces that are
// truncated and not, and no separation force.
func sepKinds() []steerKind {
	kinds := []steerKind{}
	for _, c := range []struct{ radius, maxF float64 }{
		{0.75, 20}, {0.9, 20}, {0.75, 0.05}, {0.9, 0.3}, {2.5, 20}, {3.9, 0.5}, {1e-160, 20},
		{0x1p-500, 20}, {0x1p-501, 20}, {1e300, 20}, {0, 20}, {math.NaN(), 20},
	} {
		kin := components.Kinematics{MaxSpeed: 3, MaxForce: c.maxF, Radius: 0.3}
		wt := components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: c.radius}
		kinds = append(kinds, newKind(&kin, &wt, 1))
	}
	kin := components.Kinematics{MaxSpeed: 3, MaxForce: 20, Radius: 0.3}
	kinds = append(kinds, newKind(&kin, nil, 1), newKind(&kin, &components.SteeringWeights{Wall: 1}, 1))
	return kinds
}

// TestSeparationBlockMatchesSeparation: separationBlock gives separation's
// force to the bit, with the AVX2 filter (where there is one) and with the
// Go one, over crowds sparse and very dense with stacks of coincident agents
// (distance 0: separationSlow's fallback directions), agents on their
// slot and moved off it, empty slots, the kinds of sepKinds, and agents at
// NaN, infinite and huge positions.
func TestSeparationBlockMatchesSeparation(t *testing.T) {
	skipIfFused(t)
	kinds := sepKinds()
	for _, kernel := range []bool{true, false} {
		if kernel && !sepFilterKernel {
			continue
		}
		old := setSepFilterKernel(kernel)
		// side 14: blocks of more candidates than the list's room
		// (sepFlush more than once a block); side 3: agents with more
		// than the room each (separation)
		for _, side := range []float64{3, 14, 40, 120} {
			rng := steer.NewRand(uint64(side))
			pos := make([]r2.Vec, 3000)
			for i := range pos {
				pos[i] = r2.Vec{X: 1 + rng.Float64()*side, Y: 1 + rng.Float64()*side}
				if i%11 == 4 || i%11 == 5 { // stacks of three
					pos[i] = pos[i-1]
				}
			}
			s := sepBlockSteer(pos, side+2, kinds, uint64(side))
			require.True(t, s.dense)
			for k := range s.hot { // odd positions of agents (not of the hash)
				switch k % 97 {
				case 1:
					s.hot[k].pos.X = math.NaN()
				case 2:
					s.hot[k].pos.Y = math.Inf(-1)
				case 3:
					s.hot[k].pos = r2.Vec{X: 1.7e308, Y: -1.7e308}
				case 4:
					s.hot[k].pos = r2.Vec{X: -3, Y: side + 9}
				}
			}
			sepBlockMatches(t, s, fmt.Sprintf("kernel %v, side %v", kernel, side))
		}
		setSepFilterKernel(old)
	}
}

// TestSeparationBlockOddLayout: a layout whose starts are not one a bucket
// and one more (none that spatial.Hash gives) is not read unchecked:
// separationBlock gives each agent separation's force.
func TestSeparationBlockOddLayout(t *testing.T) {
	skipIfFused(t)
	rng := steer.NewRand(5)
	pos := make([]r2.Vec, 500)
	for i := range pos {
		pos[i] = r2.Vec{X: 1 + rng.Float64()*12, Y: 1 + rng.Float64()*12}
	}
	s := sepBlockSteer(pos, 14, sepKinds(), 5)
	s.layout.Start = append(s.layout.Start[:len(s.layout.Start):len(s.layout.Start)], int32(len(pos)))
	sepBlockMatches(t, s, "a start too many")
}

// TestSeparationBlockMatchesSeparationAtExtremes: likewise for crowds in
// one bucket at ±1.7·10³⁰⁸ (pos − q overflows) and near 0 (squares that
// underflow), and with NaN and infinite positions in the hash.
func TestSeparationBlockMatchesSeparationAtExtremes(t *testing.T) {
	skipIfFused(t)
	inf := math.Inf(1)
	huge := []r2.Vec{{X: 1.7e308, Y: 0.5}, {X: 1.7e308, Y: 0.9}, {X: -1.7e308, Y: 0.5}, {X: 0.5, Y: 0.5},
		{X: 0.5 + 1e-200, Y: 0.5}, {X: 0.5, Y: 0.5 + 3e-201}, {X: 1, Y: 1}, {X: -1.7e308, Y: 0.7}}
	tiny := []r2.Vec{{X: 0.5, Y: 0.5}, {X: 0.5 + 1e-200, Y: 0.5}, {X: 0.5, Y: 0.5 + 3e-161}, {X: 1, Y: 1},
		{X: 1.5, Y: 0.2}, {X: 0.5 + 7e-162, Y: 0.5 - 2e-161}}
	odd := []r2.Vec{{X: 0.5, Y: 0.5}, {X: math.NaN(), Y: 0.5}, {X: 0.7, Y: 0.6}, {X: inf, Y: 0.5}, {X: 0.5, Y: -inf},
		{X: 0.6, Y: 0.4}, {X: 0.5, Y: 0.5}}
	kinds := sepKinds()
	for _, kernel := range []bool{true, false} {
		if kernel && !sepFilterKernel {
			continue
		}
		old := setSepFilterKernel(kernel)
		for i, pos := range [][]r2.Vec{huge, tiny, odd} {
			for rep := range 3 { // each slot with each kind
				s := sepBlockSteer(pos, 2, kinds, uint64(i))
				for k := range s.hot {
					s.hot[k].out = 1
					s.hot[k].kind = uint32(components.DesiredFlow)<<kindBits | uint32((k+rep*len(pos))%len(kinds))
				}
				sepBlockMatches(t, s, fmt.Sprintf("kernel %v, crowd %d", kernel, i))
			}
		}
		setSepFilterKernel(old)
	}
}

// TestSepIndexMatchesRows: separationBlock's bucket bounds (sepIndex) are
// spatial.Layout.Rows' for finite centres on, near and far off the grid,
// radii from 2⁻⁵⁰⁰ to 2⁵⁰⁰, and cells of 2 and 0.5 (where centres near
// ±1.7·10³⁰⁸ make products that overflow to ±Inf).
func TestSepIndexMatchesRows(t *testing.T) {
	rng := steer.NewRand(3)
	for _, cell := range []float64{2, 0.5} {
		h := spatial.NewHash(cell, 40, 30)
		items := make([]r2.Vec, 3000)
		for i := range items {
			items[i] = r2.Vec{X: rng.Float64() * 40, Y: rng.Float64() * 30}
		}
		h.BuildFrom(items, 1, nil)
		l, ok := h.Layout()
		require.True(t, ok)
		inv, lastX, lastY := l.InvCell, float64(l.W-1), float64(l.H-1)
		for range 200000 {
			pos := r2.Vec{X: rng.Float64()*50 - 5, Y: rng.Float64()*40 - 5}
			switch rng.Intn(10) {
			case 0:
				pos = r2.Vec{X: (rng.Float64() - 0.5) * 3.5 * 1e308, Y: (rng.Float64() - 0.5) * 1e20}
			case 1:
				pos = r2.Vec{X: float64(rng.Intn(41)) * cell, Y: -0.0}
			}
			radius := []float64{0.75, 0.9, 0, 2.5, 0x1p-500, 0x1p500, 1e-160, rng.Float64() * 40}[rng.Intn(8)]
			x0, x1, y0, y1 := l.Rows(pos, radius)
			got := [4]int{sepIndex((pos.X-radius)*inv, lastX), sepIndex((pos.X+radius)*inv, lastX),
				sepIndex((pos.Y-radius)*inv, lastY), sepIndex((pos.Y+radius)*inv, lastY)}
			if want := [4]int{x0, x1, y0, y1}; want != got {
				require.Equal(t, want, got, "cell %v, pos %v, radius %v", cell, pos, radius)
			}
			// separationBlock's pair of bounds on each axis
			var both [4]int
			both[0], both[1] = sepBounds((pos.X-radius)*inv, (pos.X+radius)*inv, lastX)
			both[2], both[3] = sepBounds((pos.Y-radius)*inv, (pos.Y+radius)*inv, lastY)
			if want := [4]int{x0, x1, y0, y1}; want != both {
				require.Equal(t, want, both, "sepBounds: cell %v, pos %v, radius %v", cell, pos, radius)
			}
		}
	}
}

// fmaA, fmaB and fmaC are variables (not constants the compiler works out)
// whose a·b + c is 0 rounded twice and −2⁻⁶⁰ rounded once.
var fmaA, fmaB, fmaC = 1 + 0x1p-30, 1 - 0x1p-30, -1.0

// mulAdd is a·b + c as this build compiles it, on operands in registers
// (an operand read from memory into the MULSD keeps amd64 from fusing).
//
//go:noinline
func mulAdd(a, b, c float64) float64 { return a*b + c }

// skipIfFused skips a test of separationBlock against separation in a
// build that fuses products and sums (FMA: GOAMD64=v3 and above, arm64),
// where separation's Go loop fuses them as steer.Separation does and
// separationBlock's arithmetic does not: such builds do not take
// separationBlock (sepBatch is false).
func skipIfFused(t *testing.T) {
	if mulAdd(fmaA, fmaB, fmaC) != 0 {
		require.False(t, sepBatch, "a build that fuses must not take separationBlock")
		t.Skip("this build fuses products and sums: separationBlock is not taken")
	}
}
