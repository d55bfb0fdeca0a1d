package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
)

// TestNextDueMatchesDue holds the find passes' scan (nextDue, stepping from
// each due agent to the next) to due, agent by agent: frozen agents, Next
// before and after the frame's limit, a Last after the clock, NaN and
// infinite times, and runs that start or end the slice.
func TestNextDueMatchesDue(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const now, dt = 10.0, 1.0 / 60
	limit := dueLimit(now, dt)
	times := []float64{0, now - 1, now, limit, math.Nextafter(limit, 0), now + dt, now + 1, math.NaN(), math.Inf(1), math.Inf(-1)}
	for round := range 200 {
		ths := make([]components.Think, rng.IntN(40))
		for i := range ths {
			ths[i] = components.Think{Next: times[rng.IntN(len(times))], Last: times[rng.IntN(len(times))],
				Frozen: rng.IntN(5) == 0}
		}
		var want, got []int
		for i := range ths {
			if due(&ths[i], now, limit) {
				want = append(want, i)
			}
		}
		for k := nextDue(ths, 0, now, limit); k < len(ths); k = nextDue(ths, k+1, now, limit) {
			got = append(got, k)
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: nextDue found %v, due %v", round, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("round %d: nextDue found %v, due %v", round, got, want)
			}
		}
		if k := nextDue(ths, len(ths), now, limit); k != len(ths) {
			t.Fatalf("round %d: nextDue from the end = %d, want %d", round, k, len(ths))
		}
	}
}
