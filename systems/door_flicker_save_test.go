package systems_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flickerFrom flickers the scene's door (open on odd frames of the flicker) from
// flicker frame `from` to `to` and returns the first frame after which Diagnose
// reports Report.FlowBehind (-1 if none), its report then, and the state hash at `to`.
func flickerFrom(s *flickerScene, from, to int) (int, string, uint64) {
	first, line := -1, ""
	for f := from; f < to; f++ {
		s.setDoor(f%2 == 1)
		s.sched.Update(s.w)
		if r := systems.Diagnose(s.w); first < 0 && r.FlowBehind > 0 {
			first, line = f, r.String()
		}
	}
	return first, line, systems.StateHash(s.w)
}

// TestLoadedFlowFieldKeepsItsBehindCount: a FlowField (whole grid, Budget 100) whose
// followers follow a field the flickering door keeps older than the grid saves how many
// Updates in a row they have (flowEditsState.Behind, BehindFrames), so a world saved 60
// frames into it reports Report.FlowBehind at the frame the unbroken run does (2 s into
// it), with the same report, with 1 and 2 workers, and the same state hash. The count
// used to start at 0 at the load: the finding came 60 frames late. A file without the
// fields (before 2026-12-04) loads, and counts from the load.
func TestLoadedFlowFieldKeepsItsBehindCount(t *testing.T) {
	const saveAt, end = 60, 240
	start := func(t *testing.T) *flickerScene {
		s := newFlickerScene(t, "flow", 24)
		s.ff.Budget = 100
		s.setDoor(false)
		for range 30 {
			s.sched.Update(s.w)
		}
		return s
	}
	s := start(t)
	wantFirst, wantLine, wantHash := flickerFrom(s, 0, end)
	require.Equal(t, 120, wantFirst, "the first flicker frame still follows a current field")
	require.Contains(t, wantLine, "24 flow followers follow a field older than the grid for 2.0 s")

	s = start(t)
	first, _, _ := flickerFrom(s, 0, saveAt)
	require.Equal(t, -1, first)
	data, err := save.Save(s.w, nil, s.ff)
	require.NoError(t, err)
	require.Regexp(t, `"behind":24,"behind_frames":\d+`, string(data))

	load := func(t *testing.T, data []byte, workers int) *flickerScene {
		l, err := save.Load(data, save.Registry{})
		require.NoError(t, err)
		ls := &flickerScene{w: l.World, g: grid.New(40, 20)} // the saved grid, its door as saved
		for y := int32(0); y < 20; y++ {
			if y < 8 || y > 11 {
				ls.g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
				ls.g.SetCost(grid.Cell{X: 21, Y: y}, grid.Blocked)
			}
		}
		ls.setDoor((saveAt-1)%2 == 1)
		arche.AddResource(l.World, ls.g)
		list := escapeSystems("flow")
		for _, sys := range list {
			if f, ok := sys.(*systems.FlowField); ok {
				ls.ff = f
			}
			if f, ok := sys.(*systems.PathFollow); ok {
				f.Workers = workers
			}
		}
		ls.ff.Budget, ls.ff.Workers = 100, workers
		ls.sched = ecs.NewScheduler(list...)
		ls.sched.Initialize(l.World)
		t.Cleanup(func() { ls.sched.Finalize(l.World) })
		require.NoError(t, l.Restore(ls.ff))
		ls.pos = generic.NewMap1[components.Position](l.World)
		return ls
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			ls := load(t, data, workers)
			first, line, hash := flickerFrom(ls, saveAt, end)
			assert.Equal(t, wantFirst, first)
			assert.Equal(t, wantLine, line)
			assert.Equal(t, wantHash, hash)
		})
	}

	// a file from before the fields: it loads, and the count starts at the load
	old := regexp.MustCompile(`,?"behind":\d+,"behind_frames":\d+`).ReplaceAllString(string(data), "")
	require.NotEqual(t, string(data), old)
	ls := load(t, []byte(old), 1)
	first, _, hash := flickerFrom(ls, saveAt, end)
	assert.Equal(t, saveAt+119, first, "counted from the load: 2 s, its 120th Update")
	assert.Equal(t, wantHash, hash, "the simulation is the same")
}

// A FlowField state whose behind count is out of its domain is refused with
// ErrOutOfDomain, naming it.
func TestFlowFieldBehindStateOutOfDomain(t *testing.T) {
	s := newFlickerScene(t, "flow", 1)
	s.sched.Update(s.w)
	raw, err := s.ff.SaveState()
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(raw, &st))
	for _, edits := range []string{`{"behind":-1,"behind_frames":3}`, `{"behind":2}`, `{"behind_frames":2}`, `{"behind":2,"behind_frames":-2}`} {
		var e any
		require.NoError(t, json.Unmarshal([]byte(edits), &e))
		st["edits"] = e
		bad, err := json.Marshal(st)
		require.NoError(t, err)
		err = s.ff.LoadState(bad)
		assert.ErrorIs(t, err, systems.ErrOutOfDomain, edits)
		assert.ErrorContains(t, err, "flowfield state: edits: behind ", edits)
	}
	st["edits"] = map[string]any{"behind": 2, "behind_frames": 5}
	good, err := json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, s.ff.LoadState(good))
	back, err := s.ff.SaveState()
	require.NoError(t, err)
	assert.Contains(t, string(back), `"edits":{"behind":2,"behind_frames":5}`)
}
