package systems

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"gonum.org/v1/gonum/spatial/r2"
)

// foeIndex is Perception's own bucket grid over this frame's [Neighbours],
// split by team: an agent looks only at the buckets within its sight range
// of the teams other than its own, so a guard among seven guards to one
// intruder reads the intruders alone. It is rebuilt each frame from the
// Neighbours (a counting sort by (team class, bucket), counted and placed on
// the workers over contiguous ranges: the same index for any number of
// workers).
//
// The sort counts, clears and prefix-sums every key each frame, so the
// buckets are foeBucket cells wide unless that makes more than
// foeKeysPerAgent buckets an agent (a small crowd on a big map): their side
// is then doubled until it does not (see fit). On 4096² with 3,000 agents
// that is 32 cells, 16,384 buckets rather than 262,144.
//
// With more than maxFoeClasses teams in a frame every agent falls in one
// class, and the search skips its own team item by item. Otherwise a class
// holding more than half of the last build's agents is left out (dense) and
// searched in Neighbours.Hash (nearestDense).
type foeIndex struct {
	size, inv  float64 // bucket side in cells, and its inverse
	cols, rows int
	buckets    int
	w, h       int // the grid's size, in cells

	class   [256]int8 // team → class, -1 if the team has no agent this frame
	teams   []uint8   // class → team (one entry, unused, when mixed)
	mixed   bool      // one class holds every team
	nclass  int
	starts  []int32   // class·buckets + bucket → first item; one more at the end
	items   []foeItem // by (class, bucket), hash IDs ascending within a bucket
	keys    []int32   // per hash ID: its class·buckets + bucket
	counts  [][]int32 // per worker: items per key in its range, then its cursors
	phase   int       // 0: count, 1: place
	present [][256]bool
	teamOf  []uint8 // this frame's Neighbours.Teams, by hash ID
	neutral []bool  // by hash ID: an agent without a Faction, nobody's foe; nil when there is none

	// dense is the class left out of this frame's index (-1: none), whose agents a
	// search reads from the Spatial hash instead (nearestDense): a class holding more
	// than half of the last frame's agents, such as the guards among their intruders.
	// Its foes (the other teams' agents, the fewer) search it rarely, while counting
	// and placing it cost the most of the build. denseNext is the next frame's, set
	// as a build ends; tally is per worker: the agents of each class it counted.
	dense, denseNext int
	denseTeam        uint8
	tally            [][maxFoeClasses]int32
	hashIDs          []int32  // this frame's Neighbours.Hash, sorted: hash IDs
	hashPos          []r2.Vec // and positions
	hash             *spatial.Hash
}

// maxFoeClasses is the most teams kept apart in the index.
const maxFoeClasses = 4

// foeBucket is the side of the index's buckets, in cells: a sight range of 8
// cells reads 2 or 3 bucket rows of 2 or 3 buckets, one contiguous run per
// row. Buckets of 8 cells rather than 4: a quarter of the keys to count,
// clear and prefix-sum each frame, and fewer rows per search, for more
// agents tested per row; the answers do not depend on the side (the search
// is exact).
const foeBucket = 8.0

// foeKeysPerAgent and foeMinBuckets bound the buckets fit keeps per class:
// at most foeKeysPerAgent per agent, or foeMinBuckets, whichever is more.
// Variables only so tests can have fit pick wider buckets on small grids.
var (
	foeKeysPerAgent = 8
	foeMinBuckets   = 4096
)

// foeMaxBucket is the widest bucket side fit picks, in cells.
const foeMaxBucket = 1024.0

// foeItem is an agent in the index: its position (this frame's
// Neighbours.Positions) and hash ID, side by side so a search reads a
// bucket's items in one run instead of looking each position up by ID.
type foeItem struct {
	p  r2.Vec
	id int32
}

// foeCandidate is an agent in range and in the field of view, not yet known
// to be in line of sight: its squared distance, hash ID and position. Hash
// IDs follow entity IDs ([Spatial]), so the lower hash ID is the lower
// entity ID.
type foeCandidate struct {
	d2 float64
	id int32
	p  r2.Vec
}

