// Command bench is archai's crowd benchmark, the project's main job.
//
// With no flags it runs the guard scenario (guards that patrol, chase, attack
// and flee home, against intruders that wander and fight back) with 10,000
// agents for 600 frames at dt = 1/60 s on a map generated from the seed, and
// prints ms per frame (median, p95), ns per agent per frame, each system's
// share, heap allocations per frame, decisions per frame, paths served, a
// hash of the final state, and the misconfigured agents that
// systems.Diagnose counts before the first frame and after the last (per
// cause in -json's "diagnostics" object, the systems installed twice in its
// "installed_twice" list, the pairs of systems in an order that works a frame
// late in its "schedule_order" list; all 0 and [] for both scenarios), and for
// the guards the run's script errors and clock faults of systems.Decision
// ("script_errors", "clock_faults"; 0).
//
//	go run ./cmd/bench [-scenario guards|swarm|reference] [-agents N] [-frames N] [-seed N] [-map FILE.map] [-workers N] [-lod] [-think-budget N] [-avoid separation|orca] [-ratio] [-json]
//
// With -save FILE -save-at N the run writes its world after frame N to FILE (a
// systems/save file recording the scenario, agents, seed, map and settings) and goes
// on to -frames; -load FILE continues that run for -frames more frames (-workers may
// differ; the recorded settings must not be given again). "frame" in the report
// counts frames since the start of the original run, so a run saved at 300 and loaded
// for 300 more ends at frame 600 with the state hash of an unbroken 600-frame run.
//
//	go run ./cmd/bench -agents 2000 -frames 600 -save run.json -save-at 300
//	go run ./cmd/bench -load run.json -frames 300
//
// The swarm scenario runs agents that all follow one flow field to a goal
// that moves every 5 s, with separation and wall avoidance.
//
// The reference scenario runs the swarm's core work (same map, agents and
// goals) as a minimal data-oriented loop without Arche (package
// cmd/bench/reference). It takes -agents, -frames, -seed, -map, -workers,
// -json and -quiet, and runs in sweeps (-sweep, -sweep-workers, -shard, -md,
// -plot); a flag it would ignore is a usage error (exit 2): -save, -save-at,
// -load, -debugview, -serve, -lod, -think-budget, -avoid orca, -map-size,
// -sectors, -ratio (also in a sweep) and -tutorial. With -ratio, a guards or swarm run is followed by the
// reference loop for the same agents, frames, seed and workers, and the
// report adds "ratio to reference: N×", the scenario's median frame time over
// the reference's (in -json: reference_ms_per_frame_median and
// ratio_to_reference). Machines are noisy; a ratio from one run holds where a
// bare time does not.
//
// With -serve ADDR (e.g. -serve localhost:8080) it runs the chosen scenario
// in real time (or -speed times real time) until interrupted and serves the
// live debugger of package systems/debugview at http://ADDR/. With
// -debugview off|on a measured run also has the debugger's system, added but
// disabled or enabled with one agent selected; its cost shows under systems, also
// in the -md and -plot files of that run (a single run: -debugview is refused with
// the sweeps, -tutorial and -compare below, -serve with every report flag below, and
// -serve with -debugview, -frames and -json; the message names both flags and the
// one to drop).
//
// With -scen it checks grid A* against a MovingAI scenario instead: every
// query is searched, the cost compared with the scenario's optimal length
// (relative error ≤ 1e-4; a query of length 0 with start ≠ goal must be
// unreachable), and the command prints "optimal: N/M" and the mean time per
// query, exiting with status 1 on any mismatch. It takes -quiet (no progress on
// stderr) and no other flag: any other flag given is a usage error (exit 2).
//
//	go run ./cmd/bench -scen ../shared/maps/arena.map.scen
//
// As a report (sweep.go, report.go, plot.go, meter.go): -sweep 1000,10000
// and -sweep-workers 1,2 run every point (a table, or JSON lines with -json; they
// replace -agents and -workers, and either with the flag it replaces is a usage error),
// -md FILE and -plot FILE.png write a Markdown table and a plot, -shard i/n
// runs one slice of the points and -merge FILES… joins saved JSON lines into
// one report (it takes -json, -md, -plot and -quiet; another flag is a usage
// error); -tutorial runs the guards as the tutorials write them beside
// each point (package cmd/bench/tutorial) and -compare compares our A* with
// gonum's and a flow field with per-agent A* (it takes -agents, -sweep, -seed,
// -map, -json and -quiet; another flag is a usage error). A progress bar goes to stderr
// when it is a terminal (not with -quiet or -json, nor into a file or a pipe).
//
//	go run ./cmd/bench -sweep 1000,10000 -frames 120 -quiet -md out.md -plot out.png
//
// With -cpuprofile FILE (and -memprofile FILE) a single run writes a CPU profile of
// its simulated frames, not the set-up (and a heap profile taken after the last
// frame), as go test does; the files are created before the run and closed on every
// exit (profile.go).
//
//	go run ./cmd/bench -scenario guards -agents 100000 -cpuprofile cpu.out
//	go tool pprof -top cpu.out
//
// The exit status is 0 when the work is done, 2 for a usage error and 1 when the work
// began and failed, as exitStatus says (and -help prints).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/archai-go/archai/cmd/bench/scenario"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// exitStatus is the rule of the exit status, printed by -help. A usage error is one
// the user fixes by changing the command line; a file named on it is part of it.
const exitStatus = `Exit status: 0 when the work is done; 2 for a usage error, found before the
work begins and fixed by changing the command line: an unknown flag, a flag given
twice, a value out of range, an unknown name (-scenario, -avoid), flags that do not
go together, or a file named that cannot be used (-map; -scen and the map it names;
-load and the map it records; -merge's files: missing, unreadable, or not the kind of
file the flag wants; an output file whose directory is missing or not writable); 1
when the work began and failed: a -scen query not found optimal, a fault of a run's
setup or simulation, an output file that could not be written.
`

