package systems

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/spatial"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// separationScan is Steer.separation as it was before candidates out of
// range were left out of the sums (one loop a row, a square root and two
// divisions for every candidate): the reference the new loop must match to
// the bit, and the old side of BenchmarkSeparation.
func (s *Steer) separationScan(pos r2.Vec, slot int, radius, maxForce float64) r2.Vec {
	h := s.nb.Hash
	x0, x1, y0, y1, ok := h.Rows(pos, radius)
	if !ok || radius <= 0 {
		return r2.Vec{}
	}
	if !(radius >= 0x1p-500 && radius <= 0x1p500) { // √(radius²) may not be radius
		return s.separationSlow(pos, slot, radius, maxForce)
	}
	_, sorted := h.Sorted()
	r2max := radius * radius
	r2bits := math.Float64bits(r2max)
	var sx, sy float64
	for y := y0; y <= y1; y++ {
		lo, hi := h.RowSpan(y, x0, x1)
		self := slot - lo // the agent's index in the row, if it is there
		for i, q := range sorted[lo:hi] {
			dx, dy := pos.X-q.X, pos.Y-q.Y
			d2b := math.Float64bits(float64(dx*dx) + float64(dy*dy)) // rounded as separation's (no multiply-add on any build)
			if i == self {                                           // a conditional move, on the bits
				d2b = r2bits
			}
			d2 := math.Float64frombits(d2b)
			if d2 == 0 {
				return s.separationSlow(pos, slot, radius, maxForce)
			}
			n := math.Sqrt(min(d2, r2max))
			w := (radius - n) / radius
			sx += float64(w / n * dx)
			sy += float64(w / n * dy)
		}
	}
	if sx-sx != 0 || sy-sy != 0 { // a candidate so far away that pos−q overflows
		return s.separationSlow(pos, slot, radius, maxForce)
	}
	return steer.Truncate(r2.Vec{X: maxForce * sx, Y: maxForce * sy}, maxForce)
}

// TestSepRunsMatchesGo: sepRuns (the AVX2 kernel where the processor has
// it) gives sepRunsGo's sums and zero flag to the bit, on runs of 0 to 9
// candidates in both runs, the agent's own slot at a run's start, end,
// middle or absent, candidates near and far, exactly at radius, at tiny
// and huge offsets, at pos itself, duplicated, and NaN, from sums not 0.
func TestSepRunsMatchesGo(t *testing.T) {
	if !sepKernel {
		t.Skip("no assembly kernel on this machine")
	}
	rng := steer.NewRand(11)
	nan := math.NaN()
	const size = 48
	sorted := make([]r2.Vec, size)
	near := 0
	for trial := range 20000 {
		radius := []float64{0.75, 0.9, 1, 2.5, 0x1p-500, 0x1p500, 1e-160}[rng.Intn(7)]
		pos := r2.Vec{X: 3 + float64(rng.Intn(64))/16, Y: 5 + float64(rng.Intn(64))/16} // dyadic
		if rng.Intn(8) == 0 {
			pos = r2.Vec{X: (rng.Float64() - 0.5) * 1e300, Y: rng.Float64() * 1e-300}
		}
		for i := range sorted {
			u, v := rng.Float64()*2-1, rng.Float64()*2-1
			q := r2.Vec{X: pos.X + float64(1.5*radius*u), Y: pos.Y + float64(1.5*radius*v)}
			switch rng.Intn(40) {
			case 0: // exactly at radius (exact for the dyadic pos and radii)
				q = r2.Vec{X: pos.X - radius, Y: pos.Y}
			case 1:
				q = r2.Vec{X: pos.X, Y: pos.Y + radius}
			case 2: // at pos: a zero distance, unless it is the agent's slot
				q = pos
			case 3: // tiny offsets: squares that underflow
				q = r2.Vec{X: pos.X + float64(1e-170*u), Y: pos.Y + float64(3e-165*v)}
			case 4: // huge: pos−q or its square overflows
				q = r2.Vec{X: 1.7e308 * u, Y: pos.Y}
			case 5:
				q = r2.Vec{X: nan, Y: pos.Y}
			case 6: // a duplicate of the one before
				if i > 0 {
					q = sorted[i-1]
				}
			}
			sorted[i] = q
		}
		var runs [2]sepRun
		for k := range runs {
			n := rng.Intn(10)
			lo := rng.Intn(size - sepSpan(n) + 1)
			self := []int{0, n - 1, n / 2, -1, n, rng.Intn(n + 1), math.MinInt32}[rng.Intn(7)]
			runs[k] = sepRun{lo, n, self}
		}
		sx, sy := rng.Float64()-0.5, rng.Float64()-0.5
		if trial%3 == 0 {
			sx, sy = 0, 0
		}
		r2max := radius * radius
		wx, wy, wz := sepRunsGo(sorted, pos, radius, r2max, sx, sy, runs[0], runs[1])
		gx, gy, gz := sepRuns(sorted, pos, radius, r2max, sx, sy, runs[0], runs[1])
		msg := fmt.Sprintf("trial %d: pos %v, radius %v, runs %v, sums %v %v", trial, pos, radius, runs, sx, sy)
		require.Equal(t, wz, gz, "zero: %s", msg)
		for _, c := range [2][2]float64{{wx, gx}, {wy, gy}} {
			if math.IsNaN(c[0]) {
				require.True(t, math.IsNaN(c[1]), "want NaN, got %v: %s", c[1], msg)
				continue
			}
			require.Equal(t, math.Float64bits(c[0]), math.Float64bits(c[1]), "want %v, got %v: %s", c[0], c[1], msg)
			if c[0] != sx && c[0] != sy {
				near++
			}
		}
	}
	assert.Greater(t, near, 10000, "sums the pushes changed (not NaN)")
}

