package save_test

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// dithering is a tree whose agent sends itself to the other of two goals at each
// think until 20 s of simulation time, and to the first for good after: an Intent
// flip-flopping (intent_flip_flop) for 20 s.
func dithering(t *testing.T) *bt.Tree {
	a, b := r2.Vec{X: 4.5, Y: 4.5}, r2.Vec{X: 12.5, Y: 4.5}
	tree, err := bt.Compile("dither", bt.Action("dither", func(ctx *bt.Context) bt.Status {
		ag := systems.AgentOf(ctx)
		ag.Intent.Move = true
		if ag.Intent.Goal == a && ag.Clock.Time < 20 {
			ag.Intent.Goal = b
		} else {
			ag.Intent.Goal = a
		}
		return bt.Running
	}))
	require.NoError(t, err)
	return tree
}

// ditherWorld sets up three dithering agents under a Decision and a Diagnostics
// writing to out; spawn false for a world a save is loaded into.
func ditherWorld(t *testing.T, w *arche.World, tree *bt.Tree, spawn bool, out io.Writer) ([]save.State, *ecs.Scheduler) {
	arche.AddResource(w, grid.New(16, 16))
	if spawn {
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		for i := range 3 {
			sp.Spawn(r2.Vec{X: 8.5, Y: 3.5 + float64(3*i)}, nil)
		}
	}
	list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Decision{}, &systems.Diagnostics{Out: out}}
	s := ecs.NewScheduler(list...)
	require.NoError(t, s.InitializeChecked(w))
	var st []save.State
	for _, sys := range list {
		if x, ok := sys.(save.State); ok {
			st = append(st, x)
		}
	}
	return st, s
}

// A world saved while its agents' Intents flip-flop and loaded goes on as the
// unbroken run: its Diagnostics writes intent_flip_flop's lines at the same frames
// (the finding holds through the load and clears when the flip-flops stop), where it
// wrote "no misconfiguration" at the load's frame and the finding again a few thinks
// later while the counts (Think.IntentFlips, IntentBack, IntentSum and the Decision's
// records of the flips) were not saved; and the state hashes agree. A file without
// them (written before they were saved) still loads.
func TestIntentFlipFlopSurvivesSaveLoad(t *testing.T) {
	const n, m = 60 * 15, 60 * 20
	tree := dithering(t)
	world := arche.NewWorld()
	w := &world
	var straight strings.Builder
	st, s := ditherWorld(t, w, tree, true, &straight)
	s.Run(w, n)
	require.Contains(t, straight.String(), "intent_flip_flop 3", "the flip-flops are reported before the save")
	data, err := save.Save(w, nil, st...)
	require.NoError(t, err)
	before := straight.String()
	s.Run(w, m)
	require.NotContains(t, systems.Diagnose(w).String(), "intent_flip_flop", "the flip-flops stopped")

	load := func(data []byte) (string, uint64) {
		lw := arche.NewWorld()
		l, err := save.LoadInto(data, save.Registry{Trees: []*bt.Tree{tree}}, &lw)
		require.NoError(t, err)
		var out strings.Builder
		st2, s2 := ditherWorld(t, l.World, tree, false, &out)
		require.NoError(t, l.Restore(st2...))
		s2.Run(l.World, m)
		return out.String(), systems.StateHash(l.World)
	}
	loaded, hash := load(data)
	require.Equal(t, straight.String(), before+loaded, "Diagnostics lines after the load")
	require.Equal(t, systems.StateHash(w), hash)

	require.Contains(t, string(data), `"intent_flips"`)
	require.Contains(t, string(data), `"IntentSum"`)
	old := strings.NewReplacer(`"IntentFlips":`, `"x":`, `"IntentBack":`, `"x":`, `"IntentSum":`, `"x":`).Replace(string(data))
	old = intentFields.ReplaceAllString(old, "")
	old = flipRecords.ReplaceAllString(old, "")
	require.NotContains(t, old, `"x":`)
	require.NotContains(t, old, "intent_flips")
	_, _ = load([]byte(old))
}

// intentFields and flipRecords match the flip counts in a save (the Think fields,
// renamed "x" first, and the decision system's records), to write the file a save
// made before they were saved would be.
var (
	intentFields = regexp.MustCompile(`,?"x":[0-9]+`)
	flipRecords  = regexp.MustCompile(`,"intent_flips":\[(\{"entity":\[[0-9,]+\][^{}]*"keys":\[(\{[^{}]*\},?)+\]\},?)*\]`)
)
