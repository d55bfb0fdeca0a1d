package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/archai-go/archai/systems"
)

// diagnosticsJSON returns what -json reports of systems.Diagnose before the first
// frame and after the last: per cause (every cause listed), the larger of the two
// counts; the systems installed twice in either (Report.Twice), each once, in the
// reports' order; and the clock's faults in either (Report.ClockFault, by name:
// "clock_dt_over_max"), each once, before's first; and the pairs of systems in an
// order that works a frame late (Report.Order: "movement before steer"), each once.
// The lists are never nil (an empty list says none, as the text report's "no
// misconfigured agent").
func diagnosticsJSON(before, after systems.Report) (counts map[string]int, twice, clock, order []string) {
	counts = make(map[string]int, int(systems.NumCauses))
	for c := range systems.NumCauses {
		counts[c.String()] = max(before.Counts[c], after.Counts[c])
	}
	twice, order = unionOf(before.Twice, after.Twice), unionOf(before.Order, after.Order)
	clock = []string{}
	for _, f := range []systems.ClockFault{before.ClockFault, after.ClockFault} {
		if f != systems.ClockUsable && !slices.Contains(clock, f.String()) {
			clock = append(clock, f.String())
		}
	}
	return counts, twice, clock, order
}

// unionOf returns the strings of a then b, each once, in that order; never nil.
func unionOf(a, b []string) []string {
	out := []string{}
	for _, n := range slices.Concat(a, b) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// guardsOnly are the keys of the guards' figures: decisions, perception, paths and combat.
var guardsOnly = []string{"thought_per_frame", "perceived_per_frame", "paths_served", "paths_dropped", "paths_orphaned",
	"paths_replaced", "paths_cancelled", "paths_waiting",
	"searches_per_frame", "strikes", "guards_down", "intruders_down"}

// notInJSON are the keys of figures a scenario does not have, left out of its JSON
// object: the guards' decisions, paths and combat in the swarm and the reference loop,
// the goal in the guards. script_errors and clock_faults stay in every scenario's
// (TestScenariosHaveNoMisconfiguredAgents), 0 where nothing decides.
var notInJSON = map[string][]string{
	"guards":    {"goal_moves", "near_goal"},
	"swarm":     guardsOnly,
	"reference": guardsOnly,
}

// MarshalJSON encodes r as its fields' tags say, in their order, without the keys
// of figures its scenario does not have (notInJSON).
func (r *report) MarshalJSON() ([]byte, error) {
	type fields report // without this method
	b, err := json.Marshal((*fields)(r))
	omit := notInJSON[r.Scenario]
	if err != nil || len(omit) == 0 {
		return b, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	out := append(make([]byte, 0, len(b)), '{')
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if slices.Contains(omit, key.(string)) {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(key)
		out = append(append(append(out, k...), ':'), value...)
	}
	return append(out, '}'), nil
}

// writeJSONLine writes r as one line of JSON (JSON lines: one object per
// run).
func writeJSONLine(w io.Writer, r *report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxReportFile is the most readReports reads of one file: -merge /dev/zero used to
// read until the process ran out of memory.
const maxReportFile = 64 << 20

// readReports reads the reports in r, one JSON object after another (JSON
// lines, or the indented object of a single -json run); name is for errors.
// An empty r holds no report, as a shard given fewer points than shards.
func readReports(r io.Reader, name string) ([]*report, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxReportFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxReportFile {
		return nil, fmt.Errorf("%s: more than %d MiB, more than any -json or -sweep -json output (a report is about a kilobyte)", name, maxReportFile>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []*report
	for {
		rep := &report{}
		line := lineAt(data, dec.InputOffset()) // harden.go
		err := dec.Decode(rep)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: report %d: %w", name, len(out)+1, err)
		}
		if rep.Scenario == "" || rep.Agents <= 0 || rep.Frames <= 0 {
			return nil, fmt.Errorf("%s: report %d is not a bench report (no scenario, agents or frames)", name, len(out)+1)
		}
		if err := checkReport(rep); err != nil { // harden.go
			return nil, fmt.Errorf("%s:%d: report %d: %w", name, line, len(out)+1, err)
		}
		out = append(out, rep)
	}
	return out, nil // none: a shard with no points of the sweep
}

// checkMerged returns an error if reps hold the same point twice with
// different settings of what the merged report compares (a point run twice
// gives an error too: the shards overlap).
func checkMerged(reps []*report) error {
	seen := map[string]bool{}
	for _, r := range reps {
		k := fmt.Sprintf("%s %d agents %d workers seed %d frames %d map %s", r.Scenario, r.Agents, r.Workers, r.Seed, r.Frames, r.Map)
		if seen[k] {
			return fmt.Errorf("-merge: %s appears twice (overlapping shards?)", k)
		}
		seen[k] = true
	}
	return nil
}

// sortReports orders reports by scenario, agents, then workers.
func sortReports(reps []*report) {
	slices.SortStableFunc(reps, func(a, b *report) int {
		return cmp.Or(strings.Compare(a.Scenario, b.Scenario), cmp.Compare(a.Agents, b.Agents), cmp.Compare(a.Workers, b.Workers))
	})
}

// frameOrder is the order of the scenarios' systems in a frame.
var frameOrder = []string{"clock", "lod", "spatial", "perception", "decision", "pathqueue", "combat", "casualties",
	"flowfield", "pathfollow", "steer", "orca", "movement", "reference"}

// systemNames returns the systems of reps in frame order (names not in
// frameOrder last, sorted).
func systemNames(reps []*report) []string {
	set := map[string]bool{}
	for _, r := range reps {
		for name := range r.Systems {
			set[name] = true
		}
	}
	var out, rest []string
	for _, n := range frameOrder {
		if set[n] {
			out = append(out, n)
			delete(set, n)
		}
	}
	for n := range set {
		rest = append(rest, n)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// table is a report's rows as cells, for the text and Markdown tables.
type table struct {
	head []string
	rows [][]string
}

func mainTable(reps []*report) table {
	t := table{head: []string{"scenario", "agents", "workers", "median ms", "p95 ms", "max ms", "ns/agent",
		"allocs/frame", "steady allocs/frame", "bytes/agent", "thinks/frame", "paths served", "state hash"}}
	for _, r := range reps {
		t.rows = append(t.rows, []string{r.Scenario, fmt.Sprint(r.Agents), fmt.Sprint(r.Workers),
			f3(r.MsMedian), f3(r.MsP95), f3(r.MsMax), fmt.Sprintf("%.0f", r.NsPerAgentFrame),
			fmt.Sprintf("%.2f", r.AllocsPerFrame), fmt.Sprintf("%.2f", r.AllocsPerFrameSteady),
			fmt.Sprintf("%.0f", r.ComponentBytesPerAgent), fmt.Sprintf("%.1f", r.ThoughtPerFrame),
			fmt.Sprint(r.PathsServed), r.StateHash})
	}
	return t
}

func systemsTable(reps []*report) table {
	names := systemNames(reps)
	t := table{head: append([]string{"scenario", "agents", "workers"}, names...)}
	for _, r := range reps {
		row := []string{r.Scenario, fmt.Sprint(r.Agents), fmt.Sprint(r.Workers)}
		for _, n := range names {
			if ms, ok := r.Systems[n]; ok {
				row = append(row, f3(ms))
			} else {
				row = append(row, "-")
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// tutorialTable is the side-by-side table of -tutorial, nil without.
func tutorialTable(reps []*report) *table {
	t := &table{head: []string{"agents", "workers", "archai median ms", "tutorial median ms", "tutorial/archai",
		"thinks/frame archai", "tutorial", "perceptions/frame archai", "tutorial", "A* searches/frame archai", "tutorial",
		"allocs/frame archai", "tutorial"}}
	for _, r := range reps {
		tu := r.Tutorial
		if tu == nil {
			continue
		}
		t.rows = append(t.rows, []string{fmt.Sprint(r.Agents), fmt.Sprint(r.Workers), f3(r.MsMedian), f3(tu.MsMedian),
			fmt.Sprintf("%.2f×", r.RatioTutorial),
			fmt.Sprintf("%.1f", r.ThoughtPerFrame), fmt.Sprintf("%.1f", tu.ThoughtPerFrame),
			fmt.Sprintf("%.1f", r.PerceivedPerFrame), fmt.Sprintf("%.1f", tu.PerceivedPerFrame),
			fmt.Sprintf("%.2f", r.SearchesPerFrame), fmt.Sprintf("%.2f", tu.SearchesPerFrame),
			fmt.Sprintf("%.2f", r.AllocsPerFrame), fmt.Sprintf("%.0f", tu.AllocsPerFrame)})
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}

func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

// writeText writes t aligned in columns.
func (t table) writeText(w io.Writer) {
	width := make([]int, len(t.head))
	for i, h := range t.head {
		width[i] = len([]rune(h))
	}
	for _, row := range t.rows {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				fmt.Fprint(w, "  ")
			}
			fmt.Fprintf(w, "%*s", width[i], c)
		}
		fmt.Fprintln(w)
	}
	line(t.head)
	for _, row := range t.rows {
		line(row)
	}
}

// writeMarkdown writes t as a Markdown table.
func (t table) writeMarkdown(w io.Writer) {
	fmt.Fprintf(w, "| %s |\n|", strings.Join(t.head, " | "))
	for range t.head {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, row := range t.rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}

// writeTable prints the readable report of a sweep.
func writeTable(w io.Writer, reps []*report) {
	if len(reps) == 0 {
		fmt.Fprintln(w, "archai bench: no runs")
		return
	}
	r0 := reps[0]
	runs := "runs"
	if len(reps) == 1 {
		runs = "run"
	}
	fmt.Fprintf(w, "archai bench: %d %s, %d frames each at dt = 1/%.0f s, seed %d (wall-clock ms per frame)\n\n", len(reps), runs, r0.Frames, 1/r0.DT, r0.Seed)
	mainTable(reps).writeText(w)
	fmt.Fprintf(w, "\nsystems (mean ms per frame)\n")
	systemsTable(reps).writeText(w)
	if t := tutorialTable(reps); t != nil {
		fmt.Fprintf(w, "\nguards in archai against the tutorial style (package cmd/bench/tutorial), same map, seed and think rate\n")
		t.writeText(w)
	}
	fmt.Fprintf(w, "\nsteady allocs/frame: heap objects per frame after the first half of the run (warm-up); allocs/frame: the whole run's average\n")
}

// writeMarkdown writes the report as Markdown: the command, the tables.
func writeMarkdown(w io.Writer, reps []*report, command string) error {
	fmt.Fprintf(w, "```sh\n%s\n```\n\n", command)
	if len(reps) > 0 {
		r0 := reps[0]
		fmt.Fprintf(w, "%d frames at dt = 1/%.0f s, seed %d; map %s for the largest run; wall-clock ms per frame.\n\n", r0.Frames, 1/r0.DT, r0.Seed, reps[len(reps)-1].Map)
	}
	mainTable(reps).writeMarkdown(w)
	fmt.Fprintf(w, "\nEach system's mean ms per frame:\n\n")
	systemsTable(reps).writeMarkdown(w)
	if t := tutorialTable(reps); t != nil {
		fmt.Fprintf(w, "\nThe guards in archai against the same behaviour written as the tutorials write it (package `cmd/bench/tutorial`), same map, seed and think rate:\n\n")
		t.writeMarkdown(w)
	}
	return nil
}
