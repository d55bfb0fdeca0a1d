// Package graph holds waypoint graphs for worlds that are not grids: points
// in the plane joined by weighted edges, stored in a gonum
// [simple.WeightedUndirectedGraph], with the nearest waypoint to a position
// found by a gonum k-d tree ([kdtree.Tree]) and shortest routes by A*.
//
// # Types and functions
//
//   - [Graph]: add waypoints ([Graph.AddWaypoint]) and edges
//     ([Graph.Connect], [Graph.ConnectCost]); query [Graph.Nearest],
//     [Graph.Path] between waypoints (cheapest also with edges cheaper
//     than their length, at the price of a weaker heuristic:
//     [Graph.HeuristicScale]) and [Graph.Route] between two positions. [Graph.Gonum] exposes the gonum graph for gonum's own
//     algorithms.
//   - [AStar]: A* on any gonum [graph.Weighted] graph that stays exact with
//     admissible but inconsistent heuristics.
//
// # Sources
//
//   - P. E. Hart, N. J. Nilsson, B. Raphael, "A Formal Basis for the
//     Heuristic Determination of Minimum Cost Paths", IEEE Transactions on
//     Systems Science and Cybernetics 4(2), 1968 (A*).
//   - A. Martelli, "On the Complexity of Admissible Search Algorithms",
//     Artificial Intelligence 8(1), 1977 (re-expansion under inconsistent
//     heuristics).
//   - J. L. Bentley, "Multidimensional Binary Search Trees Used for
//     Associative Searching", CACM 18(9), 1975 (k-d trees).
package graph
