package save_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// towerWorld is a tower defense of the documented pattern: a tower that downs a creep
// with one strike, creeps that strike what they see, a Diagnostics checking every frame
// after Combat; the game removes the creeps Combat.Downed names between frames. With
// spawn, it spawns the agents (a loaded world has them from the file).
type towerWorld struct {
	w      *arche.World
	s      *ecs.Scheduler
	combat *systems.Combat
	diag   *systems.Diagnostics
	dec    *systems.Decision
	pq     *systems.PathQueue
	out    bytes.Buffer
}

func newTowerWorld(t *testing.T, w *arche.World, fight *bt.Tree, spawn bool) *towerWorld {
	t.Helper()
	arche.AddResource(w, grid.New(16, 16))
	if spawn {
		tower, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: fight},
			systems.Combatant{Team: 1, MaxHealth: 1e6, Damage: 50, Range: 6, Cooldown: 0.25})
		require.NoError(t, err)
		tower.Spawn(r2.Vec{X: 7.5, Y: 7.5}, nil)
		creep, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: fight},
			systems.Combatant{Team: 2, MaxHealth: 10, Range: 1})
		require.NoError(t, err)
		for i := range 6 {
			creep.Spawn(r2.Vec{X: 3.5 + float64(i), Y: 10.5}, nil)
		}
	}
	tw := &towerWorld{w: w, combat: &systems.Combat{}, dec: &systems.Decision{}, pq: &systems.PathQueue{}}
	tw.diag = &systems.Diagnostics{Every: 1, Out: &tw.out}
	tw.s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, tw.dec,
		tw.pq, tw.combat, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, tw.diag)
	require.NoError(t, tw.s.InitializeChecked(w))
	return tw
}

// removeDowned is the game's turn between frames: it removes the creeps Combat
// brought down this frame.
func (tw *towerWorld) removeDowned() {
	for _, e := range tw.combat.Downed {
		if tw.w.Alive(e) {
			tw.w.RemoveEntity(e)
		}
	}
}

func fightTree(t *testing.T) *bt.Tree {
	fight, err := bt.Compile("fight", bt.Action("Strike", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		if a.Perception.Visible {
			a.Intent.Attack = a.Perception.Target
		}
		return bt.Running
	}))
	require.NoError(t, err)
	return fight
}

// TestCombatDownedSurvivesSaveAndLoad: a world saved in a kill frame, between
// Combat's Update and the game's turn to remove the creeps it names in Downed, used to
// load with an empty Downed: the game removed nobody (the creep stayed, downed, its
// brain on), and Diagnose, which gives the agents of the frame's Downed a grace,
// counted it as downed_still_acting at once, while the unbroken run reported nothing.
// Combat's state now holds Downed, its frame and the last frame's counts: the loaded
// run hands the game the same casualties and goes on exactly as the unbroken one
// (state hash, Diagnose's and the Diagnostics' reports, their lines, Combat's counts).
func TestCombatDownedSurvivesSaveAndLoad(t *testing.T) {
	fight := fightTree(t)
	world := arche.NewWorld()
	full := newTowerWorld(t, &world, fight, true)
	saved := false
	var data []byte
	for f := 0; f < 200 && !saved; f++ {
		full.s.Update(full.w)
		if len(full.combat.Downed) > 0 && f > 30 {
			var err error
			data, err = save.Save(full.w, nil, full.states()...)
			require.NoError(t, err)
			saved = true
			break
		}
		full.removeDowned()
	}
	require.True(t, saved, "no kill frame")
	wantDowned := append([]arche.Entity(nil), full.combat.Downed...)
	require.Zero(t, systems.Diagnose(full.w).Counts[systems.CauseDownedStillActing], "the frame's casualties have their grace")

	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{fight}})
	require.NoError(t, err)
	loaded := newTowerWorld(t, l.World, fight, false)
	require.NoError(t, l.Restore(loaded.states()...))
	assert.Equal(t, wantDowned, loaded.combat.Downed, "the loaded Combat hands on the saved frame's casualties")
	assert.Equal(t, full.combat.Strikes, loaded.combat.Strikes)
	assert.Equal(t, full.combat.AttackersDown, loaded.combat.AttackersDown)
	assert.Equal(t, full.combat.Cooling, loaded.combat.Cooling)
	assert.Equal(t, systems.Diagnose(full.w).String(), systems.Diagnose(loaded.w).String(), "Diagnose right after the load")

	full.out.Reset()
	kills := 0
	for f := range 150 {
		full.removeDowned()
		loaded.removeDowned()
		full.s.Update(full.w)
		loaded.s.Update(loaded.w)
		kills += len(full.combat.Downed)
		require.Equal(t, full.combat.Downed, loaded.combat.Downed, "frame %d after the load", f)
		require.Equal(t, full.diag.Report.String(), loaded.diag.Report.String(), "frame %d after the load", f)
		require.Zero(t, full.diag.Report.Counts[systems.CauseDownedStillActing])
	}
	assert.Positive(t, kills, "kills after the load")
	assert.Equal(t, full.out.String(), loaded.out.String(), "the Diagnostics' lines after the load")
	assert.Equal(t, full.combat.TotalStrikes, loaded.combat.TotalStrikes)
	assert.Equal(t, systems.StateHash(full.w), systems.StateHash(loaded.w))
}

// states returns the world's stateful systems, for Save and Restore.
func (tw *towerWorld) states() []save.State {
	return []save.State{tw.dec, tw.pq, tw.combat, tw.diag}
}

