package scenario

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// DefaultMapSize is the side of the generated default map for up to 10,000
// agents, in cells.
const DefaultMapSize = 256

// MapSizeFor returns the side of the generated map for a crowd of agents:
// DefaultMapSize up to 10,000 agents, and beyond that growing with the square
// root of the crowd (in steps of 64 cells), so the density stays about 0.15
// agents per cell: 832×832 for 100,000 agents.
func MapSizeFor(agents int) int {
	if agents <= 10000 {
		return DefaultMapSize
	}
	side := float64(DefaultMapSize) * math.Sqrt(float64(agents)/10000)
	return int(math.Ceil(side/64)) * 64
}

// MaxAgents is the largest crowd whose generated map (MapSizeFor) fits in a grid:
// 10,240,000 agents get an 8192×8192 map, grid.MaxCells cells.
const MaxAgents = (8192 / DefaultMapSize) * (8192 / DefaultMapSize) * 10000

// CheckAgents returns an error if the generated map of a crowd of agents
// (MapSizeFor) would have more than grid.MaxCells cells: more than MaxAgents
// agents. The scenarios' constructors call it before generating their map; a
// program with a map of its own (Config.Grid) is not bound by it.
func CheckAgents(agents int) error {
	if agents > MaxAgents {
		side := float64(DefaultMapSize) * math.Sqrt(float64(agents)/10000)
		return fmt.Errorf("%d agents: their generated map would be about %.0f×%.0f cells, more than the %d cells of a grid (grid.MaxCells); at most %d agents on a generated map",
			agents, side, side, grid.MaxCells, MaxAgents)
	}
	return nil
}

// generateFor returns the map generated for agents and seed, or CheckAgents' error.
func generateFor(agents int, seed uint64) (*grid.Grid, error) {
	if err := CheckAgents(agents); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return GenerateMap(MapSizeFor(agents), seed), nil
}

// GenerateMap returns a size×size (at least 16×16) town map generated from seed:
// [grid.GenerateTown], the public generator, which made the scenarios' maps
// before it moved to nav/grid (the same maps, hence the same state hashes).
//
// Panics: if size² exceeds grid.MaxCells (size > 8192); check a crowd with
// CheckAgents before GenerateMap(MapSizeFor(agents), seed), or call
// grid.GenerateTown, which returns the error.
func GenerateMap(size int, seed uint64) *grid.Grid {
	g, err := grid.GenerateTown(size, seed)
	if err != nil {
		panic("scenario: " + err.Error())
	}
	return g
}