// resize sizes the index to a w×h grid.
func (x *foeIndex) resize(w, h int, workers int) {
	x.w, x.h = w, h
	x.fit(math.MaxInt32)
	x.counts = make([][]int32, workers)
	x.present = make([][256]bool, workers)
	x.tally = make([][maxFoeClasses]int32, workers)
	x.dense, x.denseNext = -1, -1
	for t := range x.class {
		x.class[t] = -1 // no team known before the first build
	}
	x.teams, x.nclass, x.mixed = x.teams[:0], 0, false
}

// fit sets the bucket side for n agents: foeBucket, doubled while the grid
// would have more than max(foeKeysPerAgent·n, foeMinBuckets) buckets (and
// the side is below foeMaxBucket). The side is a power of two times
// foeBucket, so positions divide into buckets exactly; the answers do not
// depend on it (nearest is exact), only the work does: a small crowd on a
// big map counts keys by its agents, not by its cells.
func (x *foeIndex) fit(n int) {
	most := max(foeKeysPerAgent*n, foeMinBuckets)
	side := foeBucket
	for side < foeMaxBucket && int(math.Ceil(float64(x.w)/side))*int(math.Ceil(float64(x.h)/side)) > most {
		side *= 2
	}
	x.size, x.inv = side, 1/side
	x.cols = max(1, int(math.Ceil(float64(x.w)/side)))
	x.rows = max(1, int(math.Ceil(float64(x.h)/side)))
	x.buckets = x.cols * x.rows
}

// bucketOf returns the bucket column (or row) of coordinate v among n,
// clamped into the grid (positions outside fall in the border buckets).
func (x *foeIndex) bucketOf(v float64, n int) int {
	f := v * x.inv
	if !(f >= 0) {
		return 0
	}
	if f >= float64(n) {
		return n - 1
	}
	return int(f)
}

// classes finds the teams present (from the workers' present flags) and
// numbers them.
func (x *foeIndex) classes() {
	var seen [256]bool
	for w := range x.present {
		for t, ok := range x.present[w] {
			seen[t] = seen[t] || ok
		}
		x.present[w] = [256]bool{}
	}
	x.teams = x.teams[:0]
	x.dense, x.denseNext = -1, -1 // the classes are numbered afresh
	for t := range 256 {
		x.class[t] = -1
		if seen[t] {
			x.teams = append(x.teams, uint8(t))
		}
	}
	x.mixed = len(x.teams) > maxFoeClasses
	if x.mixed {
		for t := range 256 {
			x.class[t] = 0
		}
		x.nclass = 1
		return
	}
	for c, t := range x.teams {
		x.class[t] = int8(c)
	}
	x.nclass = len(x.teams)
}

// begin readies the index for nb's agents: it sizes its tables (on the
// calling goroutine, before the workers count).
func (x *foeIndex) begin(nb *Neighbours, workers int) {
	n := len(nb.Positions)
	x.fit(n)
	x.teamOf = nb.Teams
	x.dense, x.hash, x.hashIDs, x.hashPos = -1, nil, nil, nil
	if x.denseNext >= 0 && nb.Hash != nil {
		// the hash must hold this frame's agents, at these positions (Spatial
		// builds it from them); else every class is indexed
		if ids, pos := nb.Hash.Sorted(); len(ids) == n && len(pos) == n {
			x.dense, x.denseTeam = x.denseNext, x.teams[x.denseNext]
			x.hash, x.hashIDs, x.hashPos = nb.Hash, ids, pos
		}
	}
	x.keys = grow(x.keys, n)
	x.items = grow(x.items, n)
	keys := x.nclass * x.buckets
	for w := range workers {
		x.counts[w] = grow(x.counts[w], keys)
	}
}

// countChunk is the counting phase (with the current classes) of chunk w
// of workers over nb's hash IDs, the chunk ecs.Workers.Run gives w: it
// clears worker w's counts first. begin sized them.
func (x *foeIndex) countChunk(nb *Neighbours, w, workers int) {
	n := len(nb.Positions)
	clear(x.counts[w][:x.nclass*x.buckets])
	x.tally[w] = [maxFoeClasses]int32{}
	x.count1(nb, w, w*n/workers, (w+1)*n/workers)
}

