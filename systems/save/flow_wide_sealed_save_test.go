package save_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// sealedWideWorld is a 30×20 grid split by a wall at x 15 with one 1-cell gap at
// y 10, and (spawn: a loaded world has them from the file) a follower of radius
// 1 and one of radius 0.3 west of it heading for (27, 10): the wide one is sealed
// off (flow_follower_wide), the point one goes through.
func sealedWideWorld(t *testing.T, w *arche.World, spawn bool) (*systems.FlowField, *ecs.Scheduler) {
	t.Helper()
	g := grid.New(30, 20)
	for y := int32(0); y < 20; y++ {
		if y != 10 {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	if spawn {
		goal := grid.Cell{X: 27, Y: 10}
		for _, a := range []struct {
			r   float64
			pos r2.Vec
		}{{1, r2.Vec{X: 3.5, Y: 10.5}}, {1, r2.Vec{X: 5.5, Y: 4.5}}, {0.3, r2.Vec{X: 3.5, Y: 14.5}}} {
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: a.r}})
			require.NoError(t, err)
			sp.Spawn(a.pos, nil)
		}
	}
	ff := &systems.FlowField{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, ff,
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1})
	require.NoError(t, s.InitializeChecked(w))
	return ff, s
}

// TestFlowWideSealedSurvivesSaveAndLoad: FlowField's list of wide followers with no
// route wide enough (Diagnose's flow_follower_wide) was rebuilt at each Update and
// not saved, so Diagnose right after a load (before any frame) missed them. It is
// now in the FlowField's state: Diagnose right after the load, and at every frame
// after it, equals the unbroken run's.
func TestFlowWideSealedSurvivesSaveAndLoad(t *testing.T) {
	world := arche.NewWorld()
	ff, s := sealedWideWorld(t, &world, true)
	for range 120 {
		s.Update(&world)
	}
	before := systems.Diagnose(&world)
	require.Equal(t, 2, before.Counts[systems.CauseFlowFollowerWide], "%s", before)
	data, err := save.Save(&world, nil, ff)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	ff2, s2 := sealedWideWorld(t, l.World, false)
	require.NoError(t, l.Restore(ff2))
	after := systems.Diagnose(l.World)
	assert.Equal(t, before.String(), after.String(), "Diagnose right after the load")
	assert.Equal(t, before.Examples[systems.CauseFlowFollowerWide], after.Examples[systems.CauseFlowFollowerWide])
	for f := range 30 {
		s.Update(&world)
		s2.Update(l.World)
		require.Equal(t, systems.Diagnose(&world).String(), systems.Diagnose(l.World).String(), "frame %d after the load", f)
	}
	assert.Equal(t, systems.StateHash(&world), systems.StateHash(l.World))
}

// TestFlowWideSealedStateRefused: a FlowField state whose wide_sealed names the zero
// entity, one past the world's pool, or one twice (or out of ID order) is refused
// with ErrOutOfDomain, the list kept as it was; a file written before the list was
// saved loads with none.
func TestFlowWideSealedStateRefused(t *testing.T) {
	world := arche.NewWorld()
	ff, s := sealedWideWorld(t, &world, true)
	for range 120 {
		s.Update(&world)
	}
	raw, err := ff.SaveState()
	require.NoError(t, err)
	require.Contains(t, string(raw), `"wide_sealed":[`)
	i := strings.Index(string(raw), `"wide_sealed":[`) + len(`"wide_sealed":[`)
	for _, bad := range []string{`[0,0],`, `[9999,0],`, `[1,0],[1,0],`} {
		edited := string(raw[:i]) + bad + string(raw[i:])
		err := ff.LoadState([]byte(edited))
		require.ErrorIs(t, err, systems.ErrOutOfDomain, bad)
		assert.Contains(t, err.Error(), "wide_sealed", bad)
		assert.Equal(t, 2, systems.Diagnose(&world).Counts[systems.CauseFlowFollowerWide], bad)
	}
	old := strings.Replace(string(raw), string(raw[i-len(`"wide_sealed":[`)-1:strings.Index(string(raw[i:]), "]]")+i+2]), "", 1)
	require.NotContains(t, old, "wide_sealed")
	require.NoError(t, ff.LoadState([]byte(old)))
	assert.Zero(t, systems.Diagnose(&world).Counts[systems.CauseFlowFollowerWide], "no list: none until the next Update")
	s.Update(&world)
	assert.Equal(t, 2, systems.Diagnose(&world).Counts[systems.CauseFlowFollowerWide])
}

// TestFlowWideSealedRefusedInSectorMode: sector mode serves wide followers as point
// agents and lists none sealed off: a state listing some is refused.
func TestFlowWideSealedRefusedInSectorMode(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	ff := &systems.FlowField{Sectors: 8, Workers: 1}
	s := ecs.NewScheduler(ff)
	require.NoError(t, s.InitializeChecked(w))
	s.Update(w)
	raw, err := ff.SaveState()
	require.NoError(t, err)
	require.NoError(t, ff.LoadState(raw))
	bad := strings.Replace(string(raw), `{`, `{"wide_sealed":[[1,0]],`, 1)
	err = ff.LoadState([]byte(bad))
	require.ErrorIs(t, err, systems.ErrOutOfDomain)
	assert.Contains(t, err.Error(), "sector mode")
}
