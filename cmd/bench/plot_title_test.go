package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestPlotTitleNamesTheMapFile: a panel of runs on a -map file names the file (its
// base name) in the title, which said only "guards, 2 workers, 60 frames, seed 1";
// a generated map, whose side grows with the agents, and runs on different maps are
// left out.
func TestPlotTitleNamesTheMapFile(t *testing.T) {
	on := func(m string, agents int) *report {
		return &report{Scenario: "guards", Map: m, Agents: agents, Workers: 2, Frames: 60, Seed: 1}
	}
	assert.Equal(t, "guards on arena.map, 2 workers, 60 frames, seed 1", panelTitle([]*report{on("arena.map 49x49", 10)}))
	assert.Equal(t, "guards on arena.map, 2 workers, 60 frames, seed 1", panelTitle([]*report{on("arena.map 49x49", 10), on("arena.map 49x49", 20)}))
	assert.Equal(t, "guards on my map.map, 2 workers, 60 frames, seed 1", panelTitle([]*report{on("my map.map 16x16", 10)}))
	assert.Equal(t, "guards, 2 workers, 60 frames, seed 1", panelTitle([]*report{on("generated 256x256 (seed 1)", 10)}))
	assert.Equal(t, "guards, 2 workers, 60 frames, seed 1", panelTitle([]*report{on("", 10)}), "a report from before the map was recorded")
	assert.Equal(t, "guards, 2 workers, 60 frames, seed 1", panelTitle([]*report{on("a.map 16x16", 10), on("b.map 16x16", 20)}))
}

// TestPlotLegendInsideTheAxes: the legend is drawn inside the data area, right of the
// y axis' line and below its top: gonum/plot put a top-left legend in the area beside
// the axes before their padding, over the axis line and above its top.
func TestPlotLegendInsideTheAxes(t *testing.T) {
	rs := []*report{goodReport(100, 2), goodReport(1000, 2)}
	p, err := panel(rs, panelTitle(rs))
	require.NoError(t, err)
	rec := &recorder.Canvas{}
	c := draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: 6 * vg.Inch, Y: 5 * vg.Inch}}}
	drawPanel(p, c)
	data := p.DataCanvas(c)
	found := false
	for _, a := range rec.Actions {
		s, ok := a.(*recorder.FillString)
		if !ok || s.String != "frame (median)" {
			continue
		}
		found = true
		icon := s.Point.X - p.Legend.ThumbnailWidth - p.Legend.TextStyle.Rectangle(" ").Max.X // where the entry's line starts
		assert.Greater(t, float64(icon), float64(data.Min.X), "the legend right of the y axis' line")
		assert.Less(t, float64(s.Point.Y+s.Size), float64(data.Max.Y), "the legend's first entry below the y axis' top")
	}
	assert.True(t, found, "the legend's first entry was drawn")
}
