// Package grid holds dense cost grids, MovingAI benchmark IO and grid A*.
//
// It is the bottom of archai's path layer: flow fields and the path request
// queue build on it. It knows nothing about Arche.
//
// # Coordinates
//
// A [Cell] is (X, Y): X the column in [0, width), Y the row in [0, height),
// row 0 being the first line of a map file. Continuous positions (r2.Vec) are
// in cells: cell (x, y) covers [x, x+1)×[y, y+1) and its centre is
// (x+0.5, y+0.5); see [Grid.CellAt] and [Grid.Center].
//
// # Types
//
//   - [Grid]: row-major per-cell costs, the cost of entering a cell (1 =
//     normal, [Blocked] = impassable), at most [MaxCells] cells; [NewChecked]
//     makes one from sizes that come from data ([ErrInvalidSize],
//     [ErrTooLarge]), [New] from sizes known to be valid. [Grid.SetCost] edits it ([Grid.TrySetCost]
//     for cells and costs from level data: [ErrOutOfBounds], [ErrInvalidCost]) and bumps
//     [Grid.Version], remembering the cell for [Grid.EditedSince] (a [Rect]) and
//     [Grid.EditsSince], so caches invalidate only what crosses an edit;
//     [Grid.Clearance] is each cell's distance to the nearest wall, which
//     [Options.Clearance] ([ClearanceFor] a radius) uses to route wide agents;
//     [Grid.Connected] answers reachability in O(1) from
//     lazily computed connected components; [Grid.LineOfSight] walks a
//     segment through the cells. [GenerateTown] makes a seeded town map (the
//     benchmark's: border, buildings, broken walls, one connected open area).
//   - [Search]: a reusable A* or jump point search over one grid, configured
//     by [Options] (4- or 8-connected [Moves], octile/Manhattan/Euclidean
//     [Heuristic] or a caller's admissible function, weighted A*, jump
//     points; [Options.Validate]). [Search.Path] returns an exact shortest
//     path and its cost, or [ErrBadOptions], [ErrOutOfBounds], [ErrBlocked],
//     [ErrNotUniform], [ErrUnreachable];
//     [Search.Start], [Search.Step] and [Search.Result] slice one search over
//     frames with a budget of node expansions. It allocates nothing per
//     query in steady state. On uniform-cost grids (every MovingAI map) it
//     runs on integer costs (2378 and 3363, a convergent of √2) with a
//     bucket open list (Dial 1969), one byte of allowed moves and one word
//     of state per cell; A* skips the moves a node's parent already offered
//     at no greater cost (canonical successors, which change no expansion),
//     and jump point search reads bitsets and precomputed jump bits and
//     diagonal runs and expands diagonal jump points of unchanged f without
//     queueing them; see [Search].
//   - [Smooth]: shortens a path to any-angle waypoints by line of sight.
//   - [Query]: one problem of a MovingAI scenario file.
//   - [ReadMap], [LoadMap], [ReadScenario], [LoadScenario]: MovingAI IO.
//     Bad files are errors naming file and line, never a panic; memory
//     grows with the rows read, not with a header's claim (fuzzed by
//     FuzzReadMap and FuzzReadScenario).
//
// # Moves and costs
//
// Moves are 8-connected unless [Options] asks for 4. A straight move costs the cost of the entered cell; a
// diagonal move costs √2 times it, and is allowed only when both orthogonal
// cells beside it are passable (no corner cutting). This is the rule of the
// MovingAI benchmarks and the Grid-Based Path Planning Competition, so on
// unit-cost maps [Search.Path] reproduces the optimal lengths of the .scen
// files. [Grid.LineOfSight] applies the same rule to segments through a
// corner.
//
// # Sources
//
//   - P. E. Hart, N. J. Nilsson, B. Raphael, "A Formal Basis for the Heuristic
//     Determination of Minimum Cost Paths", IEEE Transactions on Systems
//     Science and Cybernetics 4(2), 1968 (A*).
//   - N. R. Sturtevant, "Benchmarks for Grid-Based Pathfinding", IEEE
//     Transactions on Computational Intelligence and AI in Games 4(2), 2012;
//     formats at https://movingai.com/benchmarks/formats.html.
//   - D. Harabor, A. Grastien, "Online Graph Pruning for Pathfinding on Grid
//     Maps", AAAI 2011 (jump point search); "Improving Jump Point Search",
//     ICAPS 2014 (the no-corner-cutting rules, block-based scans, pruning
//     intermediate jump points).
//   - N. R. Sturtevant, S. Rabin, "Canonical Orderings on Grids", IJCAI
//     2016 (canonical successors).
//   - R. B. Dial, "Algorithm 360: Shortest-Path Forest with Topological
//     Ordering", Communications of the ACM 12(11), 1969 (bucket queue).
//   - I. Pohl, "Heuristic Search Viewed as Path Finding in a Graph",
//     Artificial Intelligence 1(3), 1970 (weighted A*).
//   - J. Amanatides, A. Woo, "A Fast Voxel Traversal Algorithm for Ray
//     Tracing", Eurographics 1987 (line of sight).
package grid
