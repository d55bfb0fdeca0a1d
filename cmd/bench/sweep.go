package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ecs"
)

// reportFlags are the flags of issue 15: sweeps, their outputs, sharding and
// merging, the tutorial-style comparison and -compare.
type reportFlags struct {
	sweep, sweepWorkers string
	quiet               bool
	md, plot            string
	shard               string
	merge               bool
	tutorial            bool
	compare             bool

	command string   // the flags as given, for the Markdown report
	files   []string // -merge: the files to merge
}

// addReportFlags defines the flags of issue 15 on fs.
func addReportFlags(fs *flag.FlagSet) *reportFlags {
	rf := &reportFlags{}
	fs.StringVar(&rf.sweep, "sweep", "", "comma-separated agent counts `N,N,...`: run the scenario at each, e.g. 1000,10000,100000 (default none: one run at -agents; not with -agents)")
	fs.StringVar(&rf.sweepWorkers, "sweep-workers", "", "comma-separated worker counts `N,N,...` in goroutines, 0 for GOMAXPROCS: run each agent count with each, e.g. 1,2 (default none: -workers; not with -workers)")
	fs.BoolVar(&rf.quiet, "quiet", false, "no progress bar on stderr (default false: a bar while stderr is a terminal, none with -json)")
	fs.StringVar(&rf.md, "md", "", "also write the report as a Markdown table to `FILE.md` (default none)")
	fs.StringVar(&rf.plot, "plot", "", "also draw ms per frame against agents, a line per system, to `FILE.png` (default none)")
	fs.StringVar(&rf.shard, "shard", "", "run only the sweep's points k with k mod n = i, given as `i/n` with 0 ≤ i < n (default none: every point)")
	fs.BoolVar(&rf.merge, "merge", false, "join the JSON lines of the files given as arguments into one report (table, or JSON lines with -json; -md, -plot) instead of running (default false: run)")
	fs.BoolVar(&rf.tutorial, "tutorial", false, "guards: also run each point as the tutorials write it (package cmd/bench/tutorial) and report the ratio of the median frame times (default false)")
	fs.BoolVar(&rf.compare, "compare", false, "instead of the crowd, compare our A* with gonum's (µs per query), and a flow field with per-agent A* (ms), on the generated map of each agent count (-agents or -sweep) (default false)")
	return rf
}

// parsed runs right after fs.Parse: it records the command line and, with
// -merge, parses the flags that follow the files named by the arguments
// (rf.files). done reports that the command is over (a usage error), with the
// exit status code.
func (rf *reportFlags) parsed(fs *flag.FlagSet) (code int, done bool) {
	// flags may follow -merge's files too (-merge a.jsonl b.jsonl -md out.md)
	var files []string
	for rf.merge && fs.NArg() > 0 {
		rest := fs.Args()
		k := 0
		for k < len(rest) && !strings.HasPrefix(rest[k], "-") {
			k++
		}
		files = append(files, rest[:k]...)
		if k == len(rest) {
			break
		}
		if err := fs.Parse(rest[k:]); err != nil {
			return 2, true
		}
	}
	var b strings.Builder
	b.WriteString("go run ./cmd/bench")
	fs.Visit(func(f *flag.Flag) {
		if f.Value.String() == "true" {
			fmt.Fprintf(&b, " -%s", f.Name)
		} else {
			fmt.Fprintf(&b, " -%s %s", f.Name, f.Value)
		}
	})
	if !rf.merge {
		files = fs.Args()
	}
	for _, a := range files {
		fmt.Fprintf(&b, " %s", a)
	}
	rf.command = b.String()
	rf.files = files
	return 0, false
}

