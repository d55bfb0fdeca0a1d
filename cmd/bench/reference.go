package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/archai-go/archai/cmd/bench/reference"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// runReference runs the reference loop (package cmd/bench/reference) on the
// swarm's map, agents and goals for cfg's agents, seed, map file, workers and
// frames, and reports its frame times. Its report has the swarm's goal
// figures and one "system", reference.
func runReference(cfg crowdConfig) (*report, error) {
	const dt = 1.0 / 60
	if cfg.LOD || cfg.ThinkBudget > 0 {
		return nil, fmt.Errorf("-lod and -think-budget apply to the guard scenario; the reference loop does not think")
	}
	if cfg.Avoid != "" && cfg.Avoid != "separation" {
		return nil, fmt.Errorf("-avoid %s applies to the guard and swarm scenarios; the reference loop always separates with a force", cfg.Avoid)
	}
	var g *grid.Grid
	size := scenario.MapSizeFor(cfg.Agents)
	mapName := fmt.Sprintf("generated %dx%d (seed %d)", size, size, cfg.Seed)
	if cfg.MapFile != "" {
		var err error
		if g, err = loadMap(cfg.MapFile, &mapName); err != nil {
			return nil, err
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	lay, err := scenario.NewSwarmLayout(cfg.Agents, cfg.Seed, g)
	if err != nil {
		return nil, err
	}
	loop, err := reference.New(reference.Config{Grid: lay.Grid, Positions: lay.Positions, Goal: lay.Goal,
		DT: dt, Workers: workers, NextGoal: lay.NextGoal})
	if err != nil {
		return nil, err
	}
	defer loop.Close()

	meter := newFrameMeter(cfg)
	settle() // meter.go
	frameMs := make([]float64, cfg.Frames)
	if err := cfg.profile.start(); err != nil { // profile.go
		return nil, err
	}
	allocs0 := heapAllocs()
	for i := range cfg.Frames {
		t0 := time.Now()
		loop.Step()
		frameMs[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
		meter.frame(i, frameMs[i], nil)
	}
	allocs := heapAllocs() - allocs0 - meter.excluded
	if err := cfg.profile.stop(); err != nil { // profile.go
		return nil, err
	}

	rep := &report{
		Scenario: "reference", Map: mapName, Agents: cfg.Agents, Frames: cfg.Frames, DT: dt, Seed: cfg.Seed, Workers: workers,
		AllocsPerFrame: float64(allocs) / float64(cfg.Frames),
		StateHash:      fmt.Sprintf("%016x", loop.Hash()),
		GoalMoves:      loop.GoalMoves(),
	}
	total := 0.0
	for _, ms := range frameMs {
		total += ms
	}
	sorted := slices.Clone(frameMs)
	slices.Sort(sorted)
	rep.MsMedian, rep.MsP95 = percentile(sorted, 0.5), percentile(sorted, 0.95)
	rep.MsMean = total / float64(cfg.Frames)
	rep.NsPerAgentFrame = rep.MsMean * 1e6 / float64(cfg.Agents)
	meter.fill(rep, nil, nil)
	rep.Systems = map[string]float64{"reference": rep.MsMean}
	rep.systemOrder, rep.systemMs = []string{"reference"}, []float64{rep.MsMean}
	goal := lay.Grid.Center(loop.Goal())
	for _, p := range loop.Positions() {
		if r2.Norm(r2.Sub(p, goal)) <= scenario.NearGoal {
			rep.NearGoal++
		}
	}
	return rep, nil
}

// loadMap loads a MovingAI map and names it in *name.
func loadMap(file string, name *string) (*grid.Grid, error) {
	g, err := grid.LoadMap(file)
	if err != nil {
		return nil, err
	}
	*name = fmt.Sprintf("%s %dx%d", filepath.Base(file), g.Width(), g.Height())
	return g, nil
}

// addRatio runs the reference loop for rep's agents, frames, seed and
// workers (and cfg's map) after a scenario's run, and records its median
// frame time and the ratio of rep's median to it.
func addRatio(rep *report, cfg crowdConfig) error {
	cfg.LOD, cfg.ThinkBudget, cfg.Avoid = false, 0, "" // the reference loop's own work, whatever the scenario's
	cfg.Workers = rep.Workers
	cfg.profile = nil // -cpuprofile and -memprofile profile the scenario's frames, not the reference loop's
	ref, err := runReference(cfg)
	if err != nil {
		return err
	}
	rep.ReferenceMsMedian = ref.MsMedian
	if ref.MsMedian > 0 {
		rep.RatioToReference = rep.MsMedian / ref.MsMedian
	}
	return nil
}

// writeReferenceText is writeText for the reference loop.
func (r *report) writeReferenceText(w io.Writer) {
	fmt.Fprintf(w, "archai bench: reference loop (package cmd/bench/reference: the swarm's core work without Arche)\n")
	fmt.Fprintf(w, "  map      %s\n", r.Map)
	fmt.Fprintf(w, "  agents   %d, %d frames at dt = 1/%.0f s, seed %d, %d workers\n\n", r.Agents, r.Frames, 1/r.DT, r.Seed, r.Workers)
	fmt.Fprintf(w, "frame time       median %.3f ms, p95 %.3f ms, mean %.3f ms (wall clock)\n", r.MsMedian, r.MsP95, r.MsMean)
	fmt.Fprintf(w, "per agent        %.1f ns per agent per frame (mean frame / agents)\n", r.NsPerAgentFrame)
	fmt.Fprintf(w, "heap allocs      %.2f per frame\n", r.AllocsPerFrame)
	fmt.Fprintf(w, "goal             moved %d times; %d agents within %.0f cells of it at the end\n", r.GoalMoves, r.NearGoal, scenario.NearGoal)
	fmt.Fprintf(w, "\nstate hash       %s (same seed, same hash; any worker count)\n", r.StateHash)
}

// writeRatio prints the ratio line of -ratio, if there is one.
func (r *report) writeRatio(w io.Writer) {
	if r.RatioToReference > 0 {
		fmt.Fprintf(w, "ratio to reference: %.1f× (median %.3f ms against the reference loop's %.3f ms, same agents, frames, seed and workers, this run)\n",
			r.RatioToReference, r.MsMedian, r.ReferenceMsMedian)
	}
}