// run is main without the exit, for tests: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) (code int) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// The flag package calls Usage both for -help and after a parse error it has
	// printed; the whole text answers -help only, a parse error gets one line.
	fs.Usage = func() {}
	agents := fs.Int("agents", 10000, "`N` agents in the run, 1 to 10,240,000 (guards: guards and intruders)")
	frames := fs.Int("frames", 600, "`N` frames to simulate, 1 to 10,000,000, each 1/60 s of simulation time")
	seed := fs.Uint64("seed", 1, "random seed `N` of the map and the agents, any whole number from 0")
	mapFile := fs.String("map", "", "MovingAI map `FILE.map` to run on (default none: a map generated from -seed, its side set by -map-size)")
	scenFile := fs.String("scen", "", "MovingAI scenario `FILE.map.scen`: check A* and JPS on every query instead of running the crowd (default none: run the crowd)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object on stdout, a JSON line per run in a sweep (default false: text)")
	view := addViewFlags(fs) // -serve, -speed, -debugview (serve.go)
	scen := fs.String("scenario", "guards", "crowd scenario `NAME`: guards (behavior trees, paths, combat), swarm (a shared flow field) or reference (the swarm's core work as a minimal loop without Arche)")
	ratio := fs.Bool("ratio", false, "after the scenario, run the reference loop for the same agents, frames, seed and workers and print the ratio of the median frame times (default false: no reference run)")
	workers := fs.Int("workers", 0, "`N` goroutines for the spatial hash's sort, perception, decision, flow sampling, path following, steering, ORCA and movement, at most 1024 (default 0: GOMAXPROCS)")
	lod := fs.Bool("lod", false, "guards: level of detail, guards think at 10 Hz within 32 cells of the map centre, 2 Hz within 96, not at all beyond (default false: the same at any distance)")
	thinkBudget := fs.Int("think-budget", 0, "guards: at most `N` decisions per frame (agents that think; default 0: no limit)")
	mapSize := fs.Int("map-size", 0, "side `N` of the generated map in cells, 16 to 8192 (default 0: 256 up to 10,000 agents, then growing as the square root of -agents)")
	sectors := fs.Int("sectors", -1, "swarm: sector side `N` of the flow fields in cells (0: whole-grid fields; -1: 64 on maps over 1024 cells a side, else whole-grid)")
	avoid := fs.String("avoid", "separation", "local avoidance `KIND` of every agent: separation (Steer's separation force) or orca (the ORCA system)")
	saveFile := fs.String("save", "", "write the world to `FILE.json` after frame -save-at; the run goes on to -frames (default none: no save)")
	saveAt := fs.Int("save-at", 0, "with -save: save after frame `N`, counted in frames from the start of the run, 1 to -frames (default 0: none; -save needs it)")
	loadFile := fs.String("load", "", "continue the run saved in `FILE.json` (by -save) for -frames more frames, with its scenario, seed and settings (default none: a new run)")
	rf := addReportFlags(fs)  // sweeps, -md, -plot, -shard, -merge, -tutorial, -compare (sweep.go)
	pf := addProfileFlags(fs) // -cpuprofile, -memprofile (profile.go)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) { // -help, -h: the usage was asked for
			fmt.Fprintf(fs.Output(), "Usage: go run ./cmd/bench [flags]\n\n%s\nFlags:\n", exitStatus)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintln(stderr, "bench: go run ./cmd/bench -help lists the flags")
		return 2
	}
	if code, done := rf.parsed(fs); done {
		return code
	}
	if err := checkRepeatedFlags(fs, args); err != nil { // flagcheck.go
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	for _, check := range []func(*flag.FlagSet) error{checkSwallowedFlags, checkScenFlags, checkMergeFlags} { // flagcheck.go
		if err := check(fs); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 2
		}
	}
	if err := checkFlagUse(fs); err != nil { // flagcheck.go
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if err := checkOutputFiles(fs); err != nil { // flagcheck.go; before a merge reads its files too
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if err := checkProfileFiles(fs); err != nil { // flagcheck.go; before the profiles are created
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if err := checkInputFiles(fs); err != nil { // flagcheck.go
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if code, done := rf.merged(fs, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *scenFile != "" {
		return runScenario(*scenFile, rf.quiet, stdout, stderr)
	}
	if *agents <= 0 {
		fmt.Fprintf(stderr, "bench: -agents %d: want a positive number of agents, 1 to %d\n", *agents, scenario.MaxAgents)
		return 2
	}
	if *frames <= 0 {
		fmt.Fprintf(stderr, "bench: -frames %d: want a positive number of frames, 1 to %d\n", *frames, maxFrames)
		return 2
	}
	cfg := crowdConfig{Scenario: *scen, Agents: *agents, Frames: *frames, Seed: *seed, MapFile: *mapFile,
		Workers: *workers, LOD: *lod, ThinkBudget: *thinkBudget, Avoid: *avoid}
	cfg.SaveFile, cfg.SaveAt, cfg.LoadFile = *saveFile, *saveAt, *loadFile
	if err := checkSaveFlags(cfg); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	cfg.MapSize, cfg.Sectors = *mapSize, *sectors // mapsize.go
	if err := checkMapSize(cfg, *ratio); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if cfg.LoadFile != "" {
		if err := applyLoad(&cfg, fs); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 2
		}
		if err := checkMapSize(cfg, *ratio); err != nil { // the file's settings, as the flags' above
			fmt.Fprintf(stderr, "bench: %s: %v\n", cfg.LoadFile, err)
			return 2
		}
	}
	if err := checkCrowd(cfg, rf.sweep); err != nil { // harden.go
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if code, done := rf.run(&cfg, *asJSON, *ratio, stdout, stderr); done {
		return code
	}
	run := runCrowd
	if *scen == "reference" { // -ratio with it is a usage error (checkReferenceFlags)
		run = runReference
	}
	if err := view.apply(&cfg); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if *view.serve != "" {
		ctx, stop := serveContext()
		defer stop()
		return runServe(ctx, cfg, *view.serve, *view.speed, stdout, stderr)
	}
	prof, err := openProfiles(pf) // profile.go; before the set-up, so nothing runs if a file cannot be created
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	defer func() { // every exit from here: the profiles are flushed and closed
		if err := prof.close(); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			if code == 0 {
				code = 1
			}
		}
	}()
	cfg.profile = prof
	rep, err := run(cfg)
	if err == nil && *ratio && *scen != "reference" {
		err = addRatio(rep, cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		if errors.As(err, new(usageError)) { // saveload.go
			return 2
		}
		return 1
	}
	if *asJSON {
		if err := rep.writeJSON(stdout); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	} else {
		rep.writeText(stdout)
		rep.writeRatio(stdout)
	}
	return rf.writeFiles([]*report{rep}, stderr) // -md, -plot (sweep.go)
}
