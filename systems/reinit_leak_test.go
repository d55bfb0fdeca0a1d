package systems_test

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
)

// reinitChild is the environment variable that makes
// TestInitializeTwiceLeaksNoGoroutine run its checks: in a process of its own, where no
// other test's pool keeps the workers' helper goroutines alive.
const reinitChild = "ARCHAI_REINIT_LEAK_CHILD"

// A system with workers initialized twice without a Finalize between (the same value
// added twice to a schedule, or a level restarted without finalizing the last) used to
// leave the first Initialize's worker pool open: the helper goroutines, shared by every
// open pool, then ran for good after the last Finalize. Each Initialize now closes the
// pool of the one before, so once every system is finalized the helpers stop: the
// process is back to its goroutine count before the first Initialize.
func TestInitializeTwiceLeaksNoGoroutine(t *testing.T) {
	if os.Getenv(reinitChild) == "" {
		cmd := selfCommand(t, "-test.run=^TestInitializeTwiceLeaksNoGoroutine$", "-test.count=1")
		cmd.Env = append(os.Environ(), reinitChild+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	newLevel := func() *arche.World {
		world := arche.NewWorld()
		arche.AddResource(&world, grid.New(16, 16))
		arche.AddResource(&world, &htn.Registry{})
		arche.AddResource(&world, &goap.Registry{})
		return &world
	}
	for _, sys := range []ecs.System{
		&systems.Spatial{Workers: 4}, &systems.Perception{Workers: 4}, &systems.Decision{Workers: 4},
		&systems.Utility{Workers: 4}, &systems.FSM{Workers: 4}, &systems.HTN{Workers: 4}, &systems.GOAP{Workers: 4},
		&systems.FlowField{Workers: 4}, &systems.PathFollow{Workers: 4}, &systems.Steer{Workers: 4},
		&systems.ORCA{Workers: 4}, &systems.Movement{Workers: 4},
	} {
		name := fmt.Sprintf("%T", sys)
		before := runtime.NumGoroutine()
		w := newLevel()
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, sys)
		if _, ok := sys.(*systems.Spatial); ok {
			s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), sys)
		}
		s.Initialize(w)
		sys.Initialize(w) // again, without a Finalize
		if runtime.NumGoroutine() <= before {
			t.Fatalf("%s: Workers 4 started no helper goroutine", name)
		}
		s.Run(w, 2)
		s.Finalize(w)
		if n := settle(before); n > before {
			t.Fatalf("%s: %d goroutines after Finalize, %d before the first Initialize: the first pool was left open", name, n, before)
		}
		// a level restart without Finalize, on another world: the same
		w2 := newLevel()
		s.Initialize(w)
		s.Initialize(w2)
		s.Run(w2, 1)
		s.Finalize(w2)
		if n := settle(before); n > before {
			t.Fatalf("%s: %d goroutines after a restart without Finalize, %d before", name, n, before)
		}
	}
}

// settle waits up to two seconds for the goroutine count to fall to want (the helpers
// stop once woken) and returns the count.
func settle(want int) int {
	deadline := time.Now().Add(2 * time.Second)
	n := runtime.NumGoroutine()
	for n > want && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// A Workers setting far past the cores (ten million) gives every system ecs.MaxWorkers
// workers: the decision systems used to make per-worker contexts and command buffers
// for all ten million (gigabytes) beside a pool of MaxWorkers.
func TestAbsurdWorkersAreMaxWorkers(t *testing.T) {
	const absurd = 10_000_000
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	arche.AddResource(w, &htn.Registry{})
	arche.AddResource(w, &goap.Registry{})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: absurd}, &systems.Perception{Workers: absurd},
		&systems.Decision{Workers: absurd}, &systems.Utility{Workers: absurd}, &systems.FSM{Workers: absurd},
		&systems.HTN{Workers: absurd}, &systems.GOAP{Workers: absurd}, &systems.FlowField{Workers: absurd},
		&systems.PathFollow{Workers: absurd}, &systems.Steer{Workers: absurd}, &systems.ORCA{Workers: absurd},
		&systems.Movement{Workers: absurd})
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	s.Initialize(w)
	s.Run(w, 2)
	runtime.ReadMemStats(&m1)
	s.Finalize(w)
	if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 256<<20 {
		t.Errorf("%d MB allocated for %d workers (at most ecs.MaxWorkers = %d)", grew>>20, absurd, ecs.MaxWorkers)
	}
}
