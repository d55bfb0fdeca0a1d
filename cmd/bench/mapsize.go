package main

import (
	"fmt"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/grid"
)

// The -map-size and -sectors flags (issue 13): a generated map of any side,
// and sector flow fields for the swarm on big maps.

// SectorAutoSide is the map side beyond which the swarm uses sector flow
// fields when -sectors is left at -1: whole-grid fields up to 1024² cells.
const SectorAutoSide = 1024

// generatedMap returns the generated map for cfg: nil (the scenario
// generates its MapSizeFor(agents) map) unless -map-size is set, and the
// map's side.
func generatedMap(cfg crowdConfig) (*grid.Grid, int, error) {
	if cfg.MapSize == 0 {
		return nil, scenario.MapSizeFor(cfg.Agents), nil
	}
	if err := mapSizeRange(cfg.MapSize); err != nil {
		return nil, 0, err
	}
	return scenario.GenerateMap(cfg.MapSize, cfg.Seed), cfg.MapSize, nil
}

// mapSizeRange rejects a -map-size other than 0 outside 16 to 8192 cells.
func mapSizeRange(n int) error {
	if n != 0 && (n < 16 || n > 8192) {
		return fmt.Errorf("-map-size %d: want 16 to 8192 cells (0: grows with -agents)", n)
	}
	return nil
}

// sectorSide returns the sector side of the swarm's flow fields: -sectors,
// or with -1, DefaultSectorSide on maps with a side over SectorAutoSide and 0
// (whole-grid fields) on smaller ones; g is the map, or nil for the
// scenario's generated MapSizeFor(agents) map.
func sectorSide(cfg crowdConfig, g *grid.Grid) int {
	if cfg.Sectors >= 0 {
		return cfg.Sectors
	}
	side := scenario.MapSizeFor(cfg.Agents)
	if g != nil {
		side = max(g.Width(), g.Height())
	}
	if side > SectorAutoSide {
		return DefaultSectorSide
	}
	return 0
}

// DefaultSectorSide is the sector side -sectors -1 picks on big maps.
const DefaultSectorSide = 64

// checkMapSize rejects -map-size where it would be ignored: with -map (the
// map is the file's) and with the reference loop (-scenario reference or
// -ratio), whose map grows with -agents. It also checks -sectors (see
// checkSectors).
func checkMapSize(cfg crowdConfig, ratio bool) error {
	if err := checkSectors(cfg); err != nil {
		return err
	}
	if cfg.MapSize == 0 {
		return nil
	}
	if err := mapSizeRange(cfg.MapSize); err != nil { // a usage error, before anything is built
		return err
	}
	if cfg.MapFile != "" {
		return fmt.Errorf("-map-size sets the generated map's side; -map %s loads a map instead", cfg.MapFile)
	}
	if ratio || cfg.Scenario == "reference" {
		return fmt.Errorf("-map-size is not supported by the reference loop (-scenario reference, -ratio), whose map grows with -agents")
	}
	return nil
}

// MinSectorSide and MaxSectorSide bound -sectors N (systems.FlowField.Sectors
// panics at Initialize outside them).
const (
	MinSectorSide = 4
	MaxSectorSide = 256
)

// checkSectors rejects a -sectors the run cannot use: a side other than -1
// (automatic), 0 (whole-grid fields) or 4 to 256 cells, and any -sectors
// other than the default -1 with a scenario other than the swarm, which
// would ignore it.
func checkSectors(cfg crowdConfig) error {
	if cfg.Sectors != -1 && cfg.Sectors != 0 && (cfg.Sectors < MinSectorSide || cfg.Sectors > MaxSectorSide) {
		return fmt.Errorf("-sectors %d: want -1 (automatic: %d on maps over %d cells a side), 0 (whole-grid fields) or a sector side of %d to %d cells",
			cfg.Sectors, DefaultSectorSide, SectorAutoSide, MinSectorSide, MaxSectorSide)
	}
	if cfg.Sectors != -1 && cfg.Scenario != "swarm" {
		return fmt.Errorf("-sectors applies to the swarm scenario (its flow fields); -scenario %s has none", cfg.Scenario)
	}
	return nil
}
