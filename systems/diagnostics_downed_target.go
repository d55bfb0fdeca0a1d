package systems

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// DownedTargetSpan is how long, in seconds of simulation time, an agent may go on
// attacking or pursuing a target that is down (Health.Current ≤ 0) or removed before
// [Diagnose] counts it under CauseAttackingDowned: longer than a decision takes to
// notice (a think at 10 Hz, or 2 Hz far away), short enough to be seen in a fight.
const DownedTargetSpan = 2.0

// downedTarget is the evidence of one agent found attacking or pursuing a downed or
// removed target: the target (the last check's) and the simulation time of the first
// check that found it so, kept across checks while every check finds it so (from one
// downed target to another: still attacking the fallen; a live target ends it).
type downedTarget struct {
	target arche.Entity
	since  float64 // simulation time of the first check that found it
	check  uint64  // the last check that found it (stale records are dropped)
}

// downedTargets is the world resource that holds the evidence of CauseAttackingDowned
// across checks: every check in the world (a [Diagnostics]', or a [Diagnose] call)
// reads and updates it, so two Diagnose calls 3 s apart see what one check cannot. It
// is added by the first check of a world with a usable clock. Not saved with the world
// (save skips resources): a [Diagnostics] saves it in its state
// ([DiagnosticsState.AttackingDowned]).
type downedTargets struct {
	recs   map[arche.Entity]downedTarget
	checks uint64
}

// downedTargetChecks finds the agents attacking or pursuing a downed target
// (CauseAttackingDowned). Built at the first check of a world.
type downedTargetChecks struct {
	world   *arche.World
	filter  *generic.Filter4[components.Intent, components.Think, components.Health, components.Weapon]
	health  arche.ID // components.Health
	faction arche.ID // components.Faction
}

// attackedDowned returns the target of in that agent e attacks or pursues while it is
// down or removed (ok false: none): its Intent.Attack (set between its decision and
// Combat, which clears it), or, for an armed agent (armed: it has a Weapon), the Target
// of a pursuit (Mode IntentPursue), unless that target is a downed agent of its own
// team (a medic, a bearer going to a fallen comrade).
func (c *downedTargetChecks) attackedDowned(w *arche.World, e arche.Entity, in *components.Intent, armed bool) (arche.Entity, bool) {
	for i, t := range [2]arche.Entity{in.Attack, in.Target} {
		if t.IsZero() || t == e || i == 1 && (!armed || in.Mode != components.IntentPursue) {
			continue
		}
		if !ecs.Alive(w, t) {
			return t, true
		}
		if !w.Has(t, c.health) || !((*components.Health)(w.Get(t, c.health)).Current <= 0) { // NaN is not down
			continue
		}
		if i == 1 && w.Has(e, c.faction) && w.Has(t, c.faction) &&
			(*components.Faction)(w.Get(e, c.faction)).Team == (*components.Faction)(w.Get(t, c.faction)).Team {
			continue
		}
		return t, true
	}
	return arche.Entity{}, false
}