// drop forgets a count that build will not finish: the teams it flagged.
func (x *foeIndex) drop() {
	for w := range x.present {
		x.present[w] = [256]bool{}
	}
}

// build indexes nb's agents; runOn(n) runs x.work over [0, n) on the
// workers.
func (x *foeIndex) build(nb *Neighbours, workers int, runOn func(n int)) {
	x.begin(nb, workers)
	x.finish(nb, workers, runOn, false)
}

// finish is build after begin. counted tells whether countChunk counted
// every chunk already (in a pass of the caller's).
func (x *foeIndex) finish(nb *Neighbours, workers int, runOn func(n int), counted bool) {
	n := len(nb.Positions)
	// Count with the last build's classes; an agent of a team that has no
	// class yet flags it (in present), and the teams are then found afresh
	// and counted again: a pass less in the usual frame. A class of a team
	// that left stays (its buckets are empty): the answers are the same.
	keys := x.nclass * x.buckets
	if !counted {
		keys = x.count(workers, n, runOn)
	}
	if x.unknownTeams() {
		x.phase = 0 // teams present: a light pass on the workers
		runOn(n)
		x.classes()
		keys = x.count(workers, n, runOn)
	}
	// prefix sums in (key, worker) order: the stable order of a serial sort
	x.starts = grow(x.starts, keys+1)
	x.starts[keys] = x.prefix(workers, keys)
	x.phase = 2
	runOn(n)
	// the next frame's dense class: one holding more than half of the agents
	x.denseNext = -1
	if !x.mixed {
		for c := range x.nclass {
			var k int64
			for w := range workers {
				k += int64(x.tally[w][c])
			}
			if 2*k > int64(n) {
				x.denseNext = c
			}
		}
	}
}

// prefix turns the workers' counts of keys [0, keys) into their cursors
// and sets the starts of the keys, in (key, worker) order; it returns the
// number of items. One and two workers, the usual cases, read their count
// slices directly rather than through x.counts per key.
func (x *foeIndex) prefix(workers, keys int) int32 {
	starts := x.starts[:keys]
	var run int32
	switch workers {
	case 1:
		c0 := x.counts[0][:keys]
		for k := range starts {
			starts[k] = run
			c := c0[k]
			c0[k] = run
			run += c
		}
	case 2:
		c0, c1 := x.counts[0][:keys], x.counts[1][:keys]
		for k := range starts {
			starts[k] = run
			a, b := c0[k], c1[k]
			c0[k], c1[k] = run, run+a
			run += a + b
		}
	default:
		for k := range starts {
			starts[k] = run
			for w := range workers {
				c := x.counts[w][k]
				x.counts[w][k] = run
				run += c
			}
		}
	}
	return run
}

// count runs the counting phase with the current classes and returns the
// number of keys.
func (x *foeIndex) count(workers, n int, runOn func(n int)) int {
	keys := x.nclass * x.buckets
	for w := range workers {
		x.counts[w] = grow(x.counts[w], keys)
		clear(x.counts[w])
		x.tally[w] = [maxFoeClasses]int32{}
	}
	x.phase = 1
	runOn(n)
	return keys
}

// unknownTeams reports whether the counting phase met a team without a
// class (flagged in present).
func (x *foeIndex) unknownTeams() bool {
	for w := range x.present {
		for _, ok := range x.present[w] {
			if ok {
				return true
			}
		}
	}
	return false
}

// work does the build's phase for hash IDs [lo, hi) on worker w.
func (x *foeIndex) work(nb *Neighbours, w, lo, hi int) {
	switch x.phase {
	case 0:
		pr := &x.present[w]
		for _, t := range nb.Teams[lo:hi] {
			pr[t] = true
		}
	case 1:
		x.count1(nb, w, lo, hi)
	case 2:
		// the index's slices in locals: stores to items and cursors would
		// otherwise have the compiler read x's fields again each agent
		cur, items := x.counts[w], x.items
		keys, pos := x.keys[lo:hi], nb.Positions[lo:hi]
		pos = pos[:len(keys)]
		for i, k := range keys {
			if k < 0 { // the dense class: not indexed (its position not read)
				continue
			}
			j := cur[k]
			cur[k]++
			items[j] = foeItem{p: pos[i], id: int32(lo + i)}
		}
	}
}

