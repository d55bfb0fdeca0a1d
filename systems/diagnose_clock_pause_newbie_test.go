package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer paused the game the way many engines do, with the clock system's DT
// set to 0 between frames: the ClockSystem stepped 1/60 s instead (as documented),
// so the agents walked on through the "pause", and Diagnose, checking every frame,
// said nothing: only a step replaced at Initialize was reported. A step replaced in
// an Update is now clock_dt_replaced as long as the ClockSystem's DT is rejected
// (the report hints to skip Update to pause), and no longer once a usable DT is set
// again. (A step Initialize would have replaced is a setup error now.)
func TestAClockStepReplacedBetweenFramesIsReported(t *testing.T) {
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 16))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 2.5, Y: 8.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 60.5, Y: 8.5}) })
		clock := ecs.NewClockSystem(1.0 / 60)
		diag := &systems.Diagnostics{Every: 1}
		s := ecs.NewScheduler(clock, &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
			&systems.Steer{}, &systems.Movement{}, diag)
		require.NoError(t, s.InitializeChecked(w))
		pos := generic.NewMap[components.Position](w)
		s.Run(w, 60)
		assert.Equal(t, systems.ClockUsable, diag.Report.ClockFault)
		x0 := pos.Get(e).X

		clock.DT = bad // "pause"
		s.Run(w, 30)
		assert.InDelta(t, 2.0, pos.Get(e).X-x0, 0.01, "dt %v: each frame stepped 1/60 s at 4 cells/s (documented)", bad)
		given, replaced := ecs.ReplacedDT(w)
		assert.True(t, replaced, "dt %v", bad)
		assert.Equal(t, math.Float64bits(bad), math.Float64bits(given))
		assert.Equal(t, systems.ClockDTReplaced, diag.Report.ClockFault, "dt %v: %s", bad, diag.Report)
		assert.Equal(t, 1, diag.Report.Total(), "%s", diag.Report)
		if bad == 0 {
			assert.Contains(t, diag.Report.String(), "to pause, skip Update")
		}

		clock.DT = 1.0 / 30 // resumed, at another step
		s.Run(w, 2)
		_, replaced = ecs.ReplacedDT(w)
		assert.False(t, replaced, "dt %v: a usable step again", bad)
		assert.Equal(t, systems.ClockUsable, diag.Report.ClockFault, "%s", diag.Report)
		s.Finalize(w)
	}
}
