package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/ecs"
)

// Checks of run settings from flags and save files (-agents, -sweep, -think-budget,
// a save's meta) that would otherwise panic or overflow later, each an error naming
// the flag or the file.

// checkCrowd returns an error for settings of cfg (after -load has filled it from the
// file's meta) that no run can use: a crowd whose generated map would exceed
// grid.MaxCells (more than scenario.MaxAgents agents with neither -map nor -map-size;
// also each count of sweep, the -sweep list), more than scenario.MaxAgents agents on
// any map, more than maxFrames frames, more than ecs.MaxWorkers workers, or a negative
// -think-budget. The last three used to run out of memory: a time kept per frame, a
// goroutine per worker, the agents on a map of -map-size. -lod or -think-budget with
// the swarm, which does not think, is refused here too (a usage error, exit 2).
func checkCrowd(cfg crowdConfig, sweep string) error {
	where := func(flag string) string {
		if cfg.LoadFile != "" {
			return cfg.LoadFile + ": meta." + flag
		}
		return "-" + flag
	}
	if cfg.ThinkBudget < 0 {
		return fmt.Errorf("%s %d: want 0 (no budget) or a positive number of agents per frame", where("think-budget"), cfg.ThinkBudget)
	}
	if cfg.Scenario == "swarm" && (cfg.LOD || cfg.ThinkBudget > 0) { // newCrowd refuses it too, once the run is under way
		return fmt.Errorf("-lod and -think-budget apply to the guard scenario; the swarm does not think")
	}
	if cfg.Frames > maxFrames {
		return fmt.Errorf("-frames %d: at most %d (the run keeps every frame's time for the median)", cfg.Frames, maxFrames)
	}
	if cfg.Workers > ecs.MaxWorkers {
		return fmt.Errorf("%s %d: at most %d goroutines (ecs.MaxWorkers), or 0 for GOMAXPROCS", where("workers"), cfg.Workers, ecs.MaxWorkers)
	}
	counts := []int{cfg.Agents}
	if sweep != "" {
		list, err := parseCounts("-sweep", sweep, cfg.Agents)
		if err != nil {
			return nil // parseCounts' own error is reported where the sweep runs
		}
		counts = list
	}
	flag := where("agents")
	if sweep != "" {
		flag = "-sweep"
	}
	for _, n := range counts {
		if cfg.MapFile != "" || cfg.MapSize != 0 { // the map does not grow with the crowd
			if n > scenario.MaxAgents {
				return fmt.Errorf("%s: %d agents: at most %d agents in a run", flag, n, scenario.MaxAgents)
			}
			continue
		}
		if err := scenario.CheckAgents(n); err != nil {
			return fmt.Errorf("%s: %w (or give -map or -map-size)", flag, err)
		}
	}
	return nil
}

// maxFrames bounds -frames: a run keeps each frame's time (8 bytes) for the median
// and p95, so 10⁷ frames take 80 MB (and hours at 10,000 agents).
const maxFrames = 10_000_000

// Bounds of a merged report's values (-merge): a run's frame lasts from a nanosecond
// to 1000 s, at most 10⁹ agents on at most 65,536 workers. Values outside cannot come
// from a run and would break the plot's log axes (1e300 ms overflowed them).
const (
	reportMinMs      = 1e-6
	reportMaxMs      = 1e6
	reportMaxAgents  = 1_000_000_000
	reportMaxWorkers = 1 << 16
)

// maxPlotPanels is the most panels -plot draws (one per scenario and worker count,
// 6 inches wide each): more is an error asking for fewer worker counts.
const maxPlotPanels = 16

// checkReport returns an error naming the field of r whose value no run can report:
// a frame time (median, p95, mean, a system's mean, the tutorial-style run's) that is
// not finite or is outside reportMinMs..reportMaxMs (0 is allowed: nothing ran), agents
// past reportMaxAgents, workers outside 0..reportMaxWorkers, or a negative or non-finite
// ns_per_agent_frame or allocs_per_frame.
func checkReport(r *report) error {
	ms := func(field string, v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > reportMaxMs || (v > 0 && v < reportMinMs) {
			return fmt.Errorf("%s: %v, want 0 or %g to %g ms", field, v, reportMinMs, reportMaxMs)
		}
		return nil
	}
	nonNeg := func(field string, v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%s: %v, want a finite value >= 0", field, v)
		}
		return nil
	}
	if r.Agents > reportMaxAgents {
		return fmt.Errorf("agents: %d, want at most %d", r.Agents, reportMaxAgents)
	}
	if r.Workers < 0 || r.Workers > reportMaxWorkers {
		return fmt.Errorf("workers: %d, want 0 to %d", r.Workers, reportMaxWorkers)
	}
	errs := []error{ms("ms_per_frame_median", r.MsMedian), ms("ms_per_frame_p95", r.MsP95), ms("ms_per_frame_mean", r.MsMean),
		nonNeg("ns_per_agent_frame", r.NsPerAgentFrame), nonNeg("allocs_per_frame", r.AllocsPerFrame)}
	if r.Tutorial != nil {
		errs = append(errs, ms("tutorial.ms_per_frame_median", r.Tutorial.MsMedian), ms("tutorial.ms_per_frame_p95", r.Tutorial.MsP95),
			ms("tutorial.ms_per_frame_mean", r.Tutorial.MsMean))
	}
	names := make([]string, 0, len(r.Systems))
	for name := range r.Systems {
		names = append(names, name)
	}
	slices.Sort(names) // the first bad system, whatever the map's order
	for _, name := range names {
		errs = append(errs, ms("systems."+name, r.Systems[name]))
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// lineAt returns the 1-based line of data at offset (the first byte after any
// whitespace there), for naming a report of a JSON-lines file.
func lineAt(data []byte, offset int64) int {
	i := int(offset)
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return 1 + bytes.Count(data[:min(i, len(data))], []byte("\n"))
}

// checkPanels returns an error if a plot would have more than maxPlotPanels panels.
func checkPanels(file string, panels int) error {
	if panels > maxPlotPanels {
		return fmt.Errorf("-plot %s: %d panels (one per scenario and worker count), at most %d: merge fewer worker counts, or leave out -plot", file, panels, maxPlotPanels)
	}
	return nil
}

// checkSavedAgents returns an error if the agents a save file's meta records differ
// from the entities alive in its world (every alive entity of a bench scenario is an
// agent): the scenario would be rebuilt for one crowd (its generated map, its think
// budget) over another.
func checkSavedAgents(file string, data []byte, agents int) error {
	var f struct {
		World struct {
			World struct {
				Alive []json.RawMessage
			}
		} `json:"world"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if n := len(f.World.World.Alive); n != agents {
		return fmt.Errorf("%s: meta.agents is %d, but the world holds %d agents", file, agents, n)
	}
	return nil
}