// count1 counts hash IDs [lo, hi) by key in worker w's counts (the
// counting phase).
func (x *foeIndex) count1(nb *Neighbours, w, lo, hi int) {
	// bucketOf written out over locals: stores to keys and counts would
	// otherwise have the compiler read x's fields again each agent
	cnt, class := x.counts[w], &x.class
	inv, cols, rows, buckets := x.inv, x.cols, x.rows, x.buckets
	dense := int8(x.dense)
	var tally [maxFoeClasses]int32
	fc, fr := float64(cols), float64(rows)
	keys, pos, teams := x.keys[lo:hi], nb.Positions[lo:hi], nb.Teams[lo:hi]
	keys, teams = keys[:len(pos)], teams[:len(pos)]
	for i, p := range pos {
		c := class[teams[i]]
		if c < 0 { // a team new to the index: found afresh (build)
			x.present[w][teams[i]] = true
			continue
		}
		tally[c&(maxFoeClasses-1)]++
		if c == dense {
			keys[i] = -1
			continue
		}
		bx, by := 0, 0
		if f := p.X * inv; f >= fc {
			bx = cols - 1
		} else if f >= 0 {
			bx = int(f)
		}
		if f := p.Y * inv; f >= fr {
			by = rows - 1
		} else if f >= 0 {
			by = int(f)
		}
		k := int32(int(c)*buckets + by*cols + bx)
		keys[i] = k
		cnt[k]++
	}
	for c := range tally {
		x.tally[w][c] += tally[c]
	}
}

// nearest returns the hash ID of the nearest agent to pos of a team other
// than team, not self (a hash ID; -1 for none), within radius
// (|p−pos| ≤ radius), inside the field of view (cosHalf of its half-angle
// around heading, of norm hn, or hn −1 to have it found as
// detmath.Hypot(heading.X, heading.Y) when first needed; cosHalf −2 sees all
// around) and in line of sight over g (sight.clear, else g.LineOfSight), its
// distance √(dx²+dy²) and its position (this frame's Neighbours.Positions);
// of agents at the same squared distance dx²+dy² (the order of the
// distances, without a square root per agent; it differs from theirs only
// where two squared distances round to one distance) the one with the
// lowest hash ID, which is the lowest entity ID. It returns -1 if none.
//
// The agent's own row of buckets is searched first, keeping only its
// nearest foe, whose line of sight is tested; if clear, its squared distance
// bounds the other rows (a row farther than that is skipped), which are
// searched for a foe nearer still, and that one's line is tested. When a
// line tested is blocked the search starts again keeping every candidate
// (nearestAll): 3.5% of the searches at 10,000 guards. Listing every
// candidate in range in every search (17 for an intruder among 100,000
// guards) cost Perception about 8% more instructions there (callgrind).
// cands is the worker's scratch buffer for nearestAll, returned grown.
func (x *foeIndex) nearest(pos r2.Vec, radius float64, team uint8, self int32, cosHalf float64, heading r2.Vec, hn float64,
	cands []foeCandidate, sight *openCells, g *grid.Grid) (int32, float64, r2.Vec, []foeCandidate) {
	id, d2, p, cands := x.nearestIndexed(pos, radius, team, self, cosHalf, heading, hn, cands, sight, g)
	return x.withDense(id, d2, p, pos, radius, team, self, cosHalf, heading, hn, cands, sight, g)
}

