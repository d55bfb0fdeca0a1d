package systems

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Combat applies the strikes the decision layer asked for: for each agent with
// a non-zero Intent.Attack, if the target is alive, has Health and is within
// the attacker's Weapon.Range, its health drops by Weapon.Damage. The request
// is cleared either way, so a strike happens once per request. A dead or
// removed target is ignored (Arche's Alive check), never dereferenced.
//
// Strikes are applied in the order of the attackers' entity IDs (a target
// whose health has reached 0 takes no further strike), so the outcome does
// not depend on Arche's storage order, which differs after a world is
// loaded. Workers goroutines (0: runtime.GOMAXPROCS) find the requests over
// contiguous ranges of the query (in crowds of 32,768 agents or more; one
// goroutine below); the result does not depend on their number. A warm frame allocates nothing.
//
// What happens to an agent whose health reaches 0 is the scenario's choice.
//
// Contract:
//
//	requires   Intent, Position, Weapon (attacker); Health, Position (target)
//	writes     Intent.Attack (cleared), the target's Health.Current
//	resources  none
//
//	absent or unusable             what Combat does                       Diagnose counts
//	Weapon                         opt-out: Intent.Attack is ignored      -
//	target without Health or       no strike                              -
//	  Position, dead, or self
type Combat struct {
	Workers int // goroutines finding the requests; 0 means runtime.GOMAXPROCS

	Strikes      int // strikes that hit in the last frame
	TotalStrikes int

	filter  *generic.Filter3[components.Intent, components.Position, components.Weapon]
	targets generic.Map2[components.Health, components.Position]
	pool    *ecs.Workers
	cols    columns
	n       int
	found   [][]int32 // per worker: query indices of this frame's attackers
	all     []attacker
}

// attacker is one request found this frame: the attacker's entity ID and
// query index.
type attacker struct {
	id uint32
	i  int32
}

// Column indices of Combat's columns.
const (
	cbIntent = iota
	cbPos
	cbWeapon
)

// Name implements ecs.Namer.
func (s *Combat) Name() string { return "combat" }

// Initialize builds the filter and starts the workers. Combat needs no
// resource.
func (s *Combat) Initialize(w *arche.World) {
	s.filter = generic.NewFilter3[components.Intent, components.Position, components.Weapon]()
	s.targets = generic.NewMap2[components.Health, components.Position](w)
	s.pool = ecs.NewWorkers(s.Workers)
	s.found = make([][]int32, s.pool.N())
	s.cols.column(arche.ComponentID[components.Intent](w), unsafe.Sizeof(components.Intent{}))
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Weapon](w), unsafe.Sizeof(components.Weapon{}))
}

// Update applies this frame's strikes.
func (s *Combat) Update(w *arche.World) {
	s.Strikes = 0
	q := s.filter.Query(w)
	s.n = q.Count()
	s.cols.scan(&q.Query)
	runLight(s.pool, s, s.n)
	if cap(s.all) < s.n { // every agent may strike: grown once
		s.all = make([]attacker, 0, s.n+s.n/4)
	}
	s.all = s.all[:0]
	for k := range s.found {
		for _, i := range s.found[k] {
			s.all = append(s.all, attacker{id: s.cols.ents[i].ID(), i: i})
		}
		s.found[k] = s.found[k][:0]
	}
	slices.SortFunc(s.all, func(a, b attacker) int { return cmp.Compare(a.id, b.id) })
	c := &s.cols
	for _, a := range s.all {
		i := int(a.i)
		r := c.run(i, 0)
		in := (*components.Intent)(c.at(r, cbIntent, i))
		pos := (*components.Position)(c.at(r, cbPos, i))
		wp := (*components.Weapon)(c.at(r, cbWeapon, i))
		target := in.Attack
		in.Attack = arche.Entity{}
		if target == c.ents[i] || !w.Alive(target) {
			continue
		}
		hp, tpos := s.targets.Get(target)
		if hp == nil || tpos == nil || hp.Current <= 0 || r2.Norm(r2.Sub(tpos.Vec, pos.Vec)) > wp.Range {
			continue
		}
		hp.Current -= wp.Damage
		s.Strikes++
	}
	s.TotalStrikes += s.Strikes
}

// Work implements ecs.Job: it notes the requests of the query's agents
// [lo, hi).
func (s *Combat) Work(worker, lo, hi int) {
	c := &s.cols
	found := s.found[worker]
	if cap(found) < hi-lo { // its whole range may strike: grown once
		found = make([]int32, 0, hi-lo+(hi-lo)/4)
	}
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		in := columnOf[components.Intent](c, r, cbIntent, s.n)
		for i := max(lo, start); i < min(hi, c.end(r, s.n)); i++ {
			if !in[i-start].Attack.IsZero() {
				found = append(found, int32(i))
			}
		}
	}
	s.found[worker] = found
}

// Finalize stops the workers.
func (s *Combat) Finalize(w *arche.World) {
	if s.pool != nil {
		s.pool.Close()
	}
}
