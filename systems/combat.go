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
	found   [][]strike // per worker
	all     []strike
}

// strike is one request found this frame.
type strike struct {
	attacker, target arche.Entity
	at               r2.Vec // the attacker's position
	weapon           components.Weapon
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
	s.found = make([][]strike, s.pool.N())
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
	s.all = s.all[:0]
	for k := range s.found {
		s.all = append(s.all, s.found[k]...)
		s.found[k] = s.found[k][:0]
	}
	slices.SortFunc(s.all, func(a, b strike) int { return cmp.Compare(a.attacker.ID(), b.attacker.ID()) })
	for i := range s.all {
		st := &s.all[i]
		if st.target == st.attacker || !w.Alive(st.target) {
			continue
		}
		hp, tpos := s.targets.Get(st.target)
		if hp == nil || tpos == nil || hp.Current <= 0 || r2.Norm(r2.Sub(tpos.Vec, st.at)) > st.weapon.Range {
			continue
		}
		hp.Current -= st.weapon.Damage
		s.Strikes++
	}
	s.TotalStrikes += s.Strikes
}

// Work implements ecs.Job: it takes the requests of the query's agents
// [lo, hi), clearing them.
func (s *Combat) Work(worker, lo, hi int) {
	c := &s.cols
	found := s.found[worker]
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		in := columnOf[components.Intent](c, r, cbIntent, s.n)
		pos := columnOf[components.Position](c, r, cbPos, s.n)
		wp := columnOf[components.Weapon](c, r, cbWeapon, s.n)
		for i := max(lo, start); i < min(hi, c.end(r, s.n)); i++ {
			k := i - start
			if in[k].Attack.IsZero() {
				continue
			}
			found = append(found, strike{attacker: c.ents[i], target: in[k].Attack, at: pos[k].Vec, weapon: wp[k]})
			in[k].Attack = arche.Entity{}
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
