package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// wideSearches holds the path queue's searches by clearance: the queue's
// own search for clearance 1 (any agent of radius ≤ 0.5 cells), and one
// more per larger clearance asked for, made on first use (each keeps its
// own mirror of the grid, about 9 bytes per cell).
type wideSearches struct {
	narrow *grid.Search
	more   []wideSearch // few: one per distinct clearance, in order of first use
}

type wideSearch struct {
	clear  uint8
	search *grid.Search
}

// initWide remembers the queue's search as the one for clearance 1, and maps
// the requesters' Kinematics for clearanceOf.
func (s *PathQueue) initWide(w *arche.World) {
	s.wide = wideSearches{narrow: s.search}
	s.kin = generic.NewMap1[components.Kinematics](w)
}

// clearanceOf returns the clearance of e's requests: grid.ClearanceFor its
// Kinematics.Radius, or 1 without Kinematics.
func (s *PathQueue) clearanceOf(e arche.Entity) uint8 {
	k := s.kin.Get(e)
	if k == nil {
		return 1
	}
	return grid.ClearanceFor(k.Radius)
}

// searchFor returns the search for clearance c, making it on first use.
func (v *pathServer) searchFor(c uint8) *grid.Search {
	if c <= 1 {
		return v.wide.narrow
	}
	for _, ws := range v.wide.more {
		if ws.clear == c {
			return ws.search
		}
	}
	opt := v.options
	opt.Clearance = c
	ws := wideSearch{clear: c, search: grid.NewSearchOptions(v.grid, opt)}
	v.wide.more = append(v.wide.more, ws)
	return ws.search
}