// TestSepRunsNearTheEnd: runs whose blocks of four would read past the
// array take the Go loop, with the same result.
func TestSepRunsNearTheEnd(t *testing.T) {
	sorted := []r2.Vec{{X: 1, Y: 1}, {X: 1.2, Y: 1.1}, {X: 0.8, Y: 1.3}, {X: 1.1, Y: 0.9}, {X: 1.3, Y: 1.3}}
	pos := r2.Vec{X: 1, Y: 1.05}
	for lo := range len(sorted) + 1 {
		for n := range len(sorted) - lo + 1 {
			a, b := sepRun{lo, n, 1 - lo}, sepRun{len(sorted), 0, 0}
			wx, wy, wz := sepRunsGo(sorted, pos, 0.75, 0.5625, 0, 0, a, b)
			gx, gy, gz := sepRuns(sorted, pos, 0.75, 0.5625, 0, 0, a, b)
			require.Equal(t, [3]any{math.Float64bits(wx), math.Float64bits(wy), wz},
				[3]any{math.Float64bits(gx), math.Float64bits(gy), gz}, "lo %d, n %d", lo, n)
		}
	}
}

// TestSeparationMatchesScan: separation gives the old loop's force
// (separationScan) to the bit over crowds dense and sparse, for agents on
// their slot and moved off it, radii of one to four bucket rows, with the
// assembly kernel (where there is one) and with the Go loop, with the
// buckets read from the hash's Layout and (as after a sparse build) from
// its Rows and RowSpan.
func TestSeparationMatchesScan(t *testing.T) { // not parallel: it switches the package's kernel (setSepKernel)
	for _, kernel := range []bool{true, false} {
		old := setSepKernel(kernel)
		defer setSepKernel(old)
		for _, sparse := range []bool{false, true} {
			sepMatchesScan(t, sparse)
		}
	}
}