// nearestAll is nearest by nearestAllIndexed: the same answer (the tests compare
// them).
func (x *foeIndex) nearestAll(pos r2.Vec, radius float64, team uint8, self int32, cosHalf float64, heading r2.Vec, hn float64,
	cands []foeCandidate, sight *openCells, g *grid.Grid) (int32, float64, r2.Vec, []foeCandidate) {
	id, d2, p, cands := x.nearestAllIndexed(pos, radius, team, self, cosHalf, heading, hn, cands, sight, g)
	return x.withDense(id, d2, p, pos, radius, team, self, cosHalf, heading, hn, cands, sight, g)
}

// withDense returns the nearer (by squared distance, then hash ID) of the
// indexed classes' answer (id, d2, p; id −1 for none) and the dense class's
// (nearestDense), with its distance √d2. The nearest foe in sight of a union
// of classes is the nearer of each part's, so the answer is nearest's over
// every class.
func (x *foeIndex) withDense(id int32, d2 float64, p r2.Vec, pos r2.Vec, radius float64, team uint8, self int32, cosHalf float64,
	heading r2.Vec, hn float64, cands []foeCandidate, sight *openCells, g *grid.Grid) (int32, float64, r2.Vec, []foeCandidate) {
	if x.dense >= 0 && x.denseTeam != team && radius >= 0 && finiteVec(pos) {
		bound := radius * radius
		if id >= 0 {
			bound = d2 // no farther agent can be the answer
		}
		var b foeCandidate
		if b, cands = x.nearestDense(pos, radius, bound, self, cosHalf, heading, hn, cands, sight, g); b.id >= 0 &&
			(id < 0 || b.d2 < d2 || b.d2 == d2 && b.id < id) {
			id, d2, p = b.id, b.d2, b.p
		}
	}
	if id < 0 {
		return -1, 0, r2.Vec{}, cands
	}
	return id, math.Sqrt(d2), p, cands
}

// nearestDense returns the nearest agent of the dense class (by squared
// distance, then hash ID; id −1 for none) within bound (d2 ≤ bound) and
// radius of pos, not self, not a bystander, inside the field of view and in
// line of sight: the same tests as scanRow's, over the Spatial hash's buckets
// within radius (every agent within radius lies in them). It lists the
// candidates in cands and tests their lines nearest first (pick).
func (x *foeIndex) nearestDense(pos r2.Vec, radius, bound float64, self int32, cosHalf float64, heading r2.Vec, hn float64,
	cands []foeCandidate, sight *openCells, g *grid.Grid) (foeCandidate, []foeCandidate) {
	cands = cands[:0]
	none := foeCandidate{id: -1}
	x0, x1, y0, y1, ok := x.hash.Rows(pos, radius)
	if !ok {
		return none, cands
	}
	fov := cosHalf > -2
	team, neutral, teamOf := x.denseTeam, x.neutral, x.teamOf
	ids, hpos := x.hashIDs, x.hashPos
	best := -1
	bd2, bid := math.Inf(1), int32(math.MaxInt32)
	for y := y0; y <= y1; y++ {
		lo, hi := x.hash.RowSpan(y, x0, x1)
		for k := lo; k < hi; k++ {
			p := hpos[k]
			dx, dy := p.X-pos.X, p.Y-pos.Y
			d2 := sq2(dx, dy)
			if !(d2 <= bound) {
				continue
			}
			id := ids[k]
			if teamOf[id] != team || id == self || (neutral != nil && neutral[id]) {
				continue
			}
			if fov && d2 > 0 {
				if hn < 0 { // the heading's norm, found at the first agent it is needed for
					hn = detmath.Hypot(heading.X, heading.Y)
				}
				if float64(dx*heading.X)+float64(dy*heading.Y) < cosHalf*math.Sqrt(d2)*hn {
					continue
				}
			}
			if d2 < bd2 || (d2 == bd2 && id < bid) {
				best, bd2, bid = len(cands), d2, id
			}
			cands = append(cands, foeCandidate{d2: d2, id: id, p: p})
		}
	}
	if best < 0 {
		return none, cands
	}
	k, cands := pick(cands, best, pos, sight, g)
	if k < 0 {
		return none, cands
	}
	return cands[k], cands
}

