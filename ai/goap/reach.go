package goap

import (
	"fmt"
	"strings"
)

// writer is one effect on a fact and the action it belongs to.
type writer struct {
	action ActionID
	effect Effect
}

// canMake reports whether some action's effect can make c true (see Effect.canMake).
func (d *Domain) canMake(c Cond) bool {
	for _, w := range d.writers[c.Fact] {
		if w.effect.canMake(c) {
			return true
		}
	}
	return false
}

// reachable marks in reach (one flag per action, cleared by the caller or left from
// an earlier call with fewer sensed facts) the actions that may become applicable from
// start, and reports whether every condition of want may come to hold. It is a
// relaxation: a condition may hold if it holds in start or an effect of a marked action
// can make it true (Effect.canMake), and a precondition also if its fact is in sensed
// (a set of facts perception may change, bit f for fact f; 0 for the planner); an
// action is marked when each of its preconditions may hold, repeated until nothing
// changes. Any plan's actions are marked (each precondition held in start or was made
// true by the last earlier action that wrote its fact), so false means no plan reaches
// want, of any length (with sensed: whatever values those facts take). True does not
// mean a plan exists. When it returns false, reach is the fixed point.
//
// A condition of want gets no pass for a sensed fact: perception that makes the goal
// hold needs no plan, while a goal the start lacks is planned only through an action
// that makes it true. So a goal on a sensed fact (hungry == 0, hungry sensed) whose
// actions can never start, whatever perception does (Eat needs a misspelt fact nothing
// sets), is not waiting for perception: its domain is at fault.
func (d *Domain) reachable(start *State, want []Cond, reach []bool, sensed uint32) bool {
	for {
		if d.mayHold(start, want, reach, 0) {
			return true
		}
		changed := false
		for i := range d.actions {
			if !reach[i] && d.mayHold(start, d.actions[i].Pre, reach, sensed) {
				reach[i], changed = true, true
			}
		}
		if !changed {
			return false
		}
	}
}

// mayHold reports whether each condition of cs holds in start, is on a fact of sensed
// or can be made true by an effect of an action marked in reach.
func (d *Domain) mayHold(start *State, cs []Cond, reach []bool, sensed uint32) bool {
	for _, c := range cs {
		if !d.mayHoldOne(start, c, reach, sensed) {
			return false
		}
	}
	return true
}

func (d *Domain) mayHoldOne(start *State, c Cond, reach []bool, sensed uint32) bool {
	if c.Holds(start) || sensed>>c.Fact&1 != 0 {
		return true
	}
	for _, w := range d.writers[c.Fact] {
		if reach[w.action] && w.effect.canMake(c) {
			return true
		}
	}
	return false
}

// possible runs Domain.reachable with the planner's buffer (no allocation once it
// has grown to the domain's actions).
func (p *Planner) possible(d *Domain, start *State, want []Cond) bool {
	if cap(p.reach) < len(d.actions) {
		p.reach = make([]bool, len(d.actions))
	}
	reach := p.reach[:len(d.actions)]
	clear(reach)
	return d.reachable(start, want, reach, 0)
}

// reachFlags returns one cleared flag per action: small's when they fit, else new ones.
func (d *Domain) reachFlags(small *[64]bool) []bool {
	if len(d.actions) <= len(small) {
		return small[:len(d.actions)]
	}
	return make([]bool, len(d.actions))
}

// AwaitsPerception reports whether goal does not hold in start and no plan can reach
// it from start, but one may once facts declared sensed ([Builder.Sensed]) change: the
// relaxation [Planner.Plan] checks first fails from start and succeeds when every
// precondition of an action on a sensed fact is taken to be able to hold. Such an
// agent waits for perception ("enemy visible"); its domain is not at fault. The goal's
// own conditions get no such pass: each that start lacks must be made true by an
// action that may then start ([Builder.Build] makes sure one aims at it). Perception
// may make a goal on a sensed fact hold ("enemy dead", "hungry == 0"), and then the
// goal needs no plan; but while it does not hold, an agent whose actions toward it
// can never start (a precondition on a fact that no action sets and nothing declares
// sensed, say a misspelt one) can never plan for it, and PlanBest passes over it for
// good. It is false for a goal with a plan in reach, one that no perception can
// unblock (as above) and a goal that is not one of d's. It allocates nothing for a
// domain of at most 64 actions; it is meant for diagnostics.
func (d *Domain) AwaitsPerception(start *State, goal GoalID) bool {
	if goal < 0 || int(goal) >= len(d.goals) || d.sensed == 0 {
		return false
	}
	want := d.goals[goal].Want
	var small [64]bool
	reach := d.reachFlags(&small)
	if Satisfied(start, want) || d.reachable(start, want, reach, 0) {
		return false
	}
	return d.reachable(start, want, reach, d.sensed) // from the fixed point without them
}

