package systems_test

import (
	"hash/fnv"
	"sync"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
)

// delayClaims makes workers claim other blocks than a quiet machine's: before one
// claim in two, the slow worker sleeps 200 µs, so the other claims blocks of its
// range (from the back). It returns the function that puts the hook back.
func delayClaims(slow int) func() {
	var mu sync.Mutex
	n := 0
	old := systems.SetClaimHook(func(worker int) {
		mu.Lock()
		n++
		sleep := worker == slow && n%2 == 0
		mu.Unlock()
		if sleep {
			time.Sleep(200 * time.Microsecond)
		}
	})
	return func() { systems.SetClaimHook(old) }
}

// TestResultsDoNotDependOnBlockClaims: systems hand out their agents in blocks
// that the workers claim as they come free, so which worker runs which block
// depends on timing (a loaded host, an emulator: one of three 386 runs under qemu
// gave FlowField another trace once, never reproduced). A FlowField trace and a
// guard crowd run with either worker held back at random claims give the quiet
// run's hashes.
func TestResultsDoNotDependOnBlockClaims(t *testing.T) {
	trace := func() uint64 {
		h := fnv.New64a()
		for _, sectors := range []int{0, 16} {
			traceOne(h, 1, 2, sectors, false)
		}
		return h.Sum64()
	}
	crowd := func() uint64 {
		sc := newCrowd(t, 3000, 7, 2, false)
		s := ecs.NewScheduler(sc.systems()...)
		s.Initialize(sc.World)
		defer s.Finalize(sc.World)
		s.Run(sc.World, 120)
		return systems.StateHash(sc.World)
	}
	wantTrace, wantCrowd := trace(), crowd()
	for _, slow := range []int{0, 1} {
		restore := delayClaims(slow)
		gotTrace, gotCrowd := trace(), crowd()
		restore()
		assert.Equal(t, wantTrace, gotTrace, "FlowField trace, worker %d held back", slow)
		assert.Equal(t, wantCrowd, gotCrowd, "guard crowd, worker %d held back", slow)
	}
}