// nearestIndexed is nearest over the classes in the index (every class but
// the dense one), returning the squared distance.
func (x *foeIndex) nearestIndexed(pos r2.Vec, radius float64, team uint8, self int32, cosHalf float64, heading r2.Vec, hn float64,
	cands []foeCandidate, sight *openCells, g *grid.Grid) (int32, float64, r2.Vec, []foeCandidate) {
	cands = cands[:0]
	if !(radius >= 0) || !finiteVec(pos) {
		return -1, 0, r2.Vec{}, cands
	}
	q := foeQuery{pos: pos, team: team, self: self, cosHalf: cosHalf, heading: heading, hn: hn,
		x0: x.bucketOf(pos.X-radius, x.cols), x1: x.bucketOf(pos.X+radius, x.cols), bound: radius * radius}
	for c := range x.nclass {
		if c != x.dense && (x.mixed || x.teams[c] != team) { // the dense class: nearestDense
			q.rows[q.nrows] = c * x.buckets
			q.nrows++
		}
	}
	y0, y1 := x.bucketOf(pos.Y-radius, x.rows), x.bucketOf(pos.Y+radius, x.rows)
	yc := x.bucketOf(pos.Y, x.rows) // within [y0, y1]: bucketOf is monotonic
	none := foeCandidate{d2: math.Inf(1), id: math.MaxInt32}
	seen := x.scanBest(&q, yc, none)
	if seen.id != none.id {
		if !sight.clear(pos, seen.p) && !g.LineOfSight(pos, seen.p) {
			return x.nearestAllIndexed(pos, radius, team, self, cosHalf, heading, q.hn, cands, sight, g)
		}
		q.bound = seen.d2 // no farther agent can be the answer
	}
	best := seen
	for by := y0; by <= y1; by++ {
		if by == yc {
			continue
		}
		// the row's nearest y to pos (its border rows hold the agents
		// beyond the grid too); no agent of a farther row is in the bound
		var dy float64
		if lo := float64(float64(by) * x.size); by > 0 && pos.Y < lo {
			dy = lo - pos.Y
		} else if hi := float64(float64(by+1) * x.size); by < x.rows-1 && pos.Y >= hi {
			dy = pos.Y - hi
		}
		if dy*dy > q.bound {
			continue
		}
		best = x.scanBest(&q, by, best)
	}
	switch {
	case best.id == none.id:
		return -1, 0, r2.Vec{}, cands
	case best.id != seen.id && !sight.clear(pos, best.p) && !g.LineOfSight(pos, best.p):
		return x.nearestAllIndexed(pos, radius, team, self, cosHalf, heading, q.hn, cands, sight, g)
	}
	return best.id, best.d2, best.p, cands
}

// nearestAllIndexed is nearestIndexed keeping every candidate of its own row, and of the
// others those as near as its own row's nearest in sight: it tests their
// lines of sight nearest first until one is clear (pick). nearest's answer
// whatever lines are blocked; nearest runs it when a line it tests is.
func (x *foeIndex) nearestAllIndexed(pos r2.Vec, radius float64, team uint8, self int32, cosHalf float64, heading r2.Vec, hn float64,
	cands []foeCandidate, sight *openCells, g *grid.Grid) (int32, float64, r2.Vec, []foeCandidate) {
	cands = cands[:0]
	if !(radius >= 0) || !finiteVec(pos) {
		return -1, 0, r2.Vec{}, cands
	}
	q := foeQuery{pos: pos, team: team, self: self, cosHalf: cosHalf, heading: heading, hn: hn,
		x0: x.bucketOf(pos.X-radius, x.cols), x1: x.bucketOf(pos.X+radius, x.cols), bound: radius * radius}
	for c := range x.nclass {
		if c != x.dense && (x.mixed || x.teams[c] != team) { // the dense class: nearestDense
			q.rows[q.nrows] = c * x.buckets
			q.nrows++
		}
	}
	y0, y1 := x.bucketOf(pos.Y-radius, x.rows), x.bucketOf(pos.Y+radius, x.rows)
	yc := x.bucketOf(pos.Y, x.rows) // within [y0, y1]: bucketOf is monotonic
	best, seen := 0, int32(-1)
	cands, best = x.scanRow(&q, yc, cands, best)
	if len(cands) > 0 {
		var k int
		if k, cands = pick(cands, best, pos, sight, g); k >= 0 {
			// the rest are farther (or as far with a higher ID)
			best, seen, q.bound = k, cands[k].id, cands[k].d2
		}
	}
	for by := y0; by <= y1; by++ {
		if by == yc {
			continue
		}
		// the row's nearest y to pos (its border rows hold the agents
		// beyond the grid too); no agent of a farther row is in the bound
		var dy float64
		if lo := float64(float64(by) * x.size); by > 0 && pos.Y < lo {
			dy = lo - pos.Y
		} else if hi := float64(float64(by+1) * x.size); by < x.rows-1 && pos.Y >= hi {
			dy = pos.Y - hi
		}
		if dy*dy > q.bound {
			continue
		}
		cands, best = x.scanRow(&q, by, cands, best)
	}
	if len(cands) == 0 {
		return -1, 0, r2.Vec{}, cands
	}
	if cands[best].id == seen {
		return seen, cands[best].d2, cands[best].p, cands
	}
	k, cands := pick(cands, best, pos, sight, g)
	if k < 0 {
		return -1, 0, r2.Vec{}, cands
	}
	return cands[k].id, cands[k].d2, cands[k].p, cands
}