func sepMatchesScan(t *testing.T, sparse bool) {
	for _, side := range []float64{20, 60, 180} {
		s := sepCrowd(3000, side, uint64(side))
		if sparse { // the crowd on a 256² map: a sparse build
			s = sepCrowdOn(3000, side, uint64(side), 256)
			require.False(t, s.dense)
		}
		_, sorted := s.nb.Hash.Sorted()
		rng := steer.NewRand(5)
		for slot, p := range sorted {
			for _, radius := range []float64{0.75, 0.9, 2.5, 3.9} {
				if slot%3 == 0 {
					p = r2.Add(p, r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5})
				}
				want, got := s.separationScan(p, slot, radius, 20), s.separation(p, slot, radius, 20)
				if math.Float64bits(want.X) != math.Float64bits(got.X) || math.Float64bits(want.Y) != math.Float64bits(got.Y) { // testify only on a mismatch
					require.Equal(t, math.Float64bits(want.X), math.Float64bits(got.X), "slot %d at %v, radius %v", slot, p, radius)
					require.Equal(t, math.Float64bits(want.Y), math.Float64bits(got.Y), "slot %d at %v, radius %v", slot, p, radius)
				}
			}
		}
	}
}

// sepCrowd returns a Steer whose hash (buckets of 2 cells on a map of
// side+2) holds n agents spread evenly over a side×side square: the swarm's
// and the guards' crowds at their measured density (candidates scanned and
// in range per agent) with side 180 and 127 for 10,000 agents.
func sepCrowd(n int, side float64, seed uint64) *Steer {
	return sepCrowdOn(n, side, seed, side+2)
}

// sepCrowdOn is sepCrowd on a size×size map (a sparse build when it has
// over 4 buckets an agent).
func sepCrowdOn(n int, side float64, seed uint64, size float64) *Steer {
	rng := steer.NewRand(seed)
	pos := make([]r2.Vec, n)
	for i := range pos {
		pos[i] = r2.Vec{X: 1 + float64(rng.Float64()*side), Y: 1 + float64(rng.Float64()*side)}
	}
	h := spatial.NewHash(2, size, size)
	h.BuildFrom(pos, 1, nil)
	s := &Steer{nb: &Neighbours{Hash: h}}
	s.layout, s.dense = h.Layout() // as Update sets them
	_, s.sorted = h.Sorted()
	return s
}

// BenchmarkSeparation: CPU ns per agent of the separation force over a
// crowd, agents visited in the hash's order (as Steer does): the loop before
// sepRuns (separationScan, scan) and separation (new), in alternate passes
// on one thread, and their ratio (new/scan). It logs the candidates scanned
// and in range per agent, to compare with the scenarios' (swarm at 10,000
// agents: 4.4 and 0.49; guards: 6.2 and 1.6).
func BenchmarkSeparation(b *testing.B) {
	for _, c := range []struct {
		name   string
		side   float64
		radius float64
	}{{"swarm", 180, 0.75}, {"guards", 127, 0.9}} {
		s := sepCrowd(10000, c.side, 1)
		_, sorted := s.nb.Hash.Sorted()
		var sink r2.Vec
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu [2]time.Duration
			for b.Loop() {
				t0 := threadCPU()
				for slot, p := range sorted {
					sink = r2.Add(sink, s.separationScan(p, slot, c.radius, 20))
				}
				t1 := threadCPU()
				for slot, p := range sorted {
					sink = r2.Add(sink, s.separation(p, slot, c.radius, 20))
				}
				t2 := threadCPU()
				cpu[0] += t1 - t0
				cpu[1] += t2 - t1
			}
			per := float64(b.N) * float64(len(sorted))
			b.ReportMetric(float64(cpu[0].Nanoseconds())/per, "scan-cpu-ns/agent")
			b.ReportMetric(float64(cpu[1].Nanoseconds())/per, "new-cpu-ns/agent")
			b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "new/scan")
		})
		scanned, kept := 0, 0
		h := s.nb.Hash
		for slot, p := range sorted {
			x0, x1, y0, y1, _ := h.Rows(p, c.radius)
			for y := y0; y <= y1; y++ {
				lo, hi := h.RowSpan(y, x0, x1)
				for j := lo; j < hi; j++ {
					scanned++
					if j != slot && r2.Norm2(r2.Sub(p, sorted[j])) < c.radius*c.radius {
						kept++
					}
				}
			}
		}
		b.Logf("%s: %.2f candidates scanned, %.2f in range per agent (%v)", c.name,
			float64(scanned)/float64(len(sorted)), float64(kept)/float64(len(sorted)), sink.X != 0)
	}
}
