package systems

import (
	"cmp"
	"slices"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// downedChecks finds the agents that are down (a Health whose Current is ≤ 0) and
// still act (CauseDownedStillActing): their decision still runs, their Intent
// asks to move or to strike, or a Wanderer or FlowFollower still moves them.
// Built at the first check of a world.
type downedChecks struct {
	world  *arche.World // the world of ids
	filter *generic.Filter3[components.Health, components.Intent, components.Think]
	ids    decisionIDs
	wander arche.ID // components.Wanderer
	flow   arche.ID // components.FlowFollower
	// graced: the agents the world's Combat brought down this frame, sorted by
	// ID (built by a check that finds a downed agent acting; reused)
	graced []arche.Entity
}

// downedNotes are the notes of CauseDownedStillActing, by what the agent does (bit 0:
// its decision runs, bit 1: its Intent asks to move, bit 2: to strike, bit 3: a
// Wanderer or FlowFollower moves it whatever its Intent): constant strings, so
// that a check allocates nothing.
var downedNotes = func() (n [16]string) {
	const fix = ": remove it (Commands.RemoveEntity, after Spawner.Recycle to keep its buffers), " +
		"respawn it (Spawner.Respawn), or take its decision component away (or set Think.Frozen) and clear its Intent"
	for k := 1; k < 16; k++ {
		s := "Health.Current ≤ 0 and "
		sep := ""
		if k&1 != 0 {
			s += "its decision still runs"
			sep = ", "
		}
		if k&2 != 0 {
			s += sep + "its Intent asks to move"
			sep = ", "
		}
		if k&4 != 0 {
			s += sep + "its Intent asks to strike"
			sep = ", "
		}
		f := fix
		if k&8 != 0 {
			s += sep + "it still wanders or follows its flow field"
			f += " (a Wanderer or FlowFollower moves it whatever its Intent: remove that component too)"
		}
		n[k] = s + f
	}
	return n
}()

// check counts, under CauseDownedStillActing, every agent with a Health at 0 or below
// whose Intent asks to move (Move, or a flee, pursue or evade mode) or to strike
// (Attack set), whose decision component is still run: a Brain with a Tree, a
// UtilityBrain with a Reasoner, a StateMachine with a Machine, an HTN or GOAP
// planner, with a Think that is not Frozen, while its decision system is installed
// (or before any system's Initialize), or that has a Wanderer or a FlowFollower
// (Steer wanders it, FlowField leads it, whatever its Intent: a downed intruder
// spawned with the Wanderer and Target bundles walks on, and the foes whose
// Perception still shows it chase it for good). An agent that the world's Combat
// brought down in the current frame (in its Downed, written at the Clock's frame)
// is given that frame: a Diagnostics scheduled after Combat, or a Diagnose before
// the scenario's turn between frames, would otherwise count every casualty that the
// scenario removes as soon as Combat.Downed names it (the documented pattern).
func (c *downedChecks) check(w *arche.World, r *Report, d *diagnoser) {
	if c.filter == nil || c.world != w { // the first check, or a Diagnostics initialized on another world
		c.world = w
		c.filter = generic.NewFilter3[components.Health, components.Intent, components.Think]().
			Optional(generic.T[components.Intent](), generic.T[components.Think]())
		c.ids.init(w)
		c.wander = arche.ComponentID[components.Wanderer](w)
		c.flow = arche.ComponentID[components.FlowFollower](w)
	}
	var downedNow []arche.Entity
	if in := ecs.Resource[installed](w); in != nil {
		downedNow = in.combat.downedNow(w)
	}
	sorted := false
	q := c.filter.Query(w)
	for q.Next() {
		hp, in, th := q.Get()
		if !(hp.Current <= 0) { // NaN is not down
			continue
		}
		e := q.Entity()
		what := 0
		if th != nil && !th.Frozen && c.thinks(w, e, d) {
			what |= 1
		}
		if asksToMove(in) {
			what |= 2
		}
		if in != nil && !in.Attack.IsZero() {
			what |= 4
		}
		if w.Has(e, c.wander) || w.Has(e, c.flow) {
			what |= 8
		}
		if what != 0 && len(downedNow) > 0 {
			if !sorted { // once per check, for a binary search per downed agent acting
				c.graced = append(c.graced[:0], downedNow...)
				slices.SortFunc(c.graced, func(a, b arche.Entity) int { return cmp.Compare(a.ID(), b.ID()) })
				sorted = true
			}
			if i, ok := slices.BinarySearchFunc(c.graced, e.ID(), func(a arche.Entity, id uint32) int {
				return cmp.Compare(a.ID(), id)
			}); ok && c.graced[i] == e {
				continue // down this frame: the scenario handles it after Combat
			}
		}
		if what != 0 {
			r.addNote(CauseDownedStillActing, e, needsNote(downedNotes[what]))
		}
	}
}

// thinks reports whether e has a decision component that its system runs (any
// before a system's Initialize).
func (c *downedChecks) thinks(w *arche.World, e arche.Entity, d *diagnoser) bool {
	run := decisionModels(w, e, &c.ids, nil, nil, false)
	if d.initOnce {
		run &= d.systems
	}
	return run != 0
}
