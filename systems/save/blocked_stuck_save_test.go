package save_test

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// corridorDeadlock sets up three agents a side walking head-on into each other in a
// corridor one cell wide (blocked_by_agents once they have stood long enough), with
// ORCA and a Diagnostics writing to out; spawn false for a world a save is loaded into.
func corridorDeadlock(t *testing.T, w *arche.World, spawn bool, workers int, out io.Writer) ([]save.State, *ecs.Scheduler) {
	g := grid.New(32, 16)
	for y := range 16 {
		for x := range 32 {
			if y != 7 || x < 2 || x >= 30 {
				g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked)
			}
		}
	}
	arche.AddResource(w, g)
	if spawn {
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Avoider{})
		require.NoError(t, err)
		for i := range 3 {
			west, east := r2.Vec{X: 3.5 + float64(i), Y: 7.5}, r2.Vec{X: 28.5 - float64(i), Y: 7.5}
			sp.Spawn(west, func(a *systems.Spawned) { a.MoveTo(east) })
			sp.Spawn(east, func(a *systems.Spawned) { a.MoveTo(west) })
		}
	}
	list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{Workers: workers}, &systems.PathQueue{},
		&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, &systems.ORCA{Workers: workers},
		&systems.Movement{Workers: workers}, &systems.Diagnostics{Out: out}}
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

// stuckFields matches the Progress fields of a run of no progress in a save, to
// write the file a save made before they were saved would be.
var stuckFields = regexp.MustCompile(`,?"Stuck(Known|Since|From)":(true|[-0-9.e+]+|\{[^}]*\})`)

// A world saved while agents stand deadlocked (Progress.Stuck for 30 s, blocked_by_agents
// already written) and loaded goes on as the unbroken run: its Diagnostics writes no
// line (the unbroken run's finding holds), where it wrote "no misconfiguration" at the
// load's frame and the finding again some 19 s later while the run's start
// (Progress.StuckSince, StuckFrom) was not saved; and the state hashes agree. A file
// without those fields (written before they were saved) still loads, and reports as
// it did.
func TestBlockedByAgentsSurvivesSaveLoad(t *testing.T) {
	const n, m = 60 * 30, 60 * 30
	for _, workers := range []int{1, 2} {
		world := arche.NewWorld()
		w := &world
		var straight strings.Builder
		st, s := corridorDeadlock(t, w, true, workers, &straight)
		s.Run(w, n)
		require.Contains(t, straight.String(), "blocked_by_agents 6", "the deadlock is reported before the save")
		data, err := save.Save(w, nil, st...)
		require.NoError(t, err)
		before := straight.String()
		s.Run(w, m)
		require.Contains(t, systems.Diagnose(w).String(), "blocked_by_agents 6")

		load := func(data []byte) (string, uint64) {
			lw := arche.NewWorld()
			l, err := save.LoadInto(data, save.Registry{}, &lw)
			require.NoError(t, err)
			var out strings.Builder
			st2, s2 := corridorDeadlock(t, l.World, false, workers, &out)
			require.NoError(t, l.Restore(st2...))
			s2.Run(l.World, m)
			return out.String(), systems.StateHash(l.World)
		}
		loaded, hash := load(data)
		require.Equal(t, straight.String(), before+loaded, "workers %d: Diagnostics lines after the load", workers)
		require.Equal(t, systems.StateHash(w), hash, "workers %d", workers)

		require.Contains(t, string(data), `"StuckSince"`)
		old := stuckFields.ReplaceAllString(string(data), "")
		require.NotContains(t, old, "StuckSince")
		loaded, _ = load([]byte(old))
		require.Contains(t, loaded, "no misconfiguration", "an old file loads as before: the run's start is found again")
		require.Contains(t, loaded, "blocked_by_agents 6")
	}
}
