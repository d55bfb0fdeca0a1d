// Package spatial answers neighbour and range queries over many moving points.
//
// It serves steering (separation, alignment, cohesion) and perception, where
// every agent asks "who is within r of me?" every frame for 10k–100k agents.
// It knows nothing about Arche: items are int32 IDs chosen by the caller
// (typically a dense agent index) with r2.Vec positions.
//
// # Types
//
//   - [Hash]: a uniform bucket grid rebuilt each frame. [Hash.Reset],
//     [Hash.Insert] for each agent, [Hash.Build] (a counting sort into flat
//     arrays), then any number of [Hash.Query] calls, which append the IDs
//     within a radius to a caller-owned slice in a deterministic order. In
//     steady state a frame allocates nothing.
//   - [Hash.BuildFrom]: the same rebuild from a slice of positions, split
//     over parts that a [Runner] (a pool of workers) may do at once, with the
//     same result for any number of parts. On an area with many more buckets
//     than items (a big map), it sorts by blocks of buckets, so its cost
//     follows the items, not the area.
//   - [Hash.Nearest]: the nearest item in range that a caller's test
//     accepts, visiting buckets nearest first and skipping those that cannot
//     hold a nearer item, so the test (a line of sight) runs for few items.
//
// Rebuilding from scratch each frame costs O(n + buckets) with [Hash.Build],
// O(n) with [Hash.BuildFrom], and avoids the
// bookkeeping of moving items between buckets; with the bucket side close to
// the query radius, a query reads at most 3×3 buckets.
//
// # Sources
//
//   - C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005,
//     ch. 7.1 (uniform grids) and 7.1.5 (storing grid contents in a flat
//     array with a counting sort).
package spatial
