package systems_test

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// patrolRun is a component of the program's own holding a hybrid.TreeRun, as
// examples/guardfsm's Combat does.
// Its padding makes the component column larger than the collector's 128 KiB oblets,
// which are scanned separately: a component moved from an unscanned oblet into a
// scanned one is then not seen by the collector.
type patrolRun struct {
	Waypoints [24]float64
	hybrid.TreeRun
}

// TestTreeRunInOwnComponentSurvivesRemovals: a TreeRun kept in a component of the
// program's own gets its Memory on the agent's first FSM update; Arche moves components
// with a byte copy the garbage collector does not see, so removing agents under a
// concurrent collection used to free live agents' tree memory ("fatal error: found
// pointer to free object", which kills the process). The churn runs in a child process
// (the crash cannot be recovered) under GC pressure; the child must exit 0 having
// found every live agent's memory intact.
func TestTreeRunInOwnComponentSurvivesRemovals(t *testing.T) {
	if os.Getenv("ARCHAI_TREERUN_CHURN") == "1" {
		treeRunChurn(t)
		return
	}
	if testing.Short() {
		t.Skip("a child process churning agents for ~1 s")
	}
	seconds := "1" // at least 10 rounds whatever the time; ARCHAI_LONG churns 30 s
	if os.Getenv("ARCHAI_LONG") == "1" {
		seconds = "30"
	}
	cmd := selfCommand(t, "-test.run=^TestTreeRunInOwnComponentSurvivesRemovals$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "ARCHAI_TREERUN_CHURN=1", "ARCHAI_TREERUN_SECONDS="+seconds)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	tail := string(out)
	if i := strings.Index(tail, "fatal error"); i >= 0 {
		tail = tail[i:min(len(tail), i+400)]
	} else if len(tail) > 2000 {
		tail = tail[len(tail)-2000:]
	}
	require.NoError(t, err, "the churn's child process failed after %v:\n%s", time.Since(start), tail)
	require.Contains(t, string(out), "churn done", "the child did not run the churn")
}

// treeRunChurn spawns 2000 agents whose machine runs a tree from their patrolRun, then
// removes a third of them each round (with a collection forced and freed memory reused)
// and spawns as many again, for ARCHAI_TREERUN_SECONDS (at least 10 rounds).
// TestArenaKeepsTreeRunPerEntity: the FSM's first update of a TreeState keeps the
// agent's TreeRun in the Arena; holding the same agent again keeps it; releasing drops it;
// a new entity reusing the ID starts with nothing kept until its own first update.
func TestArenaKeepsTreeRunPerEntity(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	runs := generic.NewMap[patrolRun](w)
	tree, err := bt.Compile("t", bt.Action("Walk", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	b := fsm.NewBuilder("guard")
	b.State("Patrol", hybrid.TreeState(tree,
		func(c *fsm.Context) *hybrid.TreeRun { return &runs.Get(systems.StateAgent(c).Entity).TreeRun }, nil))
	m, err := b.Build()
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1}, systems.With(patrolRun{}))
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	arena := systems.ArenaOf(w)
	require.Zero(t, arena.KeptTreeRuns(e), "nothing allocated before the first update")
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 1)
	require.Equal(t, tree.Len(), runs.Get(e).Memory.Len())
	assert.Equal(t, 1, arena.KeptTreeRuns(e))
	s.Run(w, 3)
	assert.Equal(t, 1, arena.KeptTreeRuns(e), "one entry per state, not per update")
	arena.HoldAll(w)
	assert.Equal(t, 1, arena.KeptTreeRuns(e), "a second hold of the same agent keeps it")
	w.RemoveEntity(e)
	e2 := sp.Spawn(r2.Vec{}, nil)
	require.Equal(t, e.ID(), e2.ID(), "the ID is reused")
	assert.Zero(t, arena.KeptTreeRuns(e2), "another entity's kept run is dropped")
	s.Run(w, 1)
	assert.Equal(t, 1, arena.KeptTreeRuns(e2))
	arena.Release(e2)
	assert.Zero(t, arena.KeptTreeRuns(e2))
}

func treeRunChurn(t *testing.T) {
	seconds := 3.0
	fmt.Sscan(os.Getenv("ARCHAI_TREERUN_SECONDS"), &seconds)
	end := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	world := arche.NewWorld()
	w := &world
	runs := generic.NewMap[patrolRun](w)
	running := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("patrol", bt.Sequence(
		bt.Condition("Ok", func(*bt.Context) bool { return true }),
		bt.ReactiveSelector(
			bt.Condition("No", func(*bt.Context) bool { return false }),
			bt.Action("Walk", running),
		),
	))
	require.NoError(t, err)
	b := fsm.NewBuilder("guard")
	b.State("Patrol", hybrid.TreeState(tree,
		func(c *fsm.Context) *hybrid.TreeRun { return &runs.Get(systems.StateAgent(c).Entity).TreeRun }, nil))
	m, err := b.Build()
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1}, systems.With(patrolRun{}))
	require.NoError(t, err)
	spawn := func(n int) {
		sp.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec.X = float64(i) })
	}
	spawn(2000)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{Workers: 2})
	s.Initialize(w)
	defer s.Finalize(w)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // keep a collection running while components move
		var keep [][]byte
		for {
			select {
			case <-stop:
				return
			default:
			}
			keep = append(keep, make([]byte, 256))
			if len(keep) > 4096 {
				keep = keep[:0]
			}
		}
	}()
	filter := generic.NewFilter1[patrolRun]()
	bad, checked := 0, 0
	var junk [][]byte
	rounds := 0
	for round := 0; round < 10 || time.Now().Before(end); round++ {
		rounds++
		s.Run(w, 2) // every agent updates: new agents' TreeRun.Memory is allocated
		var es []arche.Entity
		q := filter.Query(w)
		for q.Next() {
			es = append(es, q.Entity())
		}
		for i, e := range es {
			if i%3 == round%3 {
				w.RemoveEntity(e)
			}
		}
		runtime.GC()
		junk = junk[:0]
		for range 2000 { // reuse freed memory
			b := make([]byte, 64)
			for k := range b {
				b[k] = 0xEE
			}
			junk = append(junk, b)
		}
		q = filter.Query(w)
		for q.Next() {
			r := q.Get()
			if r.Memory.Len() == 0 {
				continue
			}
			checked++
			if tree.CheckMemory(r.Memory) != nil {
				bad++
			}
		}
		spawn(len(es) / 3)
	}
	_ = junk
	require.NotZero(t, checked)
	require.Zero(t, bad, "tree memories of live agents corrupted after removing others")
	t.Logf("churn done: %d rounds, %d memories checked", rounds, checked)
}
