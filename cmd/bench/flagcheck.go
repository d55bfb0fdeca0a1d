package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
)

// scenarios are the values of -scenario.
var scenarios = []string{"guards", "swarm", "reference"}

// reportModes are the flags that make the run a report of many points (sweep.go),
// which run without -debugview's viewer and cannot -serve, and the report files -md
// and -plot, which refuse -serve (it reports nothing) but write a single run with
// -debugview: its files show the viewer's time under systems.
var reportModes = []string{"sweep", "sweep-workers", "shard", "md", "plot", "tutorial", "compare"}

// checkFlagUse rejects flags that the chosen mode would silently ignore and
// flags whose value is out of range for every mode. The conflicts come first,
// as fixing a value first only leads to them: the flags the reference loop has
// no use for (see checkReferenceFlags), -debugview or -serve with a report mode
// (see reportModes and checkViewConflicts), -save or -load with a report of
// many runs (manyRuns), -agents with -sweep and -workers with -sweep-workers
// (sweepReplaces), every flag -compare does not use (compareFlags),
// -speed without -serve, -frames, -json or -ratio with -serve (it runs until
// interrupted and prints no report), -save and -save-at with -serve (it saves
// nothing) and -save-at without -save. Then the values: an unknown -scenario or
// -avoid, a negative -workers, a -save-at below 1. Each error is a usage error (exit
// 2); one about two flags names both and the one to drop.
func checkFlagUse(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	value := func(name string) string { return fs.Lookup(name).Value.String() }
	if err := checkFlagConflicts(set, value); err != nil {
		return err
	}
	if s := value("scenario"); !slices.Contains(scenarios, s) {
		return fmt.Errorf("unknown scenario %q (guards, swarm or reference)", s)
	}
	if a := value("avoid"); set["avoid"] {
		if _, err := systems.ParseAvoidance(a); err != nil {
			return fmt.Errorf("-avoid %s: %w", a, err)
		}
	}
	if w := value("workers"); len(w) > 0 && w[0] == '-' {
		return fmt.Errorf("-workers %s: want 0 (GOMAXPROCS) or a positive number of goroutines", w)
	}
	if n := value("save-at"); set["save-at"] && (n == "0" || n[0] == '-') {
		return fmt.Errorf("-save-at %s is out of range: it counts frames since the start of the run, 1 or more (up to -frames)", n)
	}
	return nil
}

// checkFlagConflicts returns checkFlagUse's errors about flags that cannot be
// used together, or nil; set holds the flags given, value gives a flag's value.
func checkFlagConflicts(set map[string]bool, value func(string) string) error {
	if value("scenario") == "reference" {
		if err := checkReferenceFlags(set, value); err != nil {
			return err
		}
	}
	if err := checkViewConflicts(set); err != nil {
		return err
	}
	for _, pair := range sweepReplaces {
		if set[pair.sweep] && value(pair.sweep) != "" && set[pair.single] { // an empty list is no sweep: -agents, -workers are used
			if _, err := parseCounts("-"+pair.sweep, value(pair.sweep), 1); err != nil {
				return err // the list is the fault (" " is no list): dropping -agents or -workers would not mend it
			}
			return fmt.Errorf("-%s and -%s cannot be used together: -%[1]s gives the %[3]s of every run, so -%[2]s would be ignored; drop -%[2]s (put its count in the -%[1]s list), or drop -%[1]s", pair.sweep, pair.single, pair.what)
		}
	}
	for _, file := range []string{"save", "load"} {
		for _, name := range manyRuns {
			if set[file] && set[name] {
				return fmt.Errorf("-%s and -%s cannot be used together: -save and -load work on one run; drop -%s, or drop -%s", file, name, name, file)
			}
		}
	}
	if err := checkProfileConflicts(set); err != nil {
		return err
	}
	if set["compare"] {
		if err := onlyFlags(set, compareFlags, "-compare times A* and flow fields on the generated map of each agent count; it takes -agents, -sweep, -seed, -map, -json and -quiet"); err != nil {
			return err
		}
	}
	if value("serve") == "" {
		if set["speed"] {
			return fmt.Errorf("-speed paces -serve's real-time run; without -serve the benchmark runs as fast as it can: drop -speed, or add -serve ADDR")
		}
		if set["save-at"] && value("save") == "" {
			return fmt.Errorf("-save-at needs -save FILE")
		}
		return nil
	}
	for _, name := range []string{"frames", "json", "ratio"} {
		if set[name] {
			return fmt.Errorf("-serve and -%s cannot be used together: -serve runs until interrupted and prints no report; drop -%[1]s", name)
		}
	}
	var saves []string
	for _, name := range []string{"save", "save-at"} {
		if set[name] {
			saves = append(saves, "-"+name)
		}
	}
	if len(saves) > 0 {
		return fmt.Errorf("-serve and %s cannot be used together: -serve runs until interrupted and saves nothing; drop %[1]s (save a measured run, then watch it: -load FILE -serve ADDR)", strings.Join(saves, " and "))
	}
	return nil
}

