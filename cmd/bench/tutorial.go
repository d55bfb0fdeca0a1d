package main

import (
	"slices"
	"time"

	"github.com/archai-go/archai/cmd/bench/tutorial"
	"github.com/archai-go/archai/nav/grid"
)

// tutorialReport is the tutorial-style run of the guards (package
// cmd/bench/tutorial) beside archai's, in -tutorial's reports. Frame times
// are wall-clock ms; the counters are per frame.
type tutorialReport struct {
	MsMedian          float64 `json:"ms_per_frame_median"`
	MsP95             float64 `json:"ms_per_frame_p95"`
	MsMean            float64 `json:"ms_per_frame_mean"`
	AllocsPerFrame    float64 `json:"allocs_per_frame"`
	ThoughtPerFrame   float64 `json:"thought_per_frame"`
	PerceivedPerFrame float64 `json:"perceived_per_frame"`
	SearchesPerFrame  float64 `json:"searches_per_frame"`
	Strikes           int     `json:"strikes"`
}

// addTutorial runs the tutorial-style guards for cfg's agents, frames, seed
// and map after archai's run rep, and records its report and the ratio of
// the medians (tutorial over archai).
func addTutorial(rep *report, cfg crowdConfig) error {
	g, err := tutorialMap(cfg)
	if err != nil {
		return err
	}
	tu, err := runTutorial(cfg, g)
	if err != nil {
		return err
	}
	rep.Tutorial = tu
	if rep.MsMedian > 0 {
		rep.RatioTutorial = tu.MsMedian / rep.MsMedian
	}
	return nil
}

// tutorialMap returns the map of cfg's archai run for the tutorial-style run: the
// -map file, the map of -map-size (it ran on the map generated for -agents, silently
// unlike archai's, and its ratio compared two maps), or nil for the map generated for
// the agents, which both build alike.
func tutorialMap(cfg crowdConfig) (*grid.Grid, error) {
	if cfg.MapFile != "" {
		return grid.LoadMap(cfg.MapFile)
	}
	g, _, err := generatedMap(cfg) // mapsize.go
	return g, err
}

// runTutorial runs the tutorial-style guards for cfg's frames on g (the
// generated map if nil).
func runTutorial(cfg crowdConfig, g *grid.Grid) (*tutorialReport, error) {
	w, err := tutorial.New(tutorial.Config{Agents: cfg.Agents, Seed: cfg.Seed, Grid: g, DT: 1.0 / 60})
	if err != nil {
		return nil, err
	}
	frameMs := make([]float64, cfg.Frames)
	meter := newFrameMeter(cfg)
	allocs0 := heapAllocs()
	for i := range cfg.Frames {
		t0 := time.Now()
		w.Step()
		frameMs[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
		meter.frame(i, frameMs[i], nil)
	}
	allocs := heapAllocs() - allocs0 - meter.excluded
	meter.progress.finishRun(cfg.Frames)
	n := float64(cfg.Frames)
	total := 0.0
	for _, ms := range frameMs {
		total += ms
	}
	slices.Sort(frameMs)
	return &tutorialReport{
		MsMedian: percentile(frameMs, 0.5), MsP95: percentile(frameMs, 0.95), MsMean: total / n,
		AllocsPerFrame:  float64(allocs) / n,
		ThoughtPerFrame: float64(w.Thought) / n, PerceivedPerFrame: float64(w.Perceived) / n,
		SearchesPerFrame: float64(w.Searches) / n, Strikes: w.Strikes,
	}, nil
}
