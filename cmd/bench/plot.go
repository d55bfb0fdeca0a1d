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
		drawPanel(p, canvases[0][i])
	}
	return writeFile(file, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}

// drawPanel draws p on c with its legend inside the data area, just inside the axes'
// corner: gonum/plot draws a legend in the area beside the axes before their padding,
// so a top-left legend covered the y axis' line and rose above its top.
func drawPanel(p *plot.Plot, c draw.Canvas) {
	legend := p.Legend
	p.Legend = plot.NewLegend()
	p.Draw(c)
	p.Legend = legend
	legend.XOffs, legend.YOffs = 2*vg.Millimeter, -vg.Millimeter
	legend.Draw(p.DataCanvas(c))
}

// panelTitle is the title of the panel of rs (one scenario and worker count): the
// scenario, the map file's base name when every run was on one (-map; a generated
// map's side grows with the agents, so it is left out), workers, frames and seed, and
// "with debugview" when a run had the live debugger's system (-debugview off or on:
// its frame times include the viewer's).
func panelTitle(rs []*report) string {
	what := rs[0].Scenario
	if name := mapFileName(rs[0].Map); name != "" && !slices.ContainsFunc(rs, func(r *report) bool { return r.Map != rs[0].Map }) {
		what += " on " + name
	}
	title := fmt.Sprintf("%s, %s, %d frames, seed %d", what, plural(rs[0].Workers, "worker"), rs[0].Frames, rs[0].Seed)
	for _, r := range rs {
		if _, ok := r.Systems[debugviewSystem]; ok {
			return title + ", with debugview"
		}
	}
	return title
}

// mapFileName returns the file's base name of a report's map, "arena.map" for
// "arena.map 49x49" (a -map file's, see runCrowd and loadMap), or "" for a generated
// map ("generated 256x256 (seed 1)") or none (an older report's).
func mapFileName(m string) string {
	if m == "" || strings.HasPrefix(m, "generated ") {
		return ""
	}
	if i := strings.LastIndexByte(m, ' '); i > 0 {
		if w, h, ok := strings.Cut(m[i+1:], "x"); ok && isDigits(w) && isDigits(h) {
			return m[:i]
		}
	}
	return m
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
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
