package save_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// starvedTree is the idle tree of the starved worlds (one per test: a registry holds
// each compiled tree once).
func starvedTree(t *testing.T) *bt.Tree {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Success }))
	require.NoError(t, err)
	return tree
}

// starvedSystems is a Decision of Budget 1 at 60 frames a second, which ten agents
// thinking at 20 Hz (200 decisions a second) leave waiting on every frame.
func starvedSystems(workers int) (*systems.Decision, *ecs.Scheduler) {
	dec := &systems.Decision{Budget: 1, Workers: workers}
	return dec, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
}

func spawnStarved(w *arche.World, tree *bt.Tree) {
	m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
	for i := range 10 {
		e := m.New()
		b, th, p, _ := m.Get(e)
		*b = components.Brain{ID: tree.Name(), Tree: tree, Memory: tree.NewMemory()}
		*th = components.Think{Interval: 0.05}
		p.X, p.Y = float64(i)+0.5, 0.5
	}
}

// starvedFrom runs s on w from frame `from` to frame `to` and returns the first frame
// after which Diagnose counts decision_starved (-1 if none), its report then, and the
// state hash at `to`.
func starvedFrom(w *arche.World, s *ecs.Scheduler, from, to int) (int, string, uint64) {
	first, line := -1, ""
	for f := from + 1; f <= to; f++ {
		s.Update(w)
		if r := systems.Diagnose(w); first < 0 && r.Counts[systems.CauseDecisionStarved] > 0 {
			first, line = f, r.String()
		}
	}
	return first, line, systems.StateHash(w)
}

// TestLoadedDecisionBacklogKeepsItsCount: the frames in a row a decision Budget has left
// agents waiting are saved with the system (ThinkCursorState.Backlog, Waiting), so a world
// saved 60 frames into a backlog reports decision_starved at the frame the unbroken run
// does (2 s into it), with the same note, with 1 and 2 workers, and the same state hash.
// Diagnose right after the load sees the saved run's Waiting. The count used to start
// at 0 at the load: decision_starved came 60 frames late. A file without the fields
// (before 2026-12-04) still loads: the backlog is counted from the load.
func TestLoadedDecisionBacklogKeepsItsCount(t *testing.T) {
	const saveAt, end = 60, 240
	tree := starvedTree(t)
	world := arche.NewWorld()
	w := &world
	dec, s := starvedSystems(1)
	spawnStarved(w, tree)
	s.Initialize(w)
	wantFirst, wantLine, wantHash := starvedFrom(w, s, 0, end)
	s.Finalize(w)
	require.Equal(t, 120, wantFirst, "waiting from frame 1 (10 due, 1 thinks): 120 frames = 2 s")
	require.Contains(t, wantLine, "decision_starved 7")

	world = arche.NewWorld()
	w = &world
	dec, s = starvedSystems(1)
	spawnStarved(w, tree)
	s.Initialize(w)
	first, _, _ := starvedFrom(w, s, 0, saveAt)
	require.Equal(t, -1, first)
	require.Equal(t, 7, dec.Waiting)
	data, err := save.Save(w, nil, dec)
	require.NoError(t, err)
	require.Contains(t, string(data), `"waiting":7`)
	require.Contains(t, string(data), `"backlog":60`)
	s.Finalize(w)

	load := func(data []byte, workers int) (*arche.World, *systems.Decision, *ecs.Scheduler) {
		l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}})
		require.NoError(t, err)
		dec2, s2 := starvedSystems(workers)
		s2.Initialize(l.World)
		require.NoError(t, l.Restore(dec2))
		t.Cleanup(func() { s2.Finalize(l.World) })
		return l.World, dec2, s2
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			w2, dec2, s2 := load(data, workers)
			assert.Equal(t, 7, dec2.Waiting, "the saved run's last frame")
			again, err := save.Save(w2, nil, dec2)
			require.NoError(t, err)
			assert.Equal(t, string(data), string(again), "saved again before a frame: the same file")
			first, line, hash := starvedFrom(w2, s2, saveAt, end)
			assert.Equal(t, wantFirst, first)
			assert.Equal(t, wantLine, line)
			assert.Equal(t, wantHash, hash)
		})
	}

	// a file from before the fields: it loads, and the count starts at the load
	old := regexp.MustCompile(`,"waiting":\d+,"backlog":\d+`).ReplaceAllString(string(data), "")
	require.NotEqual(t, string(data), old)
	w2, dec2, s2 := load([]byte(old), 1)
	assert.Zero(t, dec2.Waiting)
	first, _, hash := starvedFrom(w2, s2, saveAt, end)
	assert.Equal(t, wantFirst+saveAt, first, "counted from the load")
	assert.Equal(t, wantHash, hash, "the simulation is the same")
}

// A think state out of its domain is refused with ErrDomain and leaves the system as
// it was.
func TestThinkStateOutOfDomain(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	dec, s := starvedSystems(1)
	s.Initialize(w)
	defer s.Finalize(w)
	for _, bad := range []string{
		`{"cursor":0,"waiting":-1,"backlog":3}`,
		`{"cursor":0,"waiting":2,"backlog":-3}`,
		`{"cursor":0,"waiting":2}`,
		`{"cursor":0,"backlog":2}`,
		`{"cursor":0,"waiting":2,"backlog":1099511627777}`,
	} {
		err := dec.LoadState([]byte(bad))
		assert.ErrorIs(t, err, save.ErrDomain, bad)
		assert.ErrorContains(t, err, "decision think cursor: waiting ", bad)
		assert.Zero(t, dec.Waiting, bad)
	}
	require.NoError(t, dec.LoadState([]byte(`{"cursor":0,"waiting":2,"backlog":5}`)))
	assert.Equal(t, 2, dec.Waiting)
	st, err := dec.SaveState()
	require.NoError(t, err)
	assert.JSONEq(t, `{"cursor":0,"waiting":2,"backlog":5}`, string(st))
}
