package fsm

import (
	"math"
	"testing"
)

// TestBadDTCountsAsZero: one Update with a DT that is NaN, infinite or negative
// (a clock of the caller's own gone wrong) counts as 0 for that update: Elapsed
// keeps counting afterwards and a timed guard still fires on time, hooks see 0
// (and Time 0 for a NaN or infinite Time), the caller's values are back after
// the call, and Context.ClockFaults counts it, as bt.Tree.Tick does. A NaN DT
// used to make Elapsed NaN for good (the guard "Elapsed >= 1" never fired
// again), +Inf took the guard at once, and -1 ran Elapsed backwards.
func TestBadDTCountsAsZero(t *testing.T) {
	for _, bad := range []struct{ dt, time float64 }{{math.NaN(), 1}, {math.Inf(1), 1}, {-1, 1}, {0.25, math.NaN()}, {0.25, math.Inf(-1)}} {
		b := NewBuilder("m")
		var seenDT, seenTime []float64
		a := b.State("A", Hooks{Update: func(ctx *Context) StateID {
			seenDT, seenTime = append(seenDT, ctx.DT), append(seenTime, ctx.Time)
			return None
		}})
		bb := b.State("B", Hooks{})
		b.When(a, func(ctx *Context) bool { return ctx.Memory.Elapsed >= 1 }, bb)
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		var mem Memory
		ctx := &Context{DT: 0.25, Time: 0}
		m.Update(&mem, ctx) // starts: Elapsed 0
		ctx.DT, ctx.Time = bad.dt, bad.time
		m.Update(&mem, ctx)
		if got := seenDT[1]; got != 0 && !(bad.dt == 0.25 && got == 0.25) {
			t.Fatalf("%v: the hook saw DT %v; want 0", bad, got)
		}
		if bad.dt == 0.25 && seenTime[1] != 0 {
			t.Fatalf("%v: the hook saw Time %v; want 0", bad, seenTime[1])
		}
		if (ctx.DT != bad.dt && !math.IsNaN(bad.dt)) || (math.IsNaN(bad.dt) && !math.IsNaN(ctx.DT)) {
			t.Fatalf("%v: ctx.DT %v after the call; want the caller's", bad, ctx.DT)
		}
		if ctx.ClockFaults() != 1 {
			t.Fatalf("%v: ClockFaults %d; want 1", bad, ctx.ClockFaults())
		}
		want := 0.0
		if bad.dt == 0.25 {
			want = 0.25 // a bad Time alone leaves DT as given
		}
		if mem.Elapsed != want {
			t.Fatalf("%v: Elapsed %v after the bad update; want %v", bad, mem.Elapsed, want)
		}
		ctx.DT, ctx.Time = 0.25, 1
		n := 0
		for m.Name(mem.Active) == "A" && n < 20 {
			m.Update(&mem, ctx)
			n++
		}
		wantN := 4
		if bad.dt == 0.25 {
			wantN = 3
		}
		if m.Name(mem.Active) != "B" || n != wantN {
			t.Fatalf("%v: after %d updates of 0.25 s active %s; want B after %d", bad, n, m.Name(mem.Active), wantN)
		}
	}
}

// TestCorruptElapsedCountsFromZero: a Memory whose Elapsed is NaN, +Inf or
// negative (a file edited by hand, a Memory built by the caller) counts the
// time in state from 0 again at the next Update, counted in ClockFaults, so a
// timed guard fires after its time; NaN used to stay NaN until some other
// transition, and the guard never fired.
func TestCorruptElapsedCountsFromZero(t *testing.T) {
	for _, e := range []float64{math.NaN(), math.Inf(1), -5} {
		b := NewBuilder("m")
		a := b.State("A", Hooks{})
		bb := b.State("B", Hooks{})
		b.When(a, func(ctx *Context) bool { return ctx.Memory.Elapsed >= 1 }, bb)
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		mem := Memory{Active: a, Transitions: 1, Elapsed: e}
		ctx := &Context{DT: 0.25}
		m.Update(&mem, ctx)
		if mem.Elapsed != 0.25 || m.Name(mem.Active) != "A" || ctx.ClockFaults() != 1 {
			t.Fatalf("Elapsed %v: after one update Elapsed %v in %s, ClockFaults %d; want 0.25 in A, 1", e, mem.Elapsed, m.Name(mem.Active), ctx.ClockFaults())
		}
		for i := 0; i < 3; i++ {
			m.Update(&mem, ctx)
		}
		if m.Name(mem.Active) != "B" || ctx.ClockFaults() != 1 {
			t.Fatalf("Elapsed %v: after 1 s in %s, ClockFaults %d; want B, 1", e, m.Name(mem.Active), ctx.ClockFaults())
		}
	}
}
