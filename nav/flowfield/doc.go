// Package flowfield builds flow fields for many agents sharing a goal on a
// [grid.Grid], after E. Emerson, "Crowd Pathfinding and Steering Using Flow
// Field Tiles", Game AI Pro, chapter 23 (2013):
//
//  1. the cost field is the grid itself: the cost of entering each cell,
//     [grid.Blocked] for walls;
//  2. the integration field holds, per cell, the cost of the cheapest path
//     to the nearest goal cell, computed by Dijkstra's algorithm run
//     backwards from the goal cells (8-connected, a diagonal move costing √2
//     times the entered cell's cost, no corner cutting: the rules of
//     [grid.Search], so it equals the A* cost). On grids of at most 8
//     distinct costs the open list is one FIFO queue per move weight (exact:
//     see [Field.Step]), about 5× faster than a heap on 1024² grids; the
//     search works on a 4-byte value and a precomputed byte of legal moves
//     per cell over a grid padded with a blocked border, without branches
//     near walls;
//  3. the direction field names, per cell, the neighbour a path continues
//     to (the Dijkstra parent), so following it never cycles.
//
// # Types
//
//   - [Field]: one field over a grid. [Field.Build] computes it at once;
//     [Field.Start] and [Field.Step] spread the build over frames with a
//     budget of settled cells. [Field.Sample] turns a continuous position
//     into a steering direction; [Field.Next] and [Field.Integration] read
//     the fields per cell. [Field.SetClearance] builds it for agents wider
//     than a cell's half (the clearance rule of [grid.Options.Clearance]).
//
//   - [Cache]: fields keyed by goal cell and clearance ([Cache.GetWide]),
//     shared by every agent of that size heading there, with least-recently-used eviction, rebuilt when the grid's
//     [grid.Grid.Version] changes, and builds spread over frames by
//     [Cache.Update].
//
//   - [Sectors] and [SectorField]: sector flow fields for big maps
//     (Emerson's section 23.4, "flow field tiles"): the grid cut into
//     sectors with portals on their shared edges and a portal graph;
//     a goal's field is a search of that graph plus per-sector fields built
//     on demand, within a budget, and shared by every agent heading there.
//     Every cell has a direction as soon as the goal is set (along the
//     portal route where its sector is not built yet), and grid edits
//     rebuild only the sectors that depend on them. Sector fields are for
//     point agents: they have no clearance.
package flowfield