// checkProfileConflicts rejects -cpuprofile and -memprofile with a report of many runs
// (manyRuns) and with -serve: a profile covers the frames of one measured run.
// (-scen, -compare and -merge take only their own flags, which refuse them too.)
func checkProfileConflicts(set map[string]bool) error {
	for _, prof := range []string{"cpuprofile", "memprofile"} {
		if !set[prof] {
			continue
		}
		for _, name := range manyRuns {
			if set[name] {
				return fmt.Errorf("-%s and -%s cannot be used together: -%[1]s profiles the frames of one run and -%[2]s makes many; drop -%[2]s to profile the run at -agents, or drop -%[1]s", prof, name)
			}
		}
		if set["serve"] {
			return fmt.Errorf("-serve and -%s cannot be used together: -serve runs until interrupted and -%[1]s profiles a measured run; drop -%[1]s, or drop -serve to profile the benchmark", prof)
		}
	}
	return nil
}

// manyRuns are the report modes that make the run a report of many runs; -md and
// -plot alone write the files of a single run.
var manyRuns = []string{"sweep", "sweep-workers", "shard", "tutorial", "compare"}

// checkViewConflicts rejects -debugview with a report of many runs (manyRuns), -serve
// with a report mode (reportModes), and the two with each other, naming both flags
// and the one to drop. -debugview with -md or -plot alone is a single measured run
// whose files are written after it, the viewer's time under systems.
func checkViewConflicts(set map[string]bool) error {
	if set["debugview"] {
		for _, name := range reportModes {
			if !set[name] {
				continue
			}
			if name == "md" || name == "plot" {
				// a single run's files are written after it from its own report, whose
				// systems include the viewer; the Markdown records the command and the
				// plot's title says "with debugview"
				continue
			}
			return fmt.Errorf("-debugview and -%s cannot be used together: -debugview measures the viewer's cost in one run and -%[1]s's runs leave the viewer out; drop -%[1]s to measure it at -agents, or drop -debugview", name)
		}
	}
	if set["serve"] {
		for _, name := range reportModes {
			if set[name] {
				return fmt.Errorf("-serve and -%s cannot be used together: -serve runs the scenario in real time until interrupted and reports nothing; drop -%[1]s, or drop -serve to run the benchmark", name)
			}
		}
		if set["debugview"] {
			return fmt.Errorf("-serve and -debugview cannot be used together: -serve adds the viewer already, and -debugview measures the viewer's cost in a timed run; drop -debugview to watch, or drop -serve to measure")
		}
	}
	return nil
}

// sweepReplaces are the sweeps' lists and the single-run flag each replaces: with
// -sweep (also -compare's) no run has -agents agents, with -sweep-workers none has
// -workers workers, so giving both is a usage error rather than one silently ignored.
var sweepReplaces = []struct{ sweep, single, what string }{
	{"sweep", "agents", "agent counts"},
	{"sweep-workers", "workers", "worker counts"},
}

// compareFlags are the flags -compare uses besides itself; mergeFlags those -merge uses.
var (
	compareFlags = []string{"compare", "agents", "sweep", "seed", "map", "json", "quiet"}
	mergeFlags   = []string{"merge", "json", "md", "plot", "quiet"}
)

