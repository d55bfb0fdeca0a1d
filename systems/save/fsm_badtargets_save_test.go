package save_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadedFSMKeepsItsBadTargets: an FSM's count of Update hooks that returned a state
// of no machine (FSM.BadTargets, Diagnose's Report.BadTargets, one finding) is saved
// (FSMState), so after a load Diagnose reports the count of the unbroken run at every
// frame, with 1 and 2 workers, and the state hash is the same. It used to start at 0 at
// the load (a report of 10 bad targets where the unbroken run had 40). A file without
// it (before 2026-12-04) loads, and counts from the load.
func TestLoadedFSMKeepsItsBadTargets(t *testing.T) {
	const saveAt, end = 60, 120
	b := fsm.NewBuilder("lost")
	b.State("idle", fsm.Hooks{Update: func(*fsm.Context) fsm.StateID { return 7 }})
	m, err := b.Build()
	require.NoError(t, err)
	newSystems := func(workers int) (*systems.FSM, *ecs.Scheduler) {
		f := &systems.FSM{Workers: workers}
		return f, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), f)
	}
	run := func(w *arche.World, s *ecs.Scheduler, frames int) (counts []uint64) {
		for range frames {
			s.Update(w)
			counts = append(counts, systems.Diagnose(w).BadTargets)
		}
		return counts
	}
	world := arche.NewWorld()
	w := &world
	mp := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
	for i := range 4 {
		mp.NewWith(&components.StateMachine{ID: m.MachineName(), Machine: m}, &components.Think{Interval: 0.1, Next: float64(i) * 0.025},
			&components.Position{}, &components.Intent{})
	}
	f, s := newSystems(1)
	s.Initialize(w)
	run(w, s, saveAt)
	require.Positive(t, f.BadTargets)
	data, err := save.Save(w, nil, f)
	require.NoError(t, err)
	require.Contains(t, string(data), fmt.Sprintf(`"bad_targets":%d`, f.BadTargets))
	want := run(w, s, end-saveAt)
	wantHash := systems.StateHash(w)
	s.Finalize(w)

	load := func(t *testing.T, data []byte, workers int) (*arche.World, *ecs.Scheduler) {
		l, err := save.Load(data, save.Registry{Machines: []*fsm.Machine{m}})
		require.NoError(t, err)
		f2, s2 := newSystems(workers)
		s2.Initialize(l.World)
		t.Cleanup(func() { s2.Finalize(l.World) })
		require.NoError(t, l.Restore(f2))
		return l.World, s2
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			w2, s2 := load(t, data, workers)
			assert.Equal(t, want, run(w2, s2, end-saveAt))
			assert.Equal(t, wantHash, systems.StateHash(w2))
		})
	}
	old := regexp.MustCompile(`,"bad_targets":\d+`).ReplaceAllString(string(data), "")
	require.NotEqual(t, string(data), old)
	w2, s2 := load(t, []byte(old), 1)
	got := run(w2, s2, end-saveAt)
	assert.Equal(t, want[len(want)-1]-want[0], got[len(got)-1]-got[0], "the same hooks, counted from the load")
	assert.Less(t, got[len(got)-1], want[len(want)-1])
}
