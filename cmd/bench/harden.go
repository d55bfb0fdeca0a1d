package main

import (
	"fmt"

	"github.com/archai-go/archai/cmd/bench/scenario"
)

// Checks of run settings from flags and save files (-agents, -sweep, -think-budget,
// a save's meta) that would otherwise panic or overflow later, each an error naming
// the flag or the file.

// checkCrowd returns an error for settings of cfg (after -load has filled it from the
// file's meta) that no run can use: a crowd whose generated map would exceed
// grid.MaxCells (more than scenario.MaxAgents agents with neither -map nor -map-size;
// also each count of sweep, the -sweep list) or a negative -think-budget.
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
	if cfg.MapFile != "" || cfg.MapSize != 0 {
		return nil // the map does not grow with the crowd
	}
	if err := scenario.CheckAgents(cfg.Agents); err != nil {
		return fmt.Errorf("%s: %w (or give -map or -map-size)", where("agents"), err)
	}
	if sweep == "" {
		return nil
	}
	counts, err := parseCounts("-sweep", sweep, cfg.Agents)
	if err != nil {
		return nil // parseCounts' own error is reported where the sweep runs
	}
	for _, n := range counts {
		if err := scenario.CheckAgents(n); err != nil {
			return fmt.Errorf("-sweep: %w (or give -map or -map-size)", err)
		}
	}
	return nil
}