// sees returns id, its squared distance from pos and its position (nb's, as
// the index holds it) if the agent of hash ID id is one that nearest could
// answer for these arguments: the same tests as nearest, scanBest and scanRow
// (within radius, not self, of another team, not a bystander, inside the
// field of view, in line of sight); else −1. id −1 (an agent not in this
// frame's Neighbours: removed, or spawned since) is not seen. Perception keeps
// a target with it (components.Perception.TargetMargin).
func (x *foeIndex) sees(nb *Neighbours, id int32, pos r2.Vec, radius float64, team uint8, self int32, cosHalf float64, heading r2.Vec,
	sight *openCells, g *grid.Grid) (int32, float64, r2.Vec) {
	if id < 0 || int(id) >= len(x.teamOf) || !(radius >= 0) || !finiteVec(pos) {
		return -1, 0, r2.Vec{}
	}
	p := nb.Positions[id]
	dx, dy := p.X-pos.X, p.Y-pos.Y
	d2 := sq2(dx, dy)
	if !(d2 <= radius*radius) || id == self || x.teamOf[id] == team || (x.neutral != nil && x.neutral[id]) {
		return -1, 0, r2.Vec{}
	}
	if cosHalf > -2 && d2 > 0 {
		hn := detmath.Hypot(heading.X, heading.Y)
		if float64(dx*heading.X)+float64(dy*heading.Y) < cosHalf*math.Sqrt(d2)*hn {
			return -1, 0, r2.Vec{}
		}
	}
	if !sight.clear(pos, p) && !g.LineOfSight(pos, p) {
		return -1, 0, r2.Vec{}
	}
	return id, d2, p
}

// foeQuery is what a search's row scans share.
type foeQuery struct {
	pos         r2.Vec
	team        uint8
	self        int32
	cosHalf, hn float64
	heading     r2.Vec
	x0, x1      int     // the bucket columns in range
	bound       float64 // the largest squared distance kept
	// rows[:nrows] are the first keys (class·buckets) of the classes read:
	// every class but the agent's team (the one class when mixed)
	rows  [maxFoeClasses]int
	nrows int
}