// onlyFlags returns a usage error, what followed by "drop" and the flags given
// (in set) that are not in use, or nil if every flag given is in use.
func onlyFlags(set map[string]bool, use []string, what string) error {
	var drop []string
	for name := range set {
		if !slices.Contains(use, name) {
			drop = append(drop, "-"+name)
		}
	}
	if len(drop) == 0 {
		return nil
	}
	slices.Sort(drop)
	return fmt.Errorf("%s: drop %s", what, strings.Join(drop, ", "))
}

// checkMergeFlags rejects, with -merge, every flag given that the merge would
// ignore: it runs nothing, so only -json, -md, -plot and -quiet apply. A usage
// error (exit 2) before any file is read.
func checkMergeFlags(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["merge"] {
		return nil
	}
	return onlyFlags(set, mergeFlags, "-merge joins the reports saved in the files given and runs nothing; it takes -json, -md, -plot and -quiet")
}

// checkSwallowedFlags rejects a flag that takes a value but was given the next
// flag instead (-debugview -md out.md reads as -debugview "-md" and a stray
// argument out.md): the message names both flags, not the stray argument.
func checkSwallowedFlags(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		v := f.Value.String()
		if err != nil || !strings.HasPrefix(v, "-") {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			return
		}
		name, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
		if fs.Lookup(name) == nil {
			return
		}
		if f.Name == "debugview" {
			err = fmt.Errorf("-debugview needs a value, off or on; it took the next flag, -%s, as its value: write -debugview on (or off) before -%[1]s", name)
			return
		}
		err = fmt.Errorf("-%s needs a value; it took the next flag, -%s, as its value: write -%[1]s VALUE before -%[2]s", f.Name, name)
	})
	return err
}

// scenFlags are the flags -scen uses besides itself: it checks A* and JPS against a
// MovingAI scenario on the map named in it, and prints a text report.
var scenFlags = []string{"scen", "quiet"}

// checkScenFlags rejects, with -scen FILE, every flag given that the scenario check
// would ignore (every flag but -scen and -quiet: -json, since its report is text only,
// and the crowd's, the report modes' and the viewer's flags): a usage error (exit 2)
// before anything runs, as -scenario reference refuses the flags it would ignore. A
// flag is given if it is on the command line, even at its default value.
func checkScenFlags(fs *flag.FlagSet) error {
	if fs.Lookup("scen").Value.String() == "" {
		return nil
	}
	var ignored []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(scenFlags, f.Name) {
			ignored = append(ignored, "-"+f.Name)
		}
	})
	if len(ignored) == 0 {
		return nil
	}
	return fmt.Errorf("-scen checks A* and JPS against the scenario's queries on the map it names and prints a text report; it takes no flag but -quiet: drop %s", strings.Join(ignored, ", "))
}

// checkReferenceFlags rejects, for -scenario reference, the flags the reference loop
// (package cmd/bench/reference, a plain loop without Arche) would ignore:
//
//   - -save and -save-at: there is no Arche world to save (nothing was written, exit 0);
//   - -load: a save file continues a guards or swarm run, whose scenario it records;
//   - -debugview: there is no scheduler to add the viewer's system to;
//   - -lod true or -think-budget other than 0: the loop does not think;
//   - -avoid other than separation: the loop always separates with a force;
//   - -ratio: it would compare the loop with itself (with -sweep this was found only
//     once the sweep ran, exit 1).
//
// Checked elsewhere, also as usage errors: -map-size and -sectors
// (mapsize.go), -serve (serve.go), -tutorial (sweep.go). The loop uses -agents, -frames,
// -seed, -map, -workers, -json and -quiet, and runs in -sweep, -sweep-workers, -shard,
// -md and -plot reports.
func checkReferenceFlags(set map[string]bool, value func(string) string) error {
	const ref = "the reference loop (-scenario reference) runs without Arche"
	switch {
	case set["save"] || set["save-at"]:
		return fmt.Errorf("-save: %s and has no world to save; save a guards or swarm run", ref)
	case set["load"]:
		return fmt.Errorf("-load continues a saved guards or swarm run, whose scenario the file records; leave out -scenario reference")
	case value("debugview") != "":
		return fmt.Errorf("-debugview adds the live debugger's system to a scenario's world; %s and has none", ref)
	case value("lod") != "false" || value("think-budget") != "0":
		return fmt.Errorf("-lod and -think-budget apply to the guard scenario; the reference loop does not think")
	case value("avoid") != "separation":
		return fmt.Errorf("-avoid %s applies to the guard and swarm scenarios; the reference loop always separates with a force", value("avoid"))
	case value("ratio") == "true":
		return fmt.Errorf("-ratio compares a guards or swarm run with the reference loop; -scenario reference runs the loop alone: drop -ratio, or choose -scenario guards or swarm")
	}
	return nil
}