// merged runs -merge: it joins the reports of the files named by the arguments
// into one report. done reports that the command is over (it was a merge), with
// the exit status code: 2 for a file that cannot be merged (missing, not JSON
// lines of reports, no report in any, a run twice), a usage error as a bad -map.
func (rf *reportFlags) merged(fs *flag.FlagSet, stdout, stderr io.Writer) (code int, done bool) {
	if !rf.merge {
		return 0, false
	}
	files := rf.files
	if len(files) == 0 {
		fmt.Fprintln(stderr, "bench: -merge needs the JSON-lines files to merge as arguments")
		return 2, true
	}
	var reps []*report
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 2, true
		}
		rs, err := readReports(f, name)
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 2, true
		}
		reps = append(reps, rs...)
	}
	if len(reps) == 0 {
		fmt.Fprintf(stderr, "bench: -merge: no report in %s\n", strings.Join(files, ", "))
		return 2, true
	}
	if err := checkMerged(reps); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2, true
	}
	asJSON := false
	if f := fs.Lookup("json"); f != nil && f.Value.String() == "true" {
		asJSON = true
		sortReports(reps)
		for _, r := range reps {
			if err := writeJSONLine(stdout, r); err != nil {
				fmt.Fprintln(stderr, "bench:", err)
				return 1, true
			}
		}
	}
	return rf.output(reps, asJSON, stdout, stderr), true
}

// active reports whether the run is a report of issue 15 (a table of points)
// rather than the plain single run. -md and -plot alone are not: a single run
// prints its own report and also writes them (writeFiles).
func (rf *reportFlags) active() bool {
	return rf.sweep != "" || rf.sweepWorkers != "" || rf.shard != "" || rf.tutorial || rf.compare
}

// run runs what the flags ask for with cfg as the base configuration. For a
// plain single run it only sets cfg's progress bar and returns done false:
// the caller runs and prints it as before, then writes -md and -plot
// (writeFiles).
func (rf *reportFlags) run(cfg *crowdConfig, asJSON, ratio bool, stdout, stderr io.Writer) (code int, done bool) {
	if !rf.active() {
		if !rf.quiet && !asJSON && !logFile(stderr) {
			frames := cfg.Frames
			if ratio {
				frames *= 2
			}
			cfg.Progress = newProgress(stderr, frames)
		}
		return 0, false
	}
	if rf.compare {
		return rf.runCompare(*cfg, asJSON, stdout, stderr), true
	}
	pts, err := rf.points(cfg.Agents, cfg.Workers)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2, true
	}
	if rf.tutorial && cfg.Scenario != "guards" {
		fmt.Fprintln(stderr, "bench: -tutorial compares the guard scenario; use -scenario guards")
		return 2, true
	}
	perPoint := cfg.Frames
	if ratio {
		perPoint += cfg.Frames
	}
	if rf.tutorial {
		perPoint += cfg.Frames
	}
	var prog *progress
	if !rf.quiet && !asJSON && !logFile(stderr) {
		prog = newProgress(stderr, perPoint*len(pts))
	}
	reps, err := sweepPoints(*cfg, pts, ratio, rf.tutorial, prog, func(r *report) error {
		if asJSON {
			return writeJSONLine(stdout, r)
		}
		return nil
	})
	prog.finish()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1, true
	}
	return rf.output(reps, asJSON, stdout, stderr), true
}

// output prints the table (unless the JSON lines were printed already) and
// writes the -md and -plot files.
func (rf *reportFlags) output(reps []*report, printedJSON bool, stdout, stderr io.Writer) int {
	sortReports(reps)
	if !printedJSON {
		writeTable(stdout, reps)
	}
	return rf.writeFiles(reps, stderr)
}

