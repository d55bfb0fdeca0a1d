package systems

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"
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
// loaded. The requests are found on the calling goroutine by a scan of the
// query's Intent columns (archetype by archetype, no per-entity query
// call); only the attackers' entities are then read, by stepping a second
// query from one attacker to the next (columns.entitiesAt). A warm frame allocates nothing.
//
// A Weapon with a Cooldown (> 0 seconds) strikes at most once per Cooldown: a
// request at simulation time t (the Clock's Time) strikes only if t ≥
// Weapon.ReadyAt − 1e-9·max(1, |t|) (a slack for float rounding alone, so that
// it never makes a strike wait one more think, while two strikes are never
// closer than the Cooldown), and a strike sets ReadyAt to t + Cooldown. A request made before (or one that misses: out of
// range, a dead target) is cleared without a strike and leaves ReadyAt as it
// is; the agent asks again when it next thinks. So an agent that asks at every
// think deals Damage/Cooldown per second whatever its think interval, provided
// the interval divides the Cooldown (0.1 s and 0.5 s both divide 1 s); otherwise
// each wait rounds up to its next think (at most one interval more).
// Without a Clock resource the Cooldown cannot be timed: such weapons strike at
// every request, as without a Cooldown, NoClock counts those strikes, and
// [Diagnose] reports the weapons (Report.CooldownsUntimed).
//
// An attacker that is down (it has a Health whose Current is ≤ 0 when the Update
// begins) strikes nothing: its request is cleared without a strike and counted in
// AttackersDown, and [Diagnose] reports the agent as [CauseDownedStillActing] while
// its decision still runs or its Intent still asks to move or strike. The strikes of
// one frame are simultaneous in this respect: an attacker that an earlier strike of
// the same frame (by a lower entity ID) brings down still lands its own, so who may
// strike does not depend on entity IDs. An attacker without a Health is never down.
//
// Teams: a request whose target is of the attacker's own team (both have a
// components.Faction, with the same Team) strikes nothing unless FriendlyFire is
// set: it is cleared, counted in Allies, and [Diagnose] reports the attacker as
// [CauseAttackingAlly] (a decision that picks "the nearest agent" rather than the
// nearest foe). An attacker or a target without a Faction has no team: its
// strikes land (a bystander can be struck if a decision asks so).
//
// What else happens to an agent whose health reaches 0 is the scenario's choice:
// nothing in archai stops its brain or its movement. Handle [Combat.Downed] after
// Combat (remove them with Commands.RemoveEntity or after [Spawner.Recycle], respawn
// them with [Spawner.Respawn], or take their brain away and clear their Intent).
//
// Contract:
//
//	requires   Intent, Position, Weapon (attacker); Health, Position (target)
//	optional   Health (attacker: one at 0 or below strikes nothing), Faction (both: one team strikes not its own)
//	writes     Intent.Attack (cleared), Weapon.ReadyAt (with a Cooldown), the target's Health.Current
//	resources  *ecs.Clock optional (times a Weapon.Cooldown)
//
//	absent or unusable             what Combat does                       Diagnose counts
//	Weapon                         opt-out: Intent.Attack is ignored      -
//	Health (attacker)              opt-out: never down                    -
//	attacker's Health.Current ≤ 0  no strike (AttackersDown)              CauseDownedStillActing
//	Weapon.Range NaN or < 0        no strike                              CauseWeaponInvalid
//	Weapon.Damage NaN, ±Inf, < 0;  strikes with it                        CauseWeaponInvalid
//	  Weapon.Range +Inf
//	Weapon.Cooldown 0              no cooldown: every request strikes     -
//	Weapon.Cooldown < 0 or NaN     no cooldown: every request strikes     CauseWeaponInvalid
//	Weapon.Cooldown +Inf           one strike, then never again           CauseWeaponInvalid
//	Weapon.Cooldown > 60 s         honoured (milliseconds given?)         CauseWeaponCooldownLong
//	Weapon.ReadyAt NaN             ready (strikes, then ReadyAt is set)   -
//	Cooldown > 0, no Clock         every request strikes                  Report.CooldownsUntimed (Combat.NoClock)
//	target without Health or       no strike                              -
//	  Position, dead, or self
//	target of the attacker's team  no strike (Allies), unless              CauseAttackingAlly
//	  (Faction.Team equal)           FriendlyFire
//	NaN Position (either side)     no strike                              CausePosition
//	no Combat system, while an     nothing strikes                        CauseNoCombatSystem
//	  agent with a Weapon has a
//	  non-zero Intent.Attack
type Combat struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int     // unused: kept so that existing code builds (the light pass runs on the calling goroutine)

	Strikes int // strikes that hit in the last frame
	// TotalStrikes counts the strikes that hit since Initialize; a save holds it
	// ([CombatState]), so a loaded run goes on from the saved count. An int64, as
	// the other counts since Initialize are: a 32-bit int could wrap in a long run.
	TotalStrikes int64
	Cooling      int // requests dropped in the last frame because the Weapon's Cooldown had not run out
	NoClock      int // strikes since Initialize of weapons with a Cooldown in a world without a Clock (not timed); saved ([CombatState])
	// AttackersDown counts the requests dropped in the last frame because the
	// attacker was down: its Health.Current was ≤ 0 when the Update began.
	AttackersDown int
	// FriendlyFire lets strikes land on agents of the attacker's own team (both
	// with a Faction of the same Team). Off by default: such a request strikes
	// nothing and is counted in Allies.
	FriendlyFire bool
	// Allies counts the requests dropped in the last frame because the target was
	// of the attacker's own team (FriendlyFire off), in range or not. [Diagnose] names the
	// attackers (CauseAttackingAlly).
	Allies int
	// allies holds the attackers of Allies and their targets, by attacker
	// entity ID, as the latest Update left them (for Diagnose); reused
	allies [][2]arche.Entity

	// Downed holds the targets the last frame's strikes brought down (their
	// Health.Current from above 0 to 0 or below), in the order struck, that
	// is by attacker entity ID; each at most once, as a target at 0 takes no
	// further strike. A scenario can handle its casualties from it instead of
	// reading every agent's Health. Update rewrites it (do not keep it).
	// [Diagnose] gives the agents it lists one frame's grace: while the Clock
	// is on the frame of that Update, they are not counted under
	// [CauseDownedStillActing] (the scenario has not had its turn to handle them).
	Downed []arche.Entity
	// downedFrame is the Clock's frame of the Update that wrote Downed (-1: no
	// clock, or one not started), for Diagnose's grace (downedThisFrame)
	downedFrame int64
	world       *arche.World // the world of the last Initialize (LoadState checks Downed's IDs against it)

	filter  *generic.Filter3[components.Intent, components.Position, components.Weapon]
	targets generic.Map2[components.Health, components.Position]
	health  generic.Map[components.Health]  // the attackers' (optional)
	faction generic.Map[components.Faction] // both sides' (optional)
	cols    columns                         // Intent, Position, Weapon
	at      []int32                         // query indices of this frame's attackers
	all     []attacker
	order   []uint64 // the attackers by entity ID: ID<<32 | index in all

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// attacker is one request found this frame: the attacker and its
// components (valid within the Update: Combat changes no structure).
type attacker struct {
	e   arche.Entity
	in  *components.Intent
	pos *components.Position
	wp  *components.Weapon
	// down: the attacker's Health.Current was ≤ 0 before this frame's strikes
	down bool
}