// outputFiles are the flags that name a file the run writes, the endings their
// names take (any case; none: any name) and what is written.
var outputFiles = []struct {
	flag  string
	exts  []string
	holds string
}{
	{"save", []string{".json"}, "a save file is JSON"},
	{"md", []string{".md", ".markdown"}, "the table is Markdown"},
	{"plot", []string{".png"}, "the plot is a PNG image"},
	{"cpuprofile", nil, "any name"}, // profile.go; created before the run
	{"memprofile", nil, "any name"},
}

// checkOutputFiles returns an error for an output file (-save, -md, -plot) that cannot
// be written where it is put: its name does not end as its format does (see
// outputFiles), its directory does not exist, is not one or may not be written, the
// name is a directory, or the file exists and may not be written. A name that exists
// and is not a regular file (a device such as /dev/null, a pipe) is written as it
// is. Nothing is created. They are written after the run (-save after frame
// -save-at, -md and -plot after the last point of a sweep, which may take hours):
// found out only then, the run was lost. (-json prints to stdout; there is no
// file to check.)
func checkOutputFiles(fs *flag.FlagSet) error {
	for _, out := range outputFiles {
		path := fs.Lookup(out.flag).Value.String()
		if path == "" {
			continue
		}
		st, err := os.Stat(path)
		switch {
		case err == nil && st.IsDir():
			return fmt.Errorf("-%s %s is a directory; give a file name", out.flag, path)
		case err == nil && !st.Mode().IsRegular():
			continue
		}
		if ext := filepath.Ext(path); len(out.exts) > 0 && !slices.ContainsFunc(out.exts, func(e string) bool { return strings.EqualFold(e, ext) }) {
			return fmt.Errorf("-%s %s: want a file name ending in %s (%s)", out.flag, path, strings.Join(out.exts, " or "), out.holds)
		}
		if err == nil {
			if err := writable(path); err != nil {
				return fmt.Errorf("-%s %s: the file exists and is not writable: %w", out.flag, path, err)
			}
			continue
		}
		dir := filepath.Dir(path)
		st, err = os.Stat(dir)
		switch {
		case err != nil:
			return fmt.Errorf("-%s %s: its directory cannot be used: %w", out.flag, path, err)
		case !st.IsDir():
			return fmt.Errorf("-%s %s: %s is not a directory", out.flag, path, dir)
		}
		if err := writable(dir); err != nil {
			return fmt.Errorf("-%s %s: its directory %s is not writable: %w", out.flag, path, dir, err)
		}
	}
	return nil
}

// checkProfileFiles returns a usage error for a -cpuprofile or -memprofile naming
// the file of another flag (-map, -load, -save, -md, -plot, the other profile): a
// profile's file is created, so emptied, before the run, so the map or the save it
// named was lost (a map so named was exit 2 with the map gone; a -load file so named
// ran and was overwritten), and two outputs in one file left only the last written
// (-cpuprofile F -memprofile F: exit 0, no CPU profile). A name that exists and is
// not a regular file (/dev/null) may be shared, as checkOutputFiles writes it as it is.
func checkProfileFiles(fs *flag.FlagSet) error {
	for _, prof := range []string{"cpuprofile", "memprofile"} {
		path := fs.Lookup(prof).Value.String()
		if path == "" {
			continue
		}
		for _, other := range []string{"map", "load", "save", "md", "plot", "cpuprofile", "memprofile"} {
			if o := fs.Lookup(other).Value.String(); other != prof && o != "" && sameFile(path, o) {
				return fmt.Errorf("-%s %s names the file of -%s: the profile would overwrite it; give the profile a file of its own", prof, path, other)
			}
		}
	}
	return nil
}

