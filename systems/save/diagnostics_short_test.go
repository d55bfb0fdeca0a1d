package save_test

import (
	"bytes"
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

// TestLoadedDiagnosticsWritesTheSameShortLines: a world saved between a line
// giving only a changed count and the next is loaded and writes the short lines
// the unbroken run writes, naming the frame of the last full line (full_frame).
func TestLoadedDiagnosticsWritesTheSameShortLines(t *testing.T) {
	tree := starvedTree(t)
	const saveAt, end = 130, 400
	script := func(w *arche.World, frame int) { // one more Brain without a Think (think_missing) every 100 frames
		m := generic.NewMap1[components.Brain](w)
		if frame%100 == 0 && frame > 0 {
			m.NewWith(&components.Brain{ID: tree.Name(), Tree: tree, Memory: tree.NewMemory()})
		}
	}
	step := func(w *arche.World, s *ecs.Scheduler, from, to int) {
		for f := from; f < to; f++ {
			script(w, f)
			s.Update(w)
		}
	}
	mk := func(out *bytes.Buffer) (*systems.Decision, *systems.Diagnostics, *ecs.Scheduler) {
		dec := &systems.Decision{Workers: 1}
		diag := &systems.Diagnostics{Every: 50, Out: out}
		return dec, diag, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec, diag)
	}
	var out bytes.Buffer
	world := arche.NewWorld()
	w := &world
	_, _, s := mk(&out)
	spawnDiagnosed(w, tree)
	s.Initialize(w)
	step(w, s, 0, saveAt)
	require.Contains(t, out.String(), "archai: frame 100: diagnostics: 12 agents, 2 of them misconfigured (2 findings): think_missing 2 (was 1); examples and advice as at frame 0\n")
	out.Reset()
	step(w, s, saveAt, end)
	want := out.String()
	require.Contains(t, want, "archai: frame 300: diagnostics: 14 agents, 4 of them misconfigured (4 findings): think_missing 4 (was 3); examples and advice as at frame 0\n")
	s.Finalize(w)

	world = arche.NewWorld()
	w = &world
	dec, diag, s := mk(&out)
	spawnDiagnosed(w, tree)
	s.Initialize(w)
	step(w, s, 0, saveAt)
	data, err := save.Save(w, nil, dec, diag)
	require.NoError(t, err)
	s.Finalize(w)
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}})
	require.NoError(t, err)
	out.Reset()
	dec2, diag2, s2 := mk(&out)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(dec2, diag2))
	step(l.World, s2, saveAt, end)
	assert.Equal(t, want, out.String())
	s2.Finalize(l.World)
}