// Name implements ecs.Namer.
func (s *Combat) Name() string { return "combat" }

// Initialize builds the filter. Combat needs no resource.
func (s *Combat) Initialize(w *arche.World) {
	s.filter = generic.NewFilter3[components.Intent, components.Position, components.Weapon]()
	s.targets = generic.NewMap2[components.Health, components.Position](w)
	s.health = generic.NewMap[components.Health](w)
	s.faction = generic.NewMap[components.Faction](w)
	s.world = w
	s.NoClock = 0
	s.restart() // a level restart: nothing of the last world, its own columns
	s.cols.column(arche.ComponentID[components.Intent](w), unsafe.Sizeof(components.Intent{}))
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Weapon](w), unsafe.Sizeof(components.Weapon{}))
	markInstalled(w, sysCombat)
	ecs.Resource[installed](w).combat = s
	s.ran.Join(w, s)
}

// Column indices of Combat's columns.
const (
	cbIntent = iota
	cbPos
	cbWeapon
)

// Update applies this frame's strikes.
func (s *Combat) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "Combat")
	s.Strikes, s.Cooling, s.AttackersDown, s.Allies = 0, 0, 0, 0
	s.allies = s.allies[:0]
	clock := ecs.Resource[ecs.Clock](w)
	s.downedFrame = combatFrame(clock)
	q := s.filter.Query(w)
	c := &s.cols
	c.scanRuns(w, &q.Query)
	n := c.count
	if cap(s.all) < n { // every agent may strike: grown once
		s.all = make([]attacker, 0, n+n/4)
		s.at = make([]int32, 0, n+n/4)
		s.Downed = make([]arche.Entity, 0, n+n/4)
	}
	if cap(s.order) < n {
		s.order = make([]uint64, 0, n+n/4)
	}
	s.all, s.at, s.Downed = s.all[:0], s.at[:0], s.Downed[:0]
	for r := range c.runs {
		start := c.runs[r].start
		ins := columnOf[components.Intent](c, r, cbIntent, n)
		for k := range ins {
			if !ins[k].Attack.IsZero() {
				s.at = append(s.at, int32(start+k))
			}
		}
	}
	c.entitiesAt(w, s.filter.Filter(w), s.at) // the attackers' entities alone
	r := 0
	for _, i32 := range s.at {
		i := int(i32)
		r = c.run(i, r)
		e := c.ents[i]
		hp := s.health.Get(e) // before any strike of this frame: strikes are simultaneous
		s.all = append(s.all, attacker{e: e, in: (*components.Intent)(c.at(r, cbIntent, i)),
			pos: (*components.Position)(c.at(r, cbPos, i)), wp: (*components.Weapon)(c.at(r, cbWeapon, i)),
			down: hp != nil && hp.Current <= 0})
	}
	// by attacker entity ID: each attacker's ID above its index in all, sorted
	// as plain numbers (IDs are unique, so the order is the one a sort of all
	// by ID gives; sorting all with a compare function took 27.0 M
	// instructions over frames 60–67 of 100,000 guards, these keys 4.9 M)
	s.order = s.order[:0]
	for k := range s.all {
		s.order = append(s.order, uint64(s.all[k].e.ID())<<32|uint64(k))
	}
	slices.Sort(s.order)
	for _, key := range s.order {
		a := s.all[uint32(key)]
		in, pos, wp := a.in, a.pos, a.wp
		target := in.Attack
		in.Attack = arche.Entity{}
		if a.down { // a downed attacker strikes nothing
			s.AttackersDown++
			continue
		}
		if target == a.e || !ecs.Alive(w, target) { // an entity of another world too
			continue
		}
		if !s.FriendlyFire && s.sameTeam(a.e, target) {
			s.Allies++
			s.allies = append(s.allies, [2]arche.Entity{a.e, target})
			continue
		}
		hp, tpos := s.targets.Get(target)
		// !(d <= Range): a NaN position or Range is out of range, not in it
		if hp == nil || tpos == nil || hp.Current <= 0 || !(detmath.Norm(r2.Sub(tpos.Vec, pos.Vec)) <= wp.Range) {
			continue
		}
		if wp.Cooldown > 0 { // false for NaN
			if clock == nil {
				s.NoClock++
			} else {
				// false for a NaN ReadyAt: ready; the slack absorbs the rounding of
				// Time and of ReadyAt, never a part of a frame
				if wp.ReadyAt-float64(cooldownSlack*max(1, math.Abs(clock.Time))) > clock.Time {
					s.Cooling++
					continue
				}
				wp.ReadyAt = clock.Time + wp.Cooldown
			}
		}
		hp.Current -= wp.Damage
		s.Strikes++
		if hp.Current <= 0 {
			s.Downed = append(s.Downed, target)
		}
	}
	clear(s.all) // keep no component pointer past the Update
	s.TotalStrikes += int64(s.Strikes)
}

