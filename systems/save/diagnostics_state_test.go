package save_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
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

// diagnosedSystems is starvedSystems with a Diagnostics checking every 50 frames,
// writing to out.
func diagnosedSystems(workers int, out *bytes.Buffer) (*systems.Decision, *systems.Diagnostics, *ecs.Scheduler) {
	dec := &systems.Decision{Budget: 1, Workers: workers}
	diag := &systems.Diagnostics{Every: 50, Out: out}
	return dec, diag, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec, diag)
}

// spawnDiagnosed spawns the starved agents and one with a Brain and no Think
// (think_missing, found from the first check on and unchanged since).
func spawnDiagnosed(w *arche.World, tree *bt.Tree) {
	spawnStarved(w, tree)
	m := generic.NewMap1[components.Brain](w)
	m.NewWith(&components.Brain{ID: tree.Name(), Tree: tree, Memory: tree.NewMemory()})
}

// TestLoadedDiagnosticsWritesTheSameLines: a Diagnostics is saved with its cadence (its
// frame count) and the findings it last wrote (DiagnosticsState), so a world saved at
// frame 60 and loaded writes the lines the unbroken run writes after frame 60, at the
// same frames and naming the same frame numbers, with 1 and 2 workers, and ends with the
// same state hash. A loaded Diagnostics used to start afresh: it checked at frames 61,
// 111, ... instead of 101, 151, ..., wrote the unchanged think_missing finding again and
// named frames counted from the load. Save now refuses a world running a Diagnostics
// it is not given, and a file without its state (written before 2026-12-04) is
// refused by Restore unless the Diagnostics is given as save.Without (it then starts
// afresh).
func TestLoadedDiagnosticsWritesTheSameLines(t *testing.T) {
	const saveAt, end = 60, 240
	tree := starvedTree(t)
	run := func(w *arche.World, s *ecs.Scheduler, out *bytes.Buffer, from, to int) (string, uint64) {
		out.Reset()
		for range to - from {
			s.Update(w)
		}
		return out.String(), systems.StateHash(w)
	}
	var out bytes.Buffer
	world := arche.NewWorld()
	w := &world
	_, _, s := diagnosedSystems(1, &out)
	spawnDiagnosed(w, tree)
	s.Initialize(w)
	before, _ := run(w, s, &out, 0, saveAt)
	wantLines, wantHash := run(w, s, &out, saveAt, end)
	s.Finalize(w)
	require.Contains(t, before, "archai: frame 0: ", "think_missing, from the first check")
	require.Equal(t, 1, bytes.Count([]byte(before), []byte("\n")))
	require.Regexp(t, `^archai: frame 150: .*decision_starved 7 .*\n$`, wantLines, "the backlog found at the check of frame 150 only")

	world = arche.NewWorld()
	w = &world
	dec, diag, s := diagnosedSystems(1, &out)
	spawnDiagnosed(w, tree)
	s.Initialize(w)
	run(w, s, &out, 0, saveAt)
	_, err := save.Save(w, nil, dec)
	require.ErrorIs(t, err, save.ErrStateLeftOut)
	require.ErrorContains(t, err, "the world runs diagnostics, whose state persists across frames")
	data, err := save.Save(w, nil, dec, diag)
	require.NoError(t, err)
	require.Contains(t, string(data), `"diagnostics":{"checks":2,"frame":60,"written":true,"total":1,"counts":{"think_missing":1},"full_frame":0}`)
	s.Finalize(w)

	load := func(data []byte, workers int, states func(*systems.Decision, *systems.Diagnostics) []save.State) (*arche.World, *ecs.Scheduler, error) {
		l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}})
		require.NoError(t, err)
		dec2, diag2, s2 := diagnosedSystems(workers, &out)
		s2.Initialize(l.World)
		t.Cleanup(func() { s2.Finalize(l.World) })
		return l.World, s2, l.Restore(states(dec2, diag2)...)
	}
	both := func(d *systems.Decision, g *systems.Diagnostics) []save.State { return []save.State{d, g} }
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			w2, s2, err := load(data, workers, both)
			require.NoError(t, err)
			lines, hash := run(w2, s2, &out, saveAt, end)
			assert.Equal(t, wantLines, lines)
			assert.Equal(t, wantHash, hash)
		})
	}

	// a file from before the state: Restore names the Diagnostics and the way out
	old := regexp.MustCompile(`,"diagnostics":\{[^}]*\{[^}]*\}[^}]*\}`).ReplaceAllString(string(data), "")
	require.NotEqual(t, string(data), old)
	_, _, err = load([]byte(old), 1, both)
	assert.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, `the file has no state for "diagnostics" (saved without it, or before the system had state to save: Restore(save.Without(sys)) starts it afresh`)
	_, _, err = load([]byte(old), 1, func(d *systems.Decision, _ *systems.Diagnostics) []save.State { return []save.State{d} })
	assert.ErrorIs(t, err, save.ErrStateLeftOut)
	assert.ErrorContains(t, err, "the world runs diagnostics")
	w2, s2, err := load([]byte(old), 1, func(d *systems.Decision, g *systems.Diagnostics) []save.State {
		return []save.State{d, save.Without(g)}
	})
	require.NoError(t, err)
	lines, hash := run(w2, s2, &out, saveAt, end)
	assert.Equal(t, wantHash, hash, "the simulation is the same")
	assert.True(t, strings.HasPrefix(lines, fmt.Sprintf("archai: frame %d: ", saveAt)),
		"started afresh, it checks at once; its line names the world's frame, not 0 (%q)", lines)
}

// A Diagnostics state out of its domain is refused with ErrDomain, the Diagnostics left
// as it was; before Initialize, with ErrNotInitialized.
func TestDiagnosticsStateOutOfDomain(t *testing.T) {
	diag := &systems.Diagnostics{}
	assert.ErrorIs(t, diag.LoadState([]byte(`{"frame":3}`)), systems.ErrNotInitialized)
	world := arche.NewWorld()
	w := &world
	diag.Initialize(w)
	defer diag.Finalize(w)
	assert.Equal(t, []string{"diagnostics"}, systems.StatefulSystems(w))
	for bad, msg := range map[string]string{
		`{"frame":-1}`:                                        "frame -1",
		`{"frame":3,"written":true,"total":-2}`:               "total -2",
		`{"frame":3,"total":2,"counts":{"think_missing":2}}`:  "without written",
		`{"frame":3,"written":true,"counts":{"no_such":2}}`:   `"no_such" is no cause`,
		`{"frame":3,"written":true,"counts":{"off_grid":-2}}`: `counts["off_grid"]: -2 < 0`,
		`{"frame":3,"written":true,"full_frame":-1}`:          "full_frame -1",
		`{"frame":3,"full_frame":2}`:                          "full_frame 2 (written false)",
	} {
		err := diag.LoadState([]byte(bad))
		assert.ErrorIs(t, err, save.ErrDomain, bad)
		assert.ErrorContains(t, err, msg, bad)
	}
	st, err := diag.SaveState()
	require.NoError(t, err)
	assert.JSONEq(t, `{"frame":0}`, string(st), "left as it was")
	require.NoError(t, diag.LoadState([]byte(`{"frame":7,"written":true,"total":2,"counts":{"off_grid":2}}`)))
	st, err = diag.SaveState()
	require.NoError(t, err)
	assert.JSONEq(t, `{"frame":7,"written":true,"total":2,"counts":{"off_grid":2}}`, string(st))
}