// TestCombatStateOldFileAndBadDowned: a file written before Downed was saved loads
// with none (the documented default) and the per-frame counts at 0; a Downed naming the
// zero entity, an entity past the pool or one twice, or a frame below -1, is refused,
// leaving the Combat as it was.
func TestCombatStateOldFileAndBadDowned(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	hm := generic.NewMap1[components.Health](w)
	e := hm.NewWith(&components.Health{Current: 0, Max: 1})
	c := &systems.Combat{}
	c.Initialize(w)
	require.NoError(t, c.LoadState([]byte(`{"total_strikes":4,"no_clock":1}`)), "a file of 2026-12-05")
	assert.Empty(t, c.Downed)
	assert.Zero(t, c.Strikes)
	assert.Equal(t, int64(4), c.TotalStrikes)

	good, err := (&systems.Combat{Downed: []arche.Entity{e}, TotalStrikes: 1}).SaveState()
	require.NoError(t, err)
	require.NoError(t, c.LoadState(good))
	assert.Equal(t, []arche.Entity{e}, c.Downed)
	for _, bad := range []string{
		`{"downed":[[0,0]]}`,
		`{"downed":[[99,0]]}`,
		`{"downed":[[1,0],[1,0]]}`,
		`{"downed_frame":-2}`,
		`{"cooling":-1}`,
	} {
		err := c.LoadState([]byte(bad))
		require.ErrorIs(t, err, systems.ErrOutOfDomain, bad)
		assert.Equal(t, []arche.Entity{e}, c.Downed, "left as it was: %s", bad)
		assert.Equal(t, int64(1), c.TotalStrikes, bad)
	}
}

// TestDiagnosticsChecksSurviveSaveAndLoad: Diagnostics.Checks counts the checks since
// Initialize; a loaded Diagnostics counted them from the load (120 where the unbroken
// run had 200). It is saved now; a file without it (written before) counts from the
// load, and a negative count is refused.
func TestDiagnosticsChecksSurviveSaveAndLoad(t *testing.T) {
	fight := fightTree(t)
	world := arche.NewWorld()
	full := newTowerWorld(t, &world, fight, true)
	for range 80 {
		full.s.Update(full.w)
		full.removeDowned()
	}
	require.Equal(t, 80, full.diag.Checks)
	data, err := save.Save(full.w, nil, full.states()...)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{fight}})
	require.NoError(t, err)
	loaded := newTowerWorld(t, l.World, fight, false)
	require.NoError(t, l.Restore(loaded.states()...))
	assert.Equal(t, 80, loaded.diag.Checks, "right after the load")
	for range 120 {
		full.s.Update(full.w)
		full.removeDowned()
		loaded.s.Update(loaded.w)
		loaded.removeDowned()
	}
	assert.Equal(t, 200, full.diag.Checks)
	assert.Equal(t, full.diag.Checks, loaded.diag.Checks)
	assert.Equal(t, systems.StateHash(full.w), systems.StateHash(loaded.w))

	require.NoError(t, loaded.diag.LoadState([]byte(`{"frame":3}`)), "a file written before Checks was saved")
	assert.Zero(t, loaded.diag.Checks, "counts from the load")
	assert.ErrorIs(t, loaded.diag.LoadState([]byte(`{"frame":3,"checks":-1}`)), systems.ErrOutOfDomain)
}

// TestCombatOldFileWithoutItsState: a file written before Combat had a state (before
// 2026-12-05: its "systems" has no "combat") is not restored into a world running Combat
// in silence: Restore says the file has no state for it and how to start it afresh;
// with save.Without(combat) it loads, Combat counting from the load (TotalStrikes 0,
// Downed empty), as documented.
func TestCombatOldFileWithoutItsState(t *testing.T) {
	fight := fightTree(t)
	world := arche.NewWorld()
	full := newTowerWorld(t, &world, fight, true)
	for range 60 {
		full.s.Update(full.w)
		full.removeDowned()
	}
	require.Positive(t, full.combat.TotalStrikes)
	data, err := save.Save(full.w, nil, full.states()...)
	require.NoError(t, err)
	var f map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &f))
	var sys map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(f["systems"], &sys))
	delete(sys, "combat")
	f["systems"], err = json.Marshal(sys)
	require.NoError(t, err)
	old, err := json.Marshal(f)
	require.NoError(t, err)

	l, err := save.Load(old, save.Registry{Trees: []*bt.Tree{fight}})
	require.NoError(t, err)
	loaded := newTowerWorld(t, l.World, fight, false)
	err = l.Restore(loaded.states()...)
	require.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, `the file has no state for "combat"`)
	assert.ErrorContains(t, err, "Restore(save.Without(sys)) starts it afresh")

	l, err = save.Load(old, save.Registry{Trees: []*bt.Tree{fight}})
	require.NoError(t, err)
	loaded = newTowerWorld(t, l.World, fight, false)
	require.NoError(t, l.Restore(loaded.dec, loaded.pq, save.Without(loaded.combat), loaded.diag))
	assert.Zero(t, loaded.combat.TotalStrikes, "counts from the load")
	assert.Empty(t, loaded.combat.Downed)
	for range 30 {
		loaded.s.Update(loaded.w)
		loaded.removeDowned()
	}
	assert.Equal(t, 30, int(loaded.diag.Checks)-60, "the rest of the state restored")
}