// sameTeam reports whether a and b both have a Faction, of the same Team.
func (s *Combat) sameTeam(a, b arche.Entity) bool {
	fa := s.faction.Get(a)
	if fa == nil {
		return false
	}
	fb := s.faction.Get(b)
	return fb != nil && fa.Team == fb.Team
}

// alliesAttacked returns the attackers (and their targets) whose requests the
// latest Update refused as aimed at their own team; nil for a nil,
// uninitialized or finalized Combat.
func (s *Combat) alliesAttacked() [][2]arche.Entity {
	if s == nil || s.filter == nil || s.finalized {
		return nil
	}
	return s.allies
}

// combatFrame is the frame of clock c that Combat's Downed is told by: its Frame once
// started, else -1 (no clock, or one not started).
func combatFrame(c *ecs.Clock) int64 {
	if c == nil || !c.Started {
		return -1
	}
	return c.Frame
}

// downedNow returns s's Downed if its Update wrote it at w's current frame (the
// Clock's; without a started clock, the list of its latest Update), else nil: the
// agents brought down this frame, that the scenario handles after Combat. Nil for a
// nil, uninitialized or finalized Combat.
func (s *Combat) downedNow(w *arche.World) []arche.Entity {
	if s == nil || s.filter == nil || s.finalized || s.downedFrame != combatFrame(ecs.Resource[ecs.Clock](w)) {
		return nil
	}
	return s.Downed
}

// cooldownSlack is Combat's tolerance on Weapon.ReadyAt, relative to the
// Clock's Time (at least 1 s): far above the rounding of Time and ReadyAt,
// far below any frame step.
const cooldownSlack = 1e-9

// Finalize drops the filter: Update panics until the next Initialize (see
// lifecycle.go).
func (s *Combat) Finalize(w *arche.World) {
	if s.filter == nil { // never initialized, or finalized already
		return
	}
	s.filter, s.finalized = nil, true
	s.ran.Leave()
	markFinalized(w, sysCombat)
}