// writeFiles writes the -md and -plot files of reps, if asked for, and returns
// the exit status: 1 if one cannot be written.
func (rf *reportFlags) writeFiles(reps []*report, stderr io.Writer) int {
	if rf.md != "" {
		if err := writeFile(rf.md, func(w io.Writer) error { return writeMarkdown(w, reps, rf.command) }); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	if rf.plot != "" {
		if err := writePlot(rf.plot, reps); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	return 0
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// point is one run of a sweep.
type point struct{ Agents, Workers int }

// points returns the sweep's points (agent counts outside, worker counts
// inside), the shard's slice of them if -shard is set.
func (rf *reportFlags) points(agents, workers int) ([]point, error) {
	as, err := parseCounts("-sweep", rf.sweep, agents)
	if err != nil {
		return nil, err
	}
	ws, err := parseCounts("-sweep-workers", rf.sweepWorkers, workers)
	if err != nil {
		return nil, err
	}
	var pts []point
	for _, a := range as {
		for _, w := range ws {
			pts = append(pts, point{a, w})
		}
	}
	if rf.shard == "" {
		return pts, nil
	}
	i, n, err := parseShard(rf.shard)
	if err != nil {
		return nil, err
	}
	return shardOf(pts, i, n), nil
}

// parseCounts parses a comma-separated list of counts of flag: agent counts for
// -sweep, each positive; worker counts for -sweep-workers, each 0 to ecs.MaxWorkers,
// where 0 means GOMAXPROCS, as -workers 0 does, and is returned as that number (the
// number the run reports). An empty list is the single count def.
func parseCounts(flag, list string, def int) ([]int, error) {
	if list == "" {
		return []int{def}, nil
	}
	workers := flag == "-sweep-workers"
	if strings.TrimSpace(list) == "" { // blank, not empty: a script's " " is refused, and told how to ask for no sweep
		what, single := "agent counts, e.g. 1000,10000", "-agents"
		if workers {
			what, single = "worker counts, e.g. 0,1,2", "-workers"
		}
		return nil, fmt.Errorf("%s %q is blank: want comma-separated %s, or an empty list (%s \"\") for one run at %s", flag, list, what, flag, single)
	}
	var out []int
	for f := range strings.SplitSeq(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		switch {
		case workers && (err != nil || n < 0 || n > ecs.MaxWorkers):
			return nil, fmt.Errorf("%s %q: want comma-separated worker counts in goroutines, 0 (GOMAXPROCS) to %d, e.g. 0,1,2", flag, list, ecs.MaxWorkers)
		case !workers && (err != nil || n <= 0):
			return nil, fmt.Errorf("%s %q: want comma-separated positive agent counts, e.g. 1000,10000", flag, list)
		case workers && n == 0:
			n = runtime.GOMAXPROCS(0)
		}
		out = append(out, n)
	}
	return out, nil
}

// errShard is the usage error of a bad -shard.
var errShard = errors.New("-shard wants i/n with 0 ≤ i < n, e.g. 0/4")

// parseShard parses "i/n".
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("%w (got %q)", errShard, s)
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n <= 0 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%w (got %q)", errShard, s)
	}
	return i, n, nil
}

// shardOf returns the points k of pts with k mod n = i: every shard gets a
// mix of small and large runs, and the shards together hold every point
// once. A step of n ≥ len(pts) leaves the points after the first: it is cut
// to len(pts), so that k += n cannot wrap to a negative index (-shard
// 1/9223372036854775807 panicked).
func shardOf(pts []point, i, n int) []point {
	var out []point
	for k := i; k < len(pts); k += min(n, len(pts)) {
		out = append(out, pts[k])
	}
	return out
}

// sweepPoints runs cfg at each point, in order, and passes each report to
// each as it is done.
func sweepPoints(cfg crowdConfig, pts []point, ratio, tutorial bool, prog *progress, each func(*report) error) ([]*report, error) {
	var reps []*report
	for _, p := range pts {
		c := cfg
		c.Agents, c.Workers, c.Progress = p.Agents, p.Workers, prog
		prog.describe(fmt.Sprintf("%s %d agents, %d workers", cfg.Scenario, p.Agents, p.Workers))
		rep, err := runPoint(c, ratio, tutorial)
		if err != nil {
			return reps, fmt.Errorf("%d agents, %d workers: %w", p.Agents, p.Workers, err)
		}
		reps = append(reps, rep)
		if err := each(rep); err != nil {
			return reps, err
		}
	}
	return reps, nil
}

// runPoint is one run as the plain command makes it (the scenario, then the
// reference loop with -ratio), followed by the tutorial-style run with
// -tutorial.
func runPoint(cfg crowdConfig, ratio, tutorial bool) (*report, error) {
	if cfg.Scenario == "reference" {
		if ratio {
			return nil, errors.New("-ratio compares a guards or swarm run with the reference loop; -scenario reference runs the loop alone")
		}
		return runReference(cfg)
	}
	rep, err := runCrowd(cfg)
	if err != nil {
		return nil, err
	}
	if ratio {
		if err := addRatio(rep, cfg); err != nil {
			return nil, err
		}
	}
	if tutorial {
		if err := addTutorial(rep, cfg); err != nil {
			return nil, err
		}
	}
	return rep, nil
}
