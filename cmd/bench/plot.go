package main

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plotFloor is the smallest ms drawn on the log axis: a system that took
// less (or nothing) is drawn there.
const plotFloor = 1e-4

// writePlot draws ms per frame against the number of agents, on log axes:
// a line for the median frame time and one for each system's mean, per
// scenario and worker count, to file (PNG, SVG or PDF by its extension).
func writePlot(file string, reps []*report) error {
	if len(reps) == 0 {
		return fmt.Errorf("-plot %s: no runs to draw", file)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("archai bench: ms per frame (%d frames, seed %d)", reps[0].Frames, reps[0].Seed)
	p.X.Label.Text = "agents"
	p.Y.Label.Text = "wall-clock ms per frame (median frame; mean per system)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true

	type key struct {
		scenario string
		workers  int
	}
	var groups []key
	for _, r := range reps {
		if k := (key{r.Scenario, r.Workers}); !slices.Contains(groups, k) {
			groups = append(groups, k)
		}
	}
	var lines []any
	for _, g := range groups {
		var rs []*report
		for _, r := range reps {
			if r.Scenario == g.scenario && r.Workers == g.workers {
				rs = append(rs, r)
			}
		}
		suffix := ""
		if len(groups) > 1 {
			suffix = fmt.Sprintf(" (%s, %d workers)", g.scenario, g.workers)
		}
		frame := make(plotter.XYs, len(rs))
		for i, r := range rs {
			frame[i] = plotter.XY{X: float64(r.Agents), Y: max(r.MsMedian, plotFloor)}
		}
		lines = append(lines, "frame"+suffix, frame)
		for _, name := range systemNames(rs) {
			xy := make(plotter.XYs, 0, len(rs))
			for _, r := range rs {
				if ms, ok := r.Systems[name]; ok {
					xy = append(xy, plotter.XY{X: float64(r.Agents), Y: max(ms, plotFloor)})
				}
			}
			lines = append(lines, name+suffix, xy)
		}
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return fmt.Errorf("-plot %s: %w", file, err)
	}
	if err := p.Save(8*vg.Inch, 6*vg.Inch, file); err != nil {
		return fmt.Errorf("-plot %s: %w", file, err)
	}
	return nil
}
