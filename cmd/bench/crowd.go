package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
)

type crowdConfig struct {
	// addSystems adds systems after the scenario's (-debugview, serve.go).
	addSystems func(*arche.World, *ecs.Scheduler)

	Scenario       string // "guards" or "swarm"
	Agents, Frames int
	Seed           uint64
	MapFile        string
	MapSize        int // side of the generated map; 0: scenario.MapSizeFor(Agents) (mapsize.go)
	Sectors        int // swarm: sector side of the flow fields; 0: whole-grid; -1: by map size (mapsize.go)
	Workers        int
	LOD            bool
	ThinkBudget    int
	Avoid          string // "separation" (or "") or "orca"

	SaveFile, LoadFile string      // -save, -load (saveload.go)
	SaveAt             int         // -save-at: the frame count after which to save
	loadData           []byte      // the -load file
	loaded             *saveReport // what was loaded, and how long it took
	// Progress is the progress bar (meter.go); nil: none.
	Progress *progress
	// profile is -cpuprofile's and -memprofile's (profile.go), started and stopped
	// where the frames' timing starts and stops; nil: none.
	profile *profiles
}

// report is what a crowd run measured. The JSON keys are part of the
// command's interface. Frame and system times are wall-clock milliseconds.
type report struct {
	Scenario        string             `json:"scenario"`
	Map             string             `json:"map"`
	Agents          int                `json:"agents"`
	Frames          int                `json:"frames"`
	DT              float64            `json:"dt"`
	Seed            uint64             `json:"seed"`
	Workers         int                `json:"workers"`
	MsMedian        float64            `json:"ms_per_frame_median"`
	MsP95           float64            `json:"ms_per_frame_p95"`
	MsMean          float64            `json:"ms_per_frame_mean"`
	NsPerAgentFrame float64            `json:"ns_per_agent_frame"` // mean frame time / agents
	AllocsPerFrame  float64            `json:"allocs_per_frame"`
	Systems         map[string]float64 `json:"systems"` // mean ms per frame of each system
	StateHash       string             `json:"state_hash"`
	Frame           int64              `json:"frame"`            // frames since the start of the run (of the saved run, with -load)
	Saved           *saveReport        `json:"saved,omitempty"`  // what -save wrote
	Loaded          *saveReport        `json:"loaded,omitempty"` // what -load read (frame: where it resumed)

	// Diagnostics counts misconfigured agents per systems.Cause (by its
	// name), the larger of the counts before the first frame and after the
	// last; every cause is listed, 0 for a well set-up scenario.
	Diagnostics map[string]int `json:"diagnostics"`
	// InstalledTwice names the archai systems installed more than once
	// (systems.Report.Twice, before the first frame or after the last, in
	// Report order); [] for a well set-up scenario.
	InstalledTwice []string `json:"installed_twice"`
	// ClockFindings names the faults of the world's clock (systems.Report.ClockFault:
	// "clock_dt_over_max", "clock_dt_not_finite", "clock_dt_not_positive",
	// "clock_time_not_finite", "clock_dt_replaced", "clock_dt_written",
	// "clock_time_written"), before the first frame or after the last; [] for a
	// well set-up run. A name, never the step itself: JSON has no NaN or Inf.
	ClockFindings []string `json:"clock_findings"`
	// ScheduleOrder lists the pairs of systems in an order that works a frame
	// late (systems.Report.Order: "movement before steer"), before the first frame
	// or after the last; [] for a well set-up run.
	ScheduleOrder []string `json:"schedule_order"`

	LOD         bool   `json:"lod"`
	ThinkBudget int    `json:"think_budget"`
	Avoid       string `json:"avoid"` // local avoidance: separation or orca

	// guard scenario (left out of the swarm's and the reference's JSON, see
	// MarshalJSON; script_errors and clock_faults are in every scenario's)
	ThoughtPerFrame float64        `json:"thought_per_frame"`
	PathsServed     int64          `json:"paths_served"`
	PathsDropped    int64          `json:"paths_dropped"`
	PathsOrphaned   int64          `json:"paths_orphaned"`  // of PathsDropped: requester dead (PathQueue.TotalOrphaned)
	PathsReplaced   int64          `json:"paths_replaced"`  // of PathsDropped: replaced by the agent's newer request
	PathsCancelled  int64          `json:"paths_cancelled"` // of PathsDropped: Path no longer pending
	PathsWaiting    int            `json:"paths_waiting"`
	Strikes         int64          `json:"strikes"`
	GuardsDown      int            `json:"guards_down"`
	IntrudersDown   int            `json:"intruders_down"`
	Branches        map[string]int `json:"branches,omitempty"`
	// ScriptErrors and ClockFaults are systems.Decision's counters of the whole run:
	// scripts that failed at run time and ticks whose DT or Time counted as 0.
	ScriptErrors uint64 `json:"script_errors"`
	ClockFaults  uint64 `json:"clock_faults"`

	// swarm and reference scenarios (left out of the guards' JSON)
	GoalMoves int `json:"goal_moves"`
	NearGoal  int `json:"near_goal"`

	// -ratio: the reference loop's median frame time in the same run, and
	// MsMedian divided by it (absent without -ratio)
	ReferenceMsMedian float64 `json:"reference_ms_per_frame_median,omitempty"`
	RatioToReference  float64 `json:"ratio_to_reference,omitempty"`

	systemOrder []string
	systemMs    []float64
	diagnosed   [2]systems.Report // before the first frame, after the last

	extra // issue 15's figures (meter.go)
}

