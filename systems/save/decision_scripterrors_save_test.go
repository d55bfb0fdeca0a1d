package save_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestLoadedDecisionKeepsItsScriptErrors: the Decision's count of scripts failed at run
// time (Decision.ScriptErrors, Diagnose's Report.ScriptErrors, one finding) is saved
// (DecisionState), so after a load Diagnose reports the unbroken run's count at every
// frame, with 1 and 2 workers. A file without it (before 2026-12-05) loads, and counts
// from the load.
func TestLoadedDecisionKeepsItsScriptErrors(t *testing.T) {
	const saveAt, end = 30, 60
	reg := bt.NewRegistry(nil)
	blackboard.MustDeclare[float64](reg.Schema(), "hp") // declared, never set
	main, err := reg.LoadXML("hp.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="M">
		<Fallback><ScriptCondition code="hp > 10"/><AlwaysSuccess/></Fallback>
	</BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(main)
	require.NoError(t, err)
	newSystems := func(workers int) (*systems.Decision, *ecs.Scheduler) {
		d := &systems.Decision{Workers: workers}
		return d, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), d)
	}
	run := func(w *arche.World, s *ecs.Scheduler, frames int) (counts []uint64) {
		for range frames {
			s.Update(w)
			counts = append(counts, systems.Diagnose(w).ScriptErrors)
		}
		return counts
	}
	world := arche.NewWorld()
	w := &world
	sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Registry: reg, Interval: 0.1})
	require.NoError(t, err)
	for range 4 {
		sp.Spawn(r2.Vec{}, nil)
	}
	d, s := newSystems(1)
	s.Initialize(w)
	run(w, s, saveAt)
	require.Positive(t, d.ScriptErrors)
	data, err := save.Save(w, nil, d)
	require.NoError(t, err)
	require.Contains(t, string(data), fmt.Sprintf(`"script_errors":%d`, d.ScriptErrors))
	require.Contains(t, systems.Diagnose(w).String(), `entry "hp" has no value`)
	require.Contains(t, string(data), `"last_script_error":`)
	want := run(w, s, end-saveAt)
	s.Finalize(w)

	load := func(t *testing.T, data []byte, workers int) (*arche.World, *ecs.Scheduler) {
		l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}, Schema: reg.Schema()})
		require.NoError(t, err)
		d2, s2 := newSystems(workers)
		s2.Initialize(l.World)
		t.Cleanup(func() { s2.Finalize(l.World) })
		require.NoError(t, l.Restore(d2))
		return l.World, s2
	}
	t.Run("the newest error's text", func(t *testing.T) {
		// right after the load, before any script fails again: the saved run's newest
		// error, which the loaded report named without (the count alone) before
		w2, _ := load(t, data, 1)
		rep := systems.Diagnose(w2).String()
		assert.Contains(t, rep, `the last, node 1: code: script col 1: entry "hp" has no value`)
	})
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			w2, s2 := load(t, data, workers)
			assert.Equal(t, want, run(w2, s2, end-saveAt))
		})
	}
	old := regexp.MustCompile(`,"script_errors":\d+,"last_script_error":"[^"]*(\\"[^"]*)*","last_script_node":\d+`).ReplaceAllString(string(data), "")
	require.NotEqual(t, string(data), old)
	w2, s2 := load(t, []byte(old), 1)
	got := run(w2, s2, end-saveAt)
	assert.Equal(t, want[len(want)-1]-want[0], got[len(got)-1]-got[0], "the same scripts, counted from the load")
	assert.Less(t, got[len(got)-1], want[len(want)-1])
}
