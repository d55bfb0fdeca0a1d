package scenario

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
)

// TestSteerInstructions is a measuring harness, not a check: with
// ARCHAI_STEER_INSTR=swarm or guards it builds that scenario with
// ARCHAI_STEER_INSTR_N agents (100,000 if unset; seed 3, 1 worker), runs
// ARCHAI_STEER_INSTR_WARM frames (60 if unset), one Steer update alone, then
// ARCHAI_STEER_INSTR_UPDATES more (3 if unset) inside countedSteerUpdates,
// on this goroutine's own thread. It is meant for valgrind's callgrind,
// started with instrumentation off so that the warm-up runs at valgrind's
// uninstrumented speed: with ARCHAI_STEER_INSTR_SYNC=DIR it writes its
// process ID to DIR/ready after the warm-up and waits for DIR/go, which a
// script writes once it has switched instrumentation on
// (callgrind_control -i on PID); --toggle-collect then counts the counted
// updates alone. The collector is best off (GOGC=off: no write barrier or
// assist is counted), and Go needs GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off
// under valgrind. The counts are exact from run to run (±0.01%):
//
//	go test -c -o /tmp/scen.test ./cmd/bench/scenario
//	d=$(mktemp -d)
//	ARCHAI_STEER_INSTR=swarm ARCHAI_STEER_INSTR_SYNC=$d GOGC=off \
//	  GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind \
//	  --instr-atstart=no --toggle-collect='*countedSteerUpdates*' \
//	  /tmp/scen.test -test.run SteerInstructions &
//	while [ ! -s $d/ready ]; do sleep 0.2; done
//	callgrind_control -i on $(cat $d/ready); sleep 1; touch $d/go; wait
//
// With ARCHAI_STEER_INSTR_FRAME set (either scenario), each
// counted update is a whole frame (the scheduler's Update) instead of
// Steer's alone: with callgrind's --cache-sim=yes (and --LL= the size of the
// cache level to model) it gives each system's modelled cache misses, and
// with --toggle-collect='*FlowField).Update' (as well) one system's count.
//
// (The test could switch instrumentation on itself by running
// callgrind_control, but callgrind 3.19 then dies on the child's SIGCHLD
// now and then.) Skipped without ARCHAI_STEER_INSTR.
func TestSteerInstructions(t *testing.T) {
	which := os.Getenv("ARCHAI_STEER_INSTR")
	if which == "" {
		t.Skip("set ARCHAI_STEER_INSTR to swarm or guards to measure")
	}
	atoi := func(key string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
			return v
		}
		return def
	}
	n := atoi("ARCHAI_STEER_INSTR_N", 100000)
	warm := atoi("ARCHAI_STEER_INSTR_WARM", 60)
	updates := atoi("ARCHAI_STEER_INSTR_UPDATES", 3)
	var update func()
	switch which {
	case "swarm":
		s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		sch := ecs.NewScheduler(s.Systems()...)
		sch.Initialize(s.World)
		defer sch.Finalize(s.World)
		sch.Run(s.World, warm)
		update = func() { s.Steer.Update(s.World) }
		if os.Getenv("ARCHAI_STEER_INSTR_FRAME") != "" {
			update = func() { sch.Update(s.World) }
		}
	case "guards":
		g, err := NewGuards(Config{Agents: n, Seed: 3, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		sch := ecs.NewScheduler(g.Systems()...)
		sch.Initialize(g.World)
		defer sch.Finalize(g.World)
		sch.Run(g.World, warm)
		update = func() { g.Steer.Update(g.World) }
		if os.Getenv("ARCHAI_STEER_INSTR_FRAME") != "" {
			update = func() { sch.Update(g.World) }
		}
	default:
		t.Fatalf("ARCHAI_STEER_INSTR=%s: want swarm or guards", which)
	}
	if dir := os.Getenv("ARCHAI_STEER_INSTR_SYNC"); dir != "" {
		// the script switches callgrind's instrumentation on once this
		// file appears, then writes "go"
		ready, goFile := filepath.Join(dir, "ready"), filepath.Join(dir, "go")
		if err := os.WriteFile(ready, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := os.Stat(goFile); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// callgrind follows calls per thread: the updates stay on this one
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	update() // once outside the count (instrumented, not collected)
	countedSteerUpdates(update, updates)
}

// countedSteerUpdates runs update n times: callgrind's
// --toggle-collect='*countedSteerUpdates*' counts these calls alone.
//
//go:noinline
func countedSteerUpdates(update func(), n int) {
	for range n {
		update()
	}
}