// world is what runCrowd needs of a scenario.
type world interface {
	world() *arche.World
	systems() []ecs.System
	fill(*report)
}

type guards struct{ *scenario.Guards }

func (g guards) world() *arche.World   { return g.World }
func (g guards) systems() []ecs.System { return g.Systems() }
func (g guards) fill(r *report) {
	// TotalThought counts since the run's start (the saved run's, with -load: saved
	// with the Decision's state), so over the frames since then (Frame), not the
	// frames of this process alone
	r.ThoughtPerFrame = float64(g.Decision.TotalThought) / float64(max(r.Frame, int64(r.Frames)))
	r.PathsServed, r.PathsDropped, r.PathsWaiting = g.PathQueue.TotalServed, g.PathQueue.TotalDropped, g.PathQueue.Waiting
	r.PathsOrphaned, r.PathsReplaced, r.PathsCancelled = g.PathQueue.TotalOrphaned, g.PathQueue.TotalReplaced, g.PathQueue.TotalCancelled
	r.Strikes, r.GuardsDown, r.IntrudersDown = g.Combat.TotalStrikes, g.Casualties.GuardsDown, g.Casualties.IntrudersDown
	r.ScriptErrors, r.ClockFaults = g.Decision.ScriptErrors, g.Decision.ClockFaults
	r.Branches = map[string]int{}
	for b := range scenario.NumBranches {
		r.Branches[b.String()] = int(g.Stats.Runs(b))
	}
}

type swarm struct{ *scenario.Swarm }

func (s swarm) world() *arche.World   { return s.World }
func (s swarm) systems() []ecs.System { return s.Systems() }
func (s swarm) fill(r *report)        { r.GoalMoves, r.NearGoal = s.Director.Moves, s.Director.Near }

// mapOrigin names where cfg.MapFile came from: the flag -map, or the save file's
// meta.map_file with -load.
func mapOrigin(cfg crowdConfig) string {
	if cfg.LoadFile != "" {
		return cfg.LoadFile + ": meta.map_file"
	}
	return "-map"
}