// check counts under CauseAttackingDowned every agent whose Intent has attacked or
// pursued a downed (or removed) target at every check for DownedTargetSpan or more,
// and, for an agent with a Think, that has thought since the first such check (its
// decision saw the target down and kept it). An agent itself down is left to
// CauseDownedStillActing, a Frozen one is not checked. Without a usable clock
// nothing is timed and nothing counted.
func (c *downedTargetChecks) check(w *arche.World, r *Report) {
	now := clockTime(w)
	if cl := ecs.Resource[ecs.Clock](w); cl == nil || clockFaultOf(cl) != ClockUsable {
		return
	}
	if c.filter == nil || c.world != w {
		c.world = w
		c.filter = generic.NewFilter4[components.Intent, components.Think, components.Health, components.Weapon]().
			Optional(generic.T[components.Think](), generic.T[components.Health](), generic.T[components.Weapon]())
		c.health = arche.ComponentID[components.Health](w)
		c.faction = arche.ComponentID[components.Faction](w)
	}
	ev := ecs.Resource[downedTargets](w)
	if ev == nil {
		ev = &downedTargets{recs: map[arche.Entity]downedTarget{}}
		arche.AddResource(w, ev)
	}
	ev.checks++
	q := c.filter.Query(w)
	for q.Next() {
		in, th, hp, wp := q.Get()
		if in.Attack.IsZero() && (in.Mode != components.IntentPursue || in.Target.IsZero()) {
			continue // the cheap test first: most agents attack and pursue nobody
		}
		if th != nil && th.Frozen || hp != nil && hp.Current <= 0 {
			continue
		}
		e := q.Entity()
		t, ok := c.attackedDowned(w, e, in, wp != nil)
		if !ok {
			continue
		}
		rec, had := ev.recs[e]
		if !had || rec.check != ev.checks-1 || !(rec.since <= now) {
			rec.since = now
		}
		rec.target, rec.check = t, ev.checks
		ev.recs[e] = rec
		span := now - rec.since
		// a slack for the rounding of a clock's Time, a sum of steps (120 of 1/60 s: 2 s less 4e-16)
		if span >= DownedTargetSpan-float64(cooldownSlack*max(1, math.Abs(now))) && (th == nil || th.Last > rec.since) {
			dead, attackSet := 0.0, uint32(0)
			if !ecs.Alive(w, t) {
				dead = 1
			}
			if !in.Attack.IsZero() {
				attackSet = 1
			}
			r.addNote(CauseAttackingDowned, e, exampleNote{kind: noteDownedTarget, target: t,
				pos: r2.Vec{X: span, Y: dead}, n: attackSet})
		}
	}
	for e, rec := range ev.recs {
		if rec.check != ev.checks {
			delete(ev.recs, e)
		}
	}
}

// appendDownedTarget writes CauseAttackingDowned's note n (noteDownedTarget: target,
// pos.X the seconds, pos.Y 1 for a removed target, n 1 for an Attack still set).
func appendDownedTarget(b *strings.Builder, n *exampleNote) {
	if n.n == 1 {
		b.WriteString(", has attacked")
	} else {
		b.WriteString(", has pursued")
	}
	b.WriteString(" entity ")
	b.WriteString(strconv.FormatUint(uint64(n.target.ID()), 10))
	b.WriteString(" for ")
	b.WriteString(strconv.FormatFloat(n.pos.X, 'f', 1, 64))
	if n.pos.Y == 1 {
		b.WriteString(" s after it was removed from the world")
	} else {
		b.WriteString(" s while that target is down (Health.Current ≤ 0)")
	}
	b.WriteString(": Perception ignores Health and Combat refuses strikes at it, so the agent never moves on; " +
		"test the target's Health in the guard or condition that keeps the attack " +
		"(Perception.Visible alone is not enough), or handle Combat.Downed (remove, respawn or disarm the downed)")
}

// AttackingDownedState is one agent's evidence of CauseAttackingDowned in a
// [DiagnosticsState]: the agent, its target and the simulation time (seconds) from
// which every check found it attacking or pursuing that target down.
type AttackingDownedState struct {
	Agent  arche.Entity `json:"agent"`
	Target arche.Entity `json:"target"`
	Since  float64      `json:"since"`
}

// attackingDownedState returns w's evidence, by agent ID (nil: none).
func attackingDownedState(w *arche.World) []AttackingDownedState {
	ev := ecs.Resource[downedTargets](w)
	if ev == nil || len(ev.recs) == 0 {
		return nil
	}
	out := make([]AttackingDownedState, 0, len(ev.recs))
	for e, rec := range ev.recs {
		out = append(out, AttackingDownedState{Agent: e, Target: rec.target, Since: rec.since})
	}
	slices.SortFunc(out, func(a, b AttackingDownedState) int { return cmp.Compare(a.Agent.ID(), b.Agent.ID()) })
	return out
}

// loadAttackingDowned replaces w's evidence with st, as found by the last check (the
// next check goes on from it).
func loadAttackingDowned(w *arche.World, st []AttackingDownedState) {
	ev := ecs.Resource[downedTargets](w)
	if ev == nil {
		if len(st) == 0 {
			return
		}
		ev = &downedTargets{recs: map[arche.Entity]downedTarget{}}
		arche.AddResource(w, ev)
	}
	clear(ev.recs)
	for _, s := range st {
		ev.recs[s.Agent] = downedTarget{target: s.Target, since: s.Since, check: ev.checks}
	}
}
