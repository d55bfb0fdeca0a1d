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

// reachable marks in reach (one flag per action, cleared by the caller) the actions
// that may become applicable from start, and reports whether every condition of want
// may come to hold. It is a relaxation: a condition may hold if it holds in start or
// an effect of a marked action can make it true (Effect.canMake), an action is marked
// when each of its preconditions may hold, repeated until nothing changes. Any plan's
// actions are marked (each precondition held in start or was made true by the last
// earlier action that wrote its fact), so false means no plan reaches want, of any
// length. True does not mean a plan exists.
func (d *Domain) reachable(start *State, want []Cond, reach []bool) bool {
	for {
		if d.mayHold(start, want, reach) {
			return true
		}
		changed := false
		for i := range d.actions {
			if !reach[i] && d.mayHold(start, d.actions[i].Pre, reach) {
				reach[i], changed = true, true
			}
		}
		if !changed {
			return false
		}
	}
}

// mayHold reports whether each condition of cs holds in start or can be made true by
// an effect of an action marked in reach.
func (d *Domain) mayHold(start *State, cs []Cond, reach []bool) bool {
	for _, c := range cs {
		if !d.mayHoldOne(start, c, reach) {
			return false
		}
	}
	return true
}

func (d *Domain) mayHoldOne(start *State, c Cond, reach []bool) bool {
	if c.Holds(start) {
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
	return d.reachable(start, want, reach)
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
//	effect that makes it true, or set axe in the state before planning
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
	reach := small[:0]
	if len(d.actions) <= len(small) {
		reach = small[:len(d.actions)]
	} else {
		reach = make([]bool, len(d.actions))
	}
	if Satisfied(start, want) || d.reachable(start, want, reach) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "goal %q needs ", d.goals[goal].Name)
	c := d.firstNever(start, want, reach)
	seen := make([]bool, len(d.actions))
	for {
		d.writeCond(&b, c)
		var by ActionID = -1
		for _, w := range d.writers[c.Fact] {
			if w.effect.canMake(c) {
				by = w.action
				break
			}
		}
		if by < 0 {
			fmt.Fprintf(&b, ", which no action's effect makes true and the state lacks (%s is %d): give an action an effect "+
				"that makes it true, or set %s in the state before planning", d.facts[c.Fact], start[c.Fact], d.facts[c.Fact])
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
		c = d.firstNever(start, a.Pre, reach)
	}
}

// firstNever returns the first condition of cs that can never come to hold (reach
// is the fixed point of Domain.reachable); one exists where this is called.
func (d *Domain) firstNever(start *State, cs []Cond, reach []bool) Cond {
	for _, c := range cs {
		if !d.mayHoldOne(start, c, reach) {
			return c
		}
	}
	return cs[0] // not reached: reachable found cs cannot hold
}

// writeCond writes c as "axe == 1".
func (d *Domain) writeCond(b *strings.Builder, c Cond) {
	fmt.Fprintf(b, "%s %s %d", d.facts[c.Fact], c.Op, c.Value)
}