func runCrowd(cfg crowdConfig) (*report, error) {
	const dt = 1.0 / 60
	g, size, err := generatedMap(cfg)
	if err != nil {
		return nil, err
	}
	mapName := fmt.Sprintf("generated %dx%d (seed %d)", size, size, cfg.Seed)
	if cfg.MapFile != "" {
		var err error
		if g, err = grid.LoadMap(cfg.MapFile); err != nil {
			return nil, usageError{mapFileError(mapOrigin(cfg), cfg.MapFile, err)}
		}
		mapName = fmt.Sprintf("%s %dx%d", filepath.Base(cfg.MapFile), g.Width(), g.Height())
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	avoid, err := systems.ParseAvoidance(cmp.Or(cfg.Avoid, "separation"))
	if err != nil { // -avoid is checked with the flags (flagcheck.go); this is a save file's
		return nil, usageError{err}
	}
	if cfg.Scenario == "" {
		cfg.Scenario = "guards"
	}
	var sc world
	var restore func() error
	switch {
	case cfg.loadData != nil:
		t0 := time.Now()
		if sc, restore, err = resumeCrowd(cfg, g, workers, avoid, dt); err != nil {
			return nil, err
		}
		cfg.loaded = &saveReport{File: cfg.LoadFile, Frame: frameCount(sc.world()), Bytes: len(cfg.loadData),
			Ms: float64(time.Since(t0).Nanoseconds()) / 1e6}
	default:
		sc, err = newCrowd(cfg, g, workers, avoid, dt)
		if err != nil {
			return nil, err
		}
	}
	return runWorld(cfg, sc, restore, mapName, workers, avoid, dt)
}

// newCrowd builds cfg's scenario with its agents.
func newCrowd(cfg crowdConfig, g *grid.Grid, workers int, avoid systems.Avoidance, dt float64) (world, error) {
	var sc world
	switch cfg.Scenario {
	case "", "guards":
		cfg.Scenario = "guards"
		s, err := scenario.NewGuards(scenario.Config{Agents: cfg.Agents, Seed: cfg.Seed, Grid: g, DT: dt,
			Workers: workers, LOD: cfg.LOD, ThinkBudget: cfg.ThinkBudget, Avoid: avoid})
		if err != nil {
			return nil, err
		}
		sc = guards{s}
	case "swarm":
		if cfg.LOD || cfg.ThinkBudget > 0 {
			return nil, fmt.Errorf("-lod and -think-budget apply to the guard scenario; the swarm does not think")
		}
		s, err := scenario.NewSwarm(scenario.SwarmConfig{Agents: cfg.Agents, Seed: cfg.Seed, Grid: g, DT: dt, Workers: workers, Avoid: avoid})
		if err != nil {
			return nil, err
		}
		s.Flow.Sectors = sectorSide(cfg, g) // mapsize.go
		sc = swarm{s}
	default:
		return nil, fmt.Errorf("unknown scenario %q (guards or swarm)", cfg.Scenario)
	}
	return sc, nil
}

// runWorld runs the scenario sc (restoring its systems' saved state first if restore
// is not nil) and reports.
func runWorld(cfg crowdConfig, sc world, restore func() error, mapName string, workers int, avoid systems.Avoidance, dt float64) (*report, error) {
	w := sc.world()
	sched := ecs.NewScheduler(sc.systems()...)
	if cfg.addSystems != nil {
		cfg.addSystems(w, sched)
	}
	if err := sched.InitializeChecked(w); err != nil { // a fault of setup (*ecs.SetupError): one line, exit 1
		return nil, err
	}
	if restore != nil {
		if err := restore(); err != nil {
			sched.Finalize(w)
			return nil, fmt.Errorf("%s: %w", cfg.LoadFile, err)
		}
	}
	start := frameCount(w)
	if cfg.SaveFile != "" && (int64(cfg.SaveAt) <= start || int64(cfg.SaveAt) > start+int64(cfg.Frames)) { // saveload.go
		sched.Finalize(w)
		return nil, usageError{fmt.Errorf("-save-at %d is out of range: it counts frames since the start of the saved run, which resumes after frame %d for -frames %d more: %d to %d",
			cfg.SaveAt, start, cfg.Frames, start+1, start+int64(cfg.Frames))}
	}
	before := systems.Diagnose(w) // not timed, nor counted in the allocations

	meter := newFrameMeter(cfg)
	settle() // meter.go
	frameMs := make([]float64, cfg.Frames)
	var saved *saveReport
	if err := cfg.profile.start(); err != nil { // profile.go; before allocs0, so its own objects are not counted
		sched.Finalize(w)
		return nil, err
	}
	allocs0 := heapAllocs()
	for i := range cfg.Frames {
		t0 := time.Now()
		sched.Update(w)
		frameMs[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
		if cfg.SaveFile != "" && frameCount(w) == int64(cfg.SaveAt) { // not timed, nor counted in the allocations
			saved = &saveReport{}
			n, err := saveCrowd(cfg, sc, dt, saved)
			if err != nil {
				return nil, fmt.Errorf("-save: %w", err)
			}
			meter.exclude(i, n)
		}
		meter.frame(i, frameMs[i], sc)
	}
	allocs := heapAllocs() - allocs0 - meter.excluded
	if err := cfg.profile.stop(); err != nil { // profile.go; the world is still live for the heap profile
		sched.Finalize(w)
		return nil, err
	}
	sched.Finalize(w)

	rep := &report{
		Scenario: cfg.Scenario, Map: mapName, Agents: cfg.Agents, Frames: cfg.Frames, DT: dt, Seed: cfg.Seed, Workers: workers,
		LOD: cfg.LOD, ThinkBudget: cfg.ThinkBudget, Avoid: avoid.String(),
		AllocsPerFrame: float64(allocs) / float64(cfg.Frames),
		Systems:        map[string]float64{},
		StateHash:      fmt.Sprintf("%016x", systems.StateHash(w)),
		Frame:          frameCount(w),
		Saved:          saved,
		Loaded:         cfg.loaded,
		diagnosed:      [2]systems.Report{before, systems.Diagnose(w)},
	}
	rep.Diagnostics, rep.InstalledTwice, rep.ClockFindings, rep.ScheduleOrder = diagnosticsJSON(before, rep.diagnosed[1])
	total := 0.0
	for _, ms := range frameMs {
		total += ms
	}
	sorted := slices.Clone(frameMs)
	slices.Sort(sorted)
	rep.MsMedian = percentile(sorted, 0.5)
	rep.MsP95 = percentile(sorted, 0.95)
	rep.MsMean = total / float64(cfg.Frames)
	rep.NsPerAgentFrame = rep.MsMean * 1e6 / float64(cfg.Agents)
	for _, st := range sched.Times() {
		ms := float64(st.Total.Nanoseconds()) / 1e6 / float64(cfg.Frames)
		rep.Systems[st.Name] = ms
		rep.systemOrder = append(rep.systemOrder, st.Name)
		rep.systemMs = append(rep.systemMs, ms)
	}
	sc.fill(rep)
	meter.fill(rep, sc, w)
	return rep, nil
}

// percentile of sorted values, nearest rank.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(p*float64(len(sorted)))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// heapAllocs returns the number of heap objects allocated so far, exactly
// (mallocs in meter.go).
func heapAllocs() uint64 { return mallocs() }

func (r *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *report) writeText(w io.Writer) {
	if r.Scenario == "reference" {
		r.writeReferenceText(w)
		return
	}
	fmt.Fprintf(w, "archai bench: %s scenario\n", r.Scenario)
	fmt.Fprintf(w, "  map      %s\n", r.Map)
	fmt.Fprintf(w, "  agents   %d, %d frames at dt = 1/%.0f s, seed %d, %d workers", r.Agents, r.Frames, 1/r.DT, r.Seed, r.Workers)
	if r.LOD {
		fmt.Fprintf(w, ", level of detail")
	}
	if r.ThinkBudget > 0 {
		fmt.Fprintf(w, ", at most %d decisions per frame", r.ThinkBudget)
	}
	if r.Avoid != "" && r.Avoid != "separation" {
		fmt.Fprintf(w, ", %s avoidance", r.Avoid)
	}
	fmt.Fprintf(w, "\n\n")
	fmt.Fprintf(w, "frame time       median %.3f ms, p95 %.3f ms, mean %.3f ms (wall clock)\n", r.MsMedian, r.MsP95, r.MsMean)
	fmt.Fprintf(w, "per agent        %.1f ns per agent per frame (mean frame / agents)\n", r.NsPerAgentFrame)
	note := "warm-up buffer growth; frames allocate nothing once warm"
	if r.Scenario == "guards" {
		note = "warm-up buffer growth; once warm a frame allocates nothing, replacement intruders included"
	}
	fmt.Fprintf(w, "heap allocs      %.2f per frame (%s)\n", r.AllocsPerFrame, note)
	if r.Scenario == "guards" {
		fmt.Fprintf(w, "decisions        %.1f agents thought per frame (%.1f%% of agents)\n", r.ThoughtPerFrame, 100*r.ThoughtPerFrame/float64(r.Agents))
		fmt.Fprintf(w, "paths            %d served, %d dropped (%d orphaned: requester dead; %d replaced by a newer request; %d cancelled), %d waiting at the end\n",
			r.PathsServed, r.PathsDropped, r.PathsOrphaned, r.PathsReplaced, r.PathsCancelled, r.PathsWaiting)
		fmt.Fprintf(w, "combat           %d strikes, %d guards down (carried home), %d intruders down (replaced)\n", r.Strikes, r.GuardsDown, r.IntrudersDown)
	} else {
		fmt.Fprintf(w, "goal             moved %d times; %d agents within %.0f cells of it at the end\n", r.GoalMoves, r.NearGoal, scenario.NearGoal)
	}
	sum := 0.0
	for _, ms := range r.systemMs {
		sum += ms
	}
	fmt.Fprintf(w, "\nsystems (mean ms per frame, share of system time)\n")
	for i, name := range r.systemOrder {
		ms := r.systemMs[i]
		share := 0.0
		if sum > 0 {
			share = 100 * ms / sum
		}
		fmt.Fprintf(w, "  %-12s %8.3f ms %5.1f%%  %s\n", name, ms, share, strings.Repeat("#", int(share/2.5+0.5)))
	}
	if r.Scenario == "guards" {
		since := ""
		if r.Loaded != nil { // the scenario's Stats are not saved
			since = ", since the load"
		}
		fmt.Fprintf(w, "\nbranches run (leaf ticks per behavior-tree branch%s)\n", since)
		for b := range scenario.NumBranches {
			fmt.Fprintf(w, "  %-16s %d\n", b.String(), r.Branches[b.String()])
		}
	}
	fmt.Fprintf(w, "\nstate hash       %s (same seed, same hash; any worker count)\n", r.StateHash)
	r.writeSaved(w)
	r.writeDiagnostics(w)
	if r.Scenario == "guards" {
		fmt.Fprintf(w, "tree faults      %d script errors, %d clock faults (systems.Decision, all frames)\n", r.ScriptErrors, r.ClockFaults)
	}
}

// writeDiagnostics prints the diagnostics line: systems.Diagnose before the
// first frame and after the last.
func (r *report) writeDiagnostics(w io.Writer) {
	before, after := r.diagnosed[0], r.diagnosed[1]
	if before.Total() == 0 && after.Total() == 0 {
		fmt.Fprintf(w, "diagnostics      no misconfigured agent (systems.Diagnose before the first frame and after the last)\n")
		return
	}
	fmt.Fprintf(w, "diagnostics      before the first frame: %s\n", before)
	fmt.Fprintf(w, "                 after the last frame:   %s\n", after)
}