// sameFile reports whether the names a and b are one regular file (or one name of
// no file yet): the same name cleaned, or files os.SameFile finds alike.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	if errA == nil && !sa.Mode().IsRegular() {
		return false // a device or a pipe, written as it is
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// checkInputFiles returns a usage error (exit 2) for a -map that cannot be loaded as a
// MovingAI map (missing, unreadable or not a map), before anything runs: found by the
// run, it was exit 1, as if the run had failed, and a sweep had set up nothing for
// it. The map is read once more by the run. -scen, -load and -merge check their
// files where they read them (scen.go, saveload.go, sweep.go), also as usage errors.
func checkInputFiles(fs *flag.FlagSet) error {
	path := fs.Lookup("map").Value.String()
	if path == "" {
		return nil
	}
	if _, err := grid.LoadMap(path); err != nil {
		return mapFileError("-map", path, err)
	}
	return nil
}

// mapFileError returns err, the error of loading the map file path named by where
// (the flag -map, or a save file's meta.map_file), prefixed by where and the path;
// when path is a MovingAI scenario rather than its map, it says so instead (the map
// parser says only that "version 1" is not a header line), as scenarioError does for
// a map given to -scen.
func mapFileError(where, path string, err error) error {
	queries, serr := grid.LoadScenario(path)
	if serr != nil || len(queries) == 0 {
		return fmt.Errorf("%s %s: %w", where, path, err)
	}
	hint := fmt.Sprintf("a .map file (its queries are on %s)", queries[0].Map)
	beside := filepath.Join(filepath.Dir(path), filepath.Base(queries[0].Map))
	if st, serr := os.Stat(beside); serr == nil && st.Mode().IsRegular() {
		hint = beside + ", beside it"
	}
	return fmt.Errorf("%s %s looks like a MovingAI .map.scen file (it reads as a scenario of %d queries); %s wants the map, %s", where, path, len(queries), where, hint)
}

// checkRepeatedFlags returns a usage error (exit 2) for a flag given more than once in
// args, naming it and every value given: Go's flag package keeps the last value
// silently, so -scen a.map.scen -scen b.map.scen checked only b. Every flag of
// cmd/bench takes one value, so this holds for all of them, here in one place. args
// are scanned as fs parses them, past -merge's files (arguments that do not start
// with "-") up to "--"; a malformed command line is left to fs.Parse's own error.
func checkRepeatedFlags(fs *flag.FlagSet, args []string) error {
	given := map[string][]string{}
	var order []string
	scan := flag.NewFlagSet("", flag.ContinueOnError)
	scan.SetOutput(io.Discard)
	scan.Usage = func() {}
	fs.VisitAll(func(f *flag.Flag) {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		scan.Var(&givenValue{name: f.Name, isBool: ok && b.IsBoolFlag(), given: given, order: &order}, f.Name, "")
	})
	for len(args) > 0 {
		if scan.Parse(args) != nil {
			return nil
		}
		rest := scan.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			break
		}
		for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			rest = rest[1:]
		}
		args = rest
	}
	for _, name := range order {
		if vs := given[name]; len(vs) > 1 {
			quoted := make([]string, len(vs))
			for i, v := range vs {
				quoted[i] = strconv.Quote(v)
			}
			return fmt.Errorf("-%s is given %d times (%s): give each flag once", name, len(vs), strings.Join(quoted, ", "))
		}
	}
	return nil
}

// givenValue records each value given to flag name, in given, and the names in
// the order first given, in order.
type givenValue struct {
	name   string
	isBool bool
	given  map[string][]string
	order  *[]string
}

func (v *givenValue) String() string   { return "" }
func (v *givenValue) IsBoolFlag() bool { return v.isBool }
func (v *givenValue) Set(s string) error {
	if len(v.given[v.name]) == 0 {
		*v.order = append(*v.order, v.name)
	}
	v.given[v.name] = append(v.given[v.name], s)
	return nil
}
