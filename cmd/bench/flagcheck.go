package main

import (
	"flag"
	"fmt"
	"slices"
)

// scenarios are the values of -scenario.
var scenarios = []string{"guards", "swarm", "reference"}

// checkFlagUse rejects flags whose value is out of range for every mode, and
// flags that the chosen mode would silently ignore: an unknown -scenario, a
// negative -workers, a -save-at below 1, -json with -scen (its report is text only), -speed
// without -serve, and -frames or -json with -serve (it runs until
// interrupted and prints no report). Each error is a usage error (exit 2).
func checkFlagUse(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	value := func(name string) string { return fs.Lookup(name).Value.String() }
	if s := value("scenario"); !slices.Contains(scenarios, s) {
		return fmt.Errorf("unknown scenario %q (guards, swarm or reference)", s)
	}
	if w := value("workers"); len(w) > 0 && w[0] == '-' {
		return fmt.Errorf("-workers %s: want 0 (GOMAXPROCS) or a positive number of goroutines", w)
	}
	if n := value("save-at"); set["save-at"] && (n == "0" || n[0] == '-') {
		return fmt.Errorf("-save-at %s is out of range: it counts frames since the start of the run, 1 or more (up to -frames)", n)
	}
	if set["scen"] && set["json"] {
		return fmt.Errorf("-scen prints a text report only; drop -json")
	}
	if value("serve") == "" {
		if set["speed"] {
			return fmt.Errorf("-speed paces -serve's real-time run; without -serve the benchmark runs as fast as it can")
		}
		return nil
	}
	for _, name := range []string{"frames", "json"} {
		if set[name] {
			return fmt.Errorf("-serve runs until interrupted and prints no report; drop -%s", name)
		}
	}
	return nil
}
