package systems

import (
	"github.com/archai-go/archai/components"
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
	Strikes      int // strikes that hit in the last frame
	TotalStrikes int

	filter  *generic.Filter3[components.Intent, components.Position, components.Weapon]
	targets generic.Map2[components.Health, components.Position]
}

// Name implements ecs.Namer.
func (s *Combat) Name() string { return "combat" }

// Initialize builds the filter. Combat needs no resource.
func (s *Combat) Initialize(w *arche.World) {
	s.filter = generic.NewFilter3[components.Intent, components.Position, components.Weapon]()
	s.targets = generic.NewMap2[components.Health, components.Position](w)
}

// Update applies this frame's strikes.
func (s *Combat) Update(w *arche.World) {
	s.Strikes = 0
	q := s.filter.Query(w)
	for q.Next() {
		in, pos, wp := q.Get()
		target := in.Attack
		if target.IsZero() {
			continue
		}
		in.Attack = arche.Entity{}
		if target == q.Entity() || !w.Alive(target) {
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

// Finalize does nothing.
func (s *Combat) Finalize(w *arche.World) {}
