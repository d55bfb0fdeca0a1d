// Package alloctest counts the heap objects archai's own code allocates while a
// test runs a piece of it, leaving out what the Go runtime and the rest of the
// process allocate in the same window.
//
// runtime.MemStats.Mallocs counts the whole process: a window around a system's
// Update also sees the runtime's parking records (sudogs, runtime.acquireSudog)
// for goroutines that park on one P and wake on another, which parking.Prime
// refills but cannot guarantee on a loaded machine, and whatever goroutines of
// earlier tests allocate. A [Meter] keeps that count as its fast path (a window
// in which the process allocated nothing is zero, exactly) and, when the count
// is not zero, asks the memory profile (runtime.MemProfileRate 1 while the
// meter runs, so every object is recorded with its stack) which objects the
// window allocated and where, and counts only those whose stack goes through
// archai code and not through runtime.acquireSudog.
//
// Important: the meter cannot tell which goroutine allocated; an archai
// goroutine other than the measured code's that allocates in the window is
// counted too (as it was by the process-wide count).
package alloctest

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/archai-go/archai/internal/parking"
)

// module is the prefix of every archai function's name.
const module = "github.com/archai-go/archai/"

// support are the packages whose allocations a meter leaves out: its own (the
// profile it reads) and parking.Prime's (goroutines and their records).
var support = []string{module + "internal/alloctest.", module + "internal/parking."}

// Meter counts archai's allocations in windows (see [Meter.Count]). It sets
// runtime.MemProfileRate to 1 from [Start] to the end of the test.
type Meter struct {
	base    map[[32]uintptr]int64 // objects per stack in the profile at the last snapshot
	mallocs uint64                // runtime.MemStats.Mallocs right after it
	recs    []runtime.MemProfileRecord
}

// Window is what a window (or several, see [Window.Add]) allocated.
type Window struct {
	Mallocs uint64           // objects the process allocated (runtime.MemStats.Mallocs)
	Objects int64            // of which archai code's: the ones a test asserts on
	Sites   map[string]int64 // archai's objects by call sites (innermost first, past the allocator)
}

// Add adds o's counts to w's.
func (w *Window) Add(o Window) {
	w.Mallocs += o.Mallocs
	w.Objects += o.Objects
	for site, n := range o.Sites {
		if w.Sites == nil {
			w.Sites = map[string]int64{}
		}
		w.Sites[site] += n
	}
}

// String gives the counts and lists the sites, one a line.
func (w Window) String() string {
	lines := make([]string, 0, len(w.Sites))
	for site, n := range w.Sites {
		lines = append(lines, fmt.Sprintf("%6d  %s", n, site))
	}
	slices.Sort(lines)
	return fmt.Sprintf("%d objects of archai's (%d of the process):\n%s", w.Objects, w.Mallocs, strings.Join(lines, "\n"))
}

// Start records every allocation from now to the end of the test in the
// memory profile and returns a meter; call it when the code is warm.
func Start(tb testing.TB) *Meter {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	tb.Cleanup(func() { runtime.MemProfileRate = old })
	m := &Meter{}
	m.snapshot()
	return m
}

// Count runs f and returns what archai code allocated while it ran, on any
// goroutine (f's or the workers' it hands work to).
func (m *Meter) Count(f func()) Window {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.Mallocs != m.mallocs { // something allocated since the last snapshot: not f's
		m.snapshot()
	}
	before := m.mallocs
	f()
	runtime.ReadMemStats(&ms)
	w := Window{Mallocs: ms.Mallocs - before}
	if w.Mallocs == 0 {
		return w
	}
	base := m.base
	m.snapshot()
	for stk, n := range m.base {
		d := n - base[stk]
		if d <= 0 {
			continue
		}
		if where, ours := attribute(stk); ours {
			if w.Sites == nil {
				w.Sites = map[string]int64{}
			}
			w.Objects += d
			w.Sites[where] += d
		}
	}
	return w
}

// snapshot publishes the profile of everything allocated so far (runtime.GC),
// refills the parking records the collection emptied (parking.Prime) and takes
// the profile's objects per stack as the base of the next window.
func (m *Meter) snapshot() {
	runtime.GC()
	parking.Prime()
	for {
		n, ok := runtime.MemProfile(m.recs, true) // true: stacks whose objects are all freed too
		if ok {
			m.recs = m.recs[:n]
			break
		}
		m.recs = make([]runtime.MemProfileRecord, n+n/4+64)
	}
	m.base = make(map[[32]uintptr]int64, len(m.recs))
	for _, r := range m.recs {
		m.base[r.Stack0] += r.AllocObjects
	}
	m.recs = m.recs[:cap(m.recs)]
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.mallocs = ms.Mallocs
}

// attribute reports whether an allocation's stack (innermost frame first) is
// archai's: the first archai function on it is not one of the support
// packages', and the stack does not go through runtime.acquireSudog (the
// runtime's parking record for a goroutine that blocks, whoever made it block).
// A stack the profile cut at 32 frames without an archai function on them
// counts as archai's: nothing says it is not. It also returns the stack's first
// call sites outside the allocator.
func attribute(stk [32]uintptr) (where string, ours bool) {
	var sites []string
	decided := false
	n := slices.Index(stk[:], 0)
	if n < 0 {
		n = len(stk)
	}
	frames := runtime.CallersFrames(stk[:n])
	for {
		f, more := frames.Next()
		if f.Function == "runtime.acquireSudog" {
			return "", false
		}
		if !decided && strings.HasPrefix(f.Function, module) {
			for _, p := range support {
				if strings.HasPrefix(f.Function, p) {
					return "", false
				}
			}
			decided, ours = true, true
		}
		if len(sites) < 6 && f.Function != "" && (len(sites) > 0 || !allocator(f.Function)) {
			sites = append(sites, fmt.Sprintf("%s (%s:%d)", f.Function, f.File[strings.LastIndex(f.File, "/")+1:], f.Line))
		}
		if !more {
			break
		}
	}
	if !decided && n == len(stk) { // cut: the archai caller may be beyond
		ours = true
	}
	return strings.Join(sites, " < "), ours
}

// allocator reports whether fn is the runtime's allocator rather than what
// called it.
func allocator(fn string) bool {
	return strings.HasPrefix(fn, "runtime.mallocgc") || strings.HasPrefix(fn, "runtime.newobject") ||
		strings.HasPrefix(fn, "runtime.makeslice") || strings.HasPrefix(fn, "runtime.growslice") ||
		strings.HasPrefix(fn, "runtime.makemap") || strings.HasPrefix(fn, "runtime.conv") ||
		strings.HasPrefix(fn, "runtime.rawstring") || fn == "runtime.profilealloc"
}