// scanRow appends the agents of bucket row by (columns x0..x1, every class
// but the agent's team) within the bound and the field of view to cands;
// best is the index of the nearest (by squared distance, then hash ID)
// among cands, before and after.
func (x *foeIndex) scanRow(q *foeQuery, by int, cands []foeCandidate, best int) ([]foeCandidate, int) {
	pos, bound, self := q.pos, q.bound, q.self
	fov, cosHalf, heading, hn := q.cosHalf > -2, q.cosHalf, q.heading, q.hn
	mixed, team, neutral := x.mixed, q.team, x.neutral
	// the nearest so far, kept in registers; an empty cands has none (every
	// kept d2 is ≤ bound, so +Inf with the largest ID loses to any)
	bd2, bid := math.Inf(1), int32(math.MaxInt32)
	if len(cands) > 0 {
		bd2, bid = cands[best].d2, cands[best].id
	}
	off := by*x.cols + q.x0
	width := q.x1 - q.x0 + 1
	for _, base := range q.rows[:q.nrows] {
		row := base + off
		run := x.items[x.starts[row]:x.starts[row+width]]
		for k := range run {
			it := &run[k]
			dx, dy := it.p.X-pos.X, it.p.Y-pos.Y
			d2 := sq2(dx, dy)
			if !(d2 <= bound) {
				continue
			}
			id := it.id
			if id == self || (mixed && x.teamOf[id] == team) || (neutral != nil && neutral[id]) {
				continue
			}
			if fov && d2 > 0 {
				if hn < 0 { // the heading's norm, found at the first agent it is needed for
					hn = detmath.Hypot(heading.X, heading.Y)
					q.hn = hn
				}
				if float64(dx*heading.X)+float64(dy*heading.Y) < cosHalf*math.Sqrt(d2)*hn {
					continue // the square root only with a field of view
				}
			}
			if d2 < bd2 || (d2 == bd2 && id < bid) {
				best, bd2, bid = len(cands), d2, id
			}
			cands = append(cands, foeCandidate{d2: d2, id: id, p: it.p})
		}
	}
	return cands, best
}

// scanBest returns the nearest (by squared distance, then hash ID) of b and
// the agents of bucket row by (columns x0..x1, every class but the agent's
// team) within the bound and the field of view: scanRow keeping only the
// nearest.
func (x *foeIndex) scanBest(q *foeQuery, by int, b foeCandidate) foeCandidate {
	pos, bound, self := q.pos, q.bound, q.self
	fov, cosHalf, heading, hn := q.cosHalf > -2, q.cosHalf, q.heading, q.hn
	mixed, team, neutral := x.mixed, q.team, x.neutral
	bd2, bid, bp := b.d2, b.id, b.p
	off := by*x.cols + q.x0
	width := q.x1 - q.x0 + 1
	for _, base := range q.rows[:q.nrows] {
		row := base + off
		run := x.items[x.starts[row]:x.starts[row+width]]
		for k := range run {
			it := &run[k]
			dx, dy := it.p.X-pos.X, it.p.Y-pos.Y
			d2 := sq2(dx, dy)
			if !(d2 <= bound) {
				continue
			}
			id := it.id
			if !(d2 < bd2 || (d2 == bd2 && id < bid)) {
				continue
			}
			if id == self || (mixed && x.teamOf[id] == team) || (neutral != nil && neutral[id]) {
				continue
			}
			if fov && d2 > 0 {
				if hn < 0 { // the heading's norm, found at the first agent it is needed for
					hn = detmath.Hypot(heading.X, heading.Y)
					q.hn = hn
				}
				if float64(dx*heading.X)+float64(dy*heading.Y) < cosHalf*math.Sqrt(d2)*hn {
					continue // the square root only with a field of view
				}
			}
			bd2, bid, bp = d2, id, it.p
		}
	}
	return foeCandidate{d2: bd2, id: bid, p: bp}
}

// pick tests the lines of sight from pos to cands nearest first (by squared
// distance, then hash ID; best is the nearest), removing those blocked, and
// returns the index of the first clear one (−1 if none) and cands.
func pick(cands []foeCandidate, best int, pos r2.Vec, sight *openCells, g *grid.Grid) (int, []foeCandidate) {
	for b := best; len(cands) > 0; {
		if p := cands[b].p; sight.clear(pos, p) || g.LineOfSight(pos, p) {
			return b, cands
		}
		last := len(cands) - 1
		cands[b] = cands[last]
		cands = cands[:last]
		b = 0
		for i := 1; i < len(cands); i++ {
			if cands[i].d2 < cands[b].d2 || (cands[i].d2 == cands[b].d2 && cands[i].id < cands[b].id) {
				b = i
			}
		}
	}
	return -1, cands
}
