package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"time"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
)

type crowdConfig struct {
	Agents, Frames int
	Seed           uint64
	MapFile        string
	Workers        int
	LOD            bool
	ThinkBudget    int
}

// report is what a crowd run measured. The JSON keys are part of the
// command's interface.
type report struct {
	Map              string             `json:"map"`
	Agents           int                `json:"agents"`
	Frames           int                `json:"frames"`
	DT               float64            `json:"dt"`
	Seed             uint64             `json:"seed"`
	Workers          int                `json:"workers"`
	MsMedian         float64            `json:"ms_per_frame_median"`
	MsP95            float64            `json:"ms_per_frame_p95"`
	NsPerAgentFrame  float64            `json:"ns_per_agent_frame"`
	AllocsPerFrame   float64            `json:"allocs_per_frame"`
	Systems          map[string]float64 `json:"systems"`
	ThoughtPerFrame  float64            `json:"thought_per_frame"`
	PathsServed      int                `json:"paths_served"`
	PathsDropped     int                `json:"paths_dropped"`
	PathsWaiting     int                `json:"paths_waiting"`
	Strikes          int                `json:"strikes"`
	GuardsDown       int                `json:"guards_down"`
	IntrudersDown    int                `json:"intruders_down"`
	Branches         map[string]int     `json:"branches"`
	StateHash        string             `json:"state_hash"`
	systemOrder      []string
	systemsPerFrameT []float64
}

func runCrowd(cfg crowdConfig) (*report, error) {
	const dt = 1.0 / 60
	var g *grid.Grid
	mapName := fmt.Sprintf("generated %dx%d (seed %d)", scenario.DefaultMapSize, scenario.DefaultMapSize, cfg.Seed)
	if cfg.MapFile != "" {
		var err error
		if g, err = grid.LoadMap(cfg.MapFile); err != nil {
			return nil, err
		}
		mapName = fmt.Sprintf("%s %dx%d", filepath.Base(cfg.MapFile), g.Width(), g.Height())
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sc, err := scenario.NewGuards(scenario.Config{Agents: cfg.Agents, Seed: cfg.Seed, Grid: g, DT: dt,
		Workers: workers, LOD: cfg.LOD, ThinkBudget: cfg.ThinkBudget})
	if err != nil {
		return nil, err
	}
	sched := ecs.NewScheduler(sc.Systems()...)
	sched.Initialize(sc.World)

	runtime.GC()
	frameMs := make([]float64, cfg.Frames)
	allocs0 := heapAllocs()
	for i := range cfg.Frames {
		t0 := time.Now()
		sched.Update(sc.World)
		frameMs[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	allocs := heapAllocs() - allocs0
	sched.Finalize(sc.World)

	rep := &report{
		Map: mapName, Agents: cfg.Agents, Frames: cfg.Frames, DT: dt, Seed: cfg.Seed, Workers: workers,
		AllocsPerFrame:  float64(allocs) / float64(cfg.Frames),
		Systems:         map[string]float64{},
		ThoughtPerFrame: float64(sc.Decision.TotalThought) / float64(cfg.Frames),
		PathsServed:     sc.PathQueue.TotalServed,
		PathsDropped:    sc.PathQueue.TotalDropped,
		PathsWaiting:    sc.PathQueue.Waiting,
		Strikes:         sc.Combat.TotalStrikes,
		GuardsDown:      sc.Casualties.GuardsDown,
		IntrudersDown:   sc.Casualties.IntrudersDown,
		Branches:        map[string]int{},
		StateHash:       fmt.Sprintf("%016x", systems.StateHash(sc.World)),
	}
	total := 0.0
	for _, ms := range frameMs {
		total += ms
	}
	sorted := slices.Clone(frameMs)
	slices.Sort(sorted)
	rep.MsMedian = percentile(sorted, 0.5)
	rep.MsP95 = percentile(sorted, 0.95)
	rep.NsPerAgentFrame = total * 1e6 / float64(cfg.Frames) / float64(cfg.Agents)
	for _, st := range sched.Times() {
		ms := float64(st.Total.Nanoseconds()) / 1e6 / float64(cfg.Frames)
		rep.Systems[st.Name] = ms
		rep.systemOrder = append(rep.systemOrder, st.Name)
		rep.systemsPerFrameT = append(rep.systemsPerFrameT, ms)
	}
	for b := range scenario.NumBranches {
		rep.Branches[b.String()] = int(sc.Stats.Runs[b].Load())
	}
	return rep, nil
}

// percentile of sorted values, nearest rank.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// heapAllocs returns the number of heap objects allocated so far.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func (r *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *report) writeText(w io.Writer) {
	fmt.Fprintf(w, "archai bench: guard scenario\n")
	fmt.Fprintf(w, "  map      %s\n", r.Map)
	fmt.Fprintf(w, "  agents   %d, %d frames at dt = 1/%.0f s, seed %d, %d workers\n\n", r.Agents, r.Frames, 1/r.DT, r.Seed, r.Workers)
	fmt.Fprintf(w, "frame time       median %.3f ms, p95 %.3f ms\n", r.MsMedian, r.MsP95)
	fmt.Fprintf(w, "per agent        %.1f ns per agent per frame\n", r.NsPerAgentFrame)
	fmt.Fprintf(w, "heap allocs      %.2f per frame\n", r.AllocsPerFrame)
	fmt.Fprintf(w, "decisions        %.1f agents thought per frame (%.1f%% of agents)\n", r.ThoughtPerFrame, 100*r.ThoughtPerFrame/float64(r.Agents))
	fmt.Fprintf(w, "paths            %d served, %d dropped, %d waiting at the end\n", r.PathsServed, r.PathsDropped, r.PathsWaiting)
	fmt.Fprintf(w, "combat           %d strikes, %d guards down, %d intruders down\n\n", r.Strikes, r.GuardsDown, r.IntrudersDown)
	sum := 0.0
	for _, ms := range r.systemsPerFrameT {
		sum += ms
	}
	fmt.Fprintf(w, "systems (ms per frame, share of system time)\n")
	for i, name := range r.systemOrder {
		ms := r.systemsPerFrameT[i]
		share := 0.0
		if sum > 0 {
			share = 100 * ms / sum
		}
		fmt.Fprintf(w, "  %-12s %8.3f ms %5.1f%%  %s\n", name, ms, share, strings.Repeat("#", int(share/2.5+0.5)))
	}
	fmt.Fprintf(w, "\nbranches run (leaf ticks)\n")
	for b := range scenario.NumBranches {
		fmt.Fprintf(w, "  %-16s %d\n", b.String(), r.Branches[b.String()])
	}
	fmt.Fprintf(w, "\nstate hash       %s\n", r.StateHash)
}