// WhyNoPlan explains why no plan can reach goal from start, or returns "" when one
// may (the goal holds, or the relaxation [Planner.Plan] checks first finds a way: a
// search then decides). The explanation follows the goal's first condition that can
// never come to hold back through the actions that could make it true to a condition
// that no action's effect can make true and start lacks, or back to an action already
// named (actions that wait on each other, none of which can start from start):
//
//	goal "Deliver3" needs delivered >= 3; Deliver could make that true but needs
//	planks >= 1; CraftPlanks could make that true but needs axe == 1, which no
//	action's effect makes true and the state lacks (axe is 0): give an action an
//	effect that makes it true, set axe in the state before planning, or, if
//	perception sets it (the Sense hook, or a system writing the state), declare it
//	with Builder.Sensed
//
// A condition on a fact declared sensed ([Builder.Sensed]) is taken to be able to
// come to hold through perception. Where the goal waits for perception
// ([Domain.AwaitsPerception]) the explanation follows the actions perception would
// unblock to a sensed fact the state lacks and ends "the goal waits for perception to
// make it true":
//
//	goal "Kill" needs dead == 1; Shoot could make that true but needs visible == 1, a
//	sensed fact (Builder.Sensed) the state lacks (visible is 0): the goal waits for
//	perception to make it true
//
// Otherwise it follows the conditions that no perception can make hold, as above.
//
// It allocates the explanation (and, for a domain of more than 64 actions, its flags);
// it is meant for diagnostics, not for every think. It returns "" for a goal that is
// not one of d's.
func (d *Domain) WhyNoPlan(start *State, goal GoalID) string {
	if goal < 0 || int(goal) >= len(d.goals) {
		return ""
	}
	want := d.goals[goal].Want
	var small [64]bool // most domains: no allocation when a plan may exist
	reach := d.reachFlags(&small)
	if Satisfied(start, want) || d.reachable(start, want, reach, 0) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "goal %q needs ", d.goals[goal].Name)
	if d.sensed != 0 && d.reachable(start, want, reach, d.sensed) {
		d.whyWaiting(&b, start, want)
		return b.String()
	}
	// reach is now the fixed point with the sensed facts: what it lacks no perception
	// gives (a goal condition gets no pass for a sensed fact: see reachable)
	c := d.firstNever(start, want, reach, 0)
	seen := make([]bool, len(d.actions))
	for atGoal := true; ; atGoal = false {
		d.writeCond(&b, c)
		if atGoal && d.Sensed(c.Fact) {
			b.WriteString(" (a sensed fact: perception may make it true, but no action that could can ever start, so " +
				"no plan can)")
		}
		var by ActionID = -1
		for _, w := range d.writers[c.Fact] {
			if w.effect.canMake(c) {
				by = w.action
				break
			}
		}
		if by < 0 {
			fmt.Fprintf(&b, ", which no action's effect makes true and the state lacks (%s is %d): give an action an effect "+
				"that makes it true, set %s in the state before planning, or, if perception sets it (the Sense hook, or a "+
				"system writing the state), declare it with Builder.Sensed", d.facts[c.Fact], start[c.Fact], d.facts[c.Fact])
			return b.String()
		}
		if seen[by] {
			fmt.Fprintf(&b, " (%s is %d), which %s, above, could make true: these actions wait on each other and none "+
				"can start from the state: set one of their facts in the state before planning, or add an action that "+
				"makes one of their conditions true from it", d.facts[c.Fact], start[c.Fact], d.actions[by].Name)
			return b.String()
		}
		seen[by] = true
		a := &d.actions[by]
		fmt.Fprintf(&b, "; %s could make that true but needs ", a.Name)
		c = d.firstNever(start, a.Pre, reach, d.sensed)
	}
}

// whyWaiting writes the rest of WhyNoPlan's explanation for a goal wanting want that
// waits for perception: from the first condition that cannot hold from start, through
// the actions perception would unblock (of those that could make each condition true,
// the one the relaxation with the sensed facts marked first, so the chain ends), to a
// sensed fact the state lacks.
func (d *Domain) whyWaiting(b *strings.Builder, start *State, want []Cond) {
	strict := make([]bool, len(d.actions))
	d.reachable(start, want, strict, 0) // false: the fixed point
	// rank[a]: when the relaxation with the sensed facts marked action a (-1: never);
	// each of a's preconditions may hold by start, perception or actions ranked lower
	rank := make([]int, len(d.actions))
	marked := make([]bool, len(d.actions))
	for i := range rank {
		rank[i] = -1
	}
	for n, changed := 0, true; changed; {
		changed = false
		for i := range d.actions {
			if !marked[i] && d.mayHold(start, d.actions[i].Pre, marked, d.sensed) {
				marked[i], rank[i], changed = true, n, true
				n++
			}
		}
	}
	c := d.firstNever(start, want, strict, 0)
	for atGoal := true; ; atGoal = false {
		d.writeCond(b, c)
		if !atGoal && d.sensed>>c.Fact&1 != 0 { // a goal condition waits for an action's precondition
			fmt.Fprintf(b, ", a sensed fact (Builder.Sensed) the state lacks (%s is %d): the goal waits for perception "+
				"to make it true", d.facts[c.Fact], start[c.Fact])
			return
		}
		// c may hold with perception but not from start: an action ranked lower than
		// the last one named (every one, for a goal condition) can make it true
		var by ActionID = -1
		for _, w := range d.writers[c.Fact] {
			if r := rank[w.action]; r >= 0 && w.effect.canMake(c) && (by < 0 || r < rank[by]) {
				by = w.action
			}
		}
		if by < 0 {
			return // not reached: c may hold with the sensed facts
		}
		a := &d.actions[by]
		fmt.Fprintf(b, "; %s could make that true but needs ", a.Name)
		c = d.firstNever(start, a.Pre, strict, 0)
	}
}

// firstNever returns the first condition of cs that can never come to hold (reach
// is the fixed point of Domain.reachable with the same sensed); one exists where this
// is called.
func (d *Domain) firstNever(start *State, cs []Cond, reach []bool, sensed uint32) Cond {
	for _, c := range cs {
		if !d.mayHoldOne(start, c, reach, sensed) {
			return c
		}
	}
	return cs[0] // not reached: reachable found cs cannot hold
}

// writeCond writes c as "axe == 1".
func (d *Domain) writeCond(b *strings.Builder, c Cond) {
	fmt.Fprintf(b, "%s %s %d", d.facts[c.Fact], c.Op, c.Value)
}
