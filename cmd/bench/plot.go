package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// plotMinShare is the smallest share of the frame (at the largest crowd) a
// system needs for a line of its own; the others are summed into one line.
const plotMinShare = 0.03

// writePlot draws ms per frame against the number of agents on log axes, a
// panel per scenario and worker count: a line for the median frame time, one
// for each system's mean (those under plotMinShare of the frame summed as
// "other systems"), and the tutorial-style frame time of -tutorial runs, to
// a PNG file. It returns an error for more than maxPlotPanels panels (harden.go).
func writePlot(file string, reps []*report) error {
	if len(reps) == 0 {
		return fmt.Errorf("-plot %s: no runs to draw", file)
	}
	if !strings.EqualFold(filepath.Ext(file), ".png") {
		return fmt.Errorf("-plot %s: want a .png file", file)
	}
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
	if err := checkPanels(file, len(groups)); err != nil { // harden.go
		return err
	}
	var panels []*plot.Plot
	for _, g := range groups {
		var rs []*report
		for _, r := range reps {
			if r.Scenario == g.scenario && r.Workers == g.workers {
				rs = append(rs, r)
			}
		}
		p, err := panel(rs, panelTitle(rs))
		if err != nil {
			return fmt.Errorf("-plot %s: %w", file, err)
		}
		panels = append(panels, p)
	}
	const panelW, h = 6 * vg.Inch, 5 * vg.Inch
	img := vgimg.New(vg.Length(len(panels))*panelW, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2}
	canvases := plot.Align([][]*plot.Plot{panels}, tiles, dc)
	for i, p := range panels {
		p.Draw(canvases[0][i])
	}
	return writeFile(file, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}

// panelTitle is the title of the panel of rs (one scenario and worker count): the
// scenario, workers, frames and seed, and "with debugview" when a run had the live
// debugger's system (-debugview off or on: its frame times include the viewer's).
func panelTitle(rs []*report) string {
	title := fmt.Sprintf("%s, %s, %d frames, seed %d", rs[0].Scenario, plural(rs[0].Workers, "worker"), rs[0].Frames, rs[0].Seed)
	for _, r := range rs {
		if _, ok := r.Systems[debugviewSystem]; ok {
			return title + ", with debugview"
		}
	}
	return title
}

// panel is the plot of one scenario and worker count, rs in agent order.
func panel(rs []*report, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "agents"
	p.Y.Label.Text = "wall-clock ms per frame"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var ticks []plot.Tick
	for _, r := range rs {
		ticks = append(ticks, plot.Tick{Value: float64(r.Agents), Label: fmt.Sprint(r.Agents)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Legend.Top, p.Legend.Left = true, true

	last := rs[len(rs)-1]
	var own, rest []string
	for _, name := range systemNames(rs) {
		if last.MsMean > 0 && last.Systems[name] >= plotMinShare*last.MsMean {
			own = append(own, name)
		} else {
			rest = append(rest, name)
		}
	}
	lo, hi := math.Inf(1), 0.0
	xy := func(ms func(r *report) float64) plotter.XYs {
		out := make(plotter.XYs, 0, len(rs))
		for _, r := range rs {
			v := ms(r)
			if v <= 0 {
				continue // nothing to draw on a log axis
			}
			lo, hi = min(lo, v), max(hi, v)
			out = append(out, plotter.XY{X: float64(r.Agents), Y: v})
		}
		return out
	}
	lines := []any{"frame (median)", xy(func(r *report) float64 { return r.MsMedian })}
	if slices.ContainsFunc(rs, func(r *report) bool { return r.Tutorial != nil }) {
		lines = append(lines, "tutorial-style frame (median)", xy(func(r *report) float64 {
			if r.Tutorial == nil {
				return 0
			}
			return r.Tutorial.MsMedian
		}))
	}
	for _, name := range own {
		lines = append(lines, name+" (mean)", xy(func(r *report) float64 { return r.Systems[name] }))
	}
	if len(rest) > 0 {
		lines = append(lines, "other systems (mean)", xy(func(r *report) float64 {
			s := 0.0
			for _, n := range rest {
				s += r.Systems[n]
			}
			return s
		}))
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	if hi > 0 {
		// room for the legend above the lines: the data take the lower
		// two thirds of the axis
		decades := math.Max(math.Log10(hi/lo), 1)
		p.Y.Min, p.Y.Max = lo/2, hi*math.Pow(10, decades/2)
	}
	if len(rs) == 1 {
		x := float64(rs[0].Agents)
		p.X.Min, p.X.Max = x/2, x*2
	}
	return p, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
