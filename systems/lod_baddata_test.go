package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Levels no LOD can use are a programming error at Initialize, naming the level: a NaN
// interval used to make every agent's Think.Next NaN for good (it never thought again,
// even once the level was fixed), a NaN distance froze everyone, and distances out of
// order gave the nearer band to farther agents. An interval over MaxThinkInterval is
// not refused: Diagnose counts it on the agents.
func TestLODRefusesUnusableLevels(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		levels []LODLevel
		msg    string
	}{
		{[]LODLevel{{Distance: 32, Interval: nan}}, "systems: LOD.Levels[0] is {Distance: 32, Interval: NaN}"},
		{[]LODLevel{{Distance: 32, Interval: 0.1}, {Distance: 96, Interval: inf}}, "systems: LOD.Levels[1] is {Distance: 96, Interval: +Inf}"},
		{[]LODLevel{{Distance: 32, Interval: -0.1}}, "systems: LOD.Levels[0] is {Distance: 32, Interval: -0.1}"},
		{[]LODLevel{{Distance: nan, Interval: 0.1}}, "systems: LOD.Levels[0] is {Distance: NaN, Interval: 0.1}"},
		{[]LODLevel{{Distance: -1, Interval: 0.1}}, "systems: LOD.Levels[0] is {Distance: -1, Interval: 0.1}"},
		{[]LODLevel{{Distance: 96, Interval: 0.5}, {Distance: 32, Interval: 0.1}}, "systems: LOD.Levels[1] is {Distance: 32, Interval: 0.1}"},
	} {
		w, _ := newWorld(8, 8)
		ecs.ClockOf(w)
		msg := ""
		func() {
			defer func() { msg = panicText(recover()) }()
			(&LOD{Levels: c.levels}).Initialize(w)
		}()
		assert.Contains(t, msg, c.msg, "%v", c.levels)
		assert.Contains(t, msg, "want each Distance ≥ 0 (cells, +Inf for no cut-off), not below the one before, and Interval finite and ≥ 0 (seconds, 0 for DefaultThinkInterval)")
	}
	for _, levels := range [][]LODLevel{
		{{Distance: 32, Interval: 0.1}, {Distance: 32, Interval: 0.5}, {Distance: inf, Interval: 2}},
		{{Distance: 0, Interval: 0}},
		{{Distance: 10, Interval: 500}}, // milliseconds? Diagnose's finding, not refused
	} {
		w, _ := newWorld(8, 8)
		ecs.ClockOf(w)
		assert.NotPanics(t, func() { (&LOD{Levels: levels}).Initialize(w) }, "%v", levels)
	}
}

// A focus entity whose Position turns NaN (a camera the program lost track of) used to
// make every agent's distance NaN, so every agent froze; it is left out, as if the
// entity had no Focus, and the other focus points still count. The entity itself is
// Diagnose's position_not_finite.
func TestLODLeavesOutAFocusPointThatIsNotFinite(t *testing.T) {
	w, _ := newWorld(200, 10)
	ecs.ClockOf(w)
	agents := generic.NewMap3[components.Think, components.Position, components.LOD](w)
	near := agents.New()
	_, p, _ := agents.Get(near)
	p.Vec = r2.Vec{X: 5, Y: 5}
	foci := generic.NewMap2[components.Focus, components.Position](w)
	camera := foci.New()
	_, cp := foci.Get(camera)
	cp.Vec = r2.Vec{X: math.NaN(), Y: 5}
	lod := &LOD{Levels: []LODLevel{{Distance: 32, Interval: 0.1}}, Points: []r2.Vec{{X: 0, Y: 5}, {X: math.Inf(1), Y: 0}}}
	lod.Initialize(w)
	lod.Update(w)
	th, _, l := agents.Get(near)
	require.False(t, th.Frozen, "the static point at x 0 keeps it near")
	assert.Equal(t, uint8(0), l.Level)
	assert.InDelta(t, 5, l.Distance, 1e-9)
	assert.Equal(t, []int{1, 0}, lod.Counts)
	r := Diagnose(w)
	assert.Equal(t, 1, r.Counts[CausePosition], "%s", r)
	assert.Equal(t, camera, r.Examples[CausePosition])

	// with no finite focus point left: every agent at level 0, as with none at all
	cp.Vec = r2.Vec{X: math.NaN(), Y: 5}
	lod.Points = nil
	lod.Update(w)
	th, _, l = agents.Get(near)
	assert.False(t, th.Frozen)
	assert.Equal(t, uint8(0), l.Level)
}
