package goap

import (
	"fmt"
	"strings"
)

// NeverReachedStates is the most world states [Domain.WhyNeverReached] explores (the
// start included): past it the answer is "" ("cannot tell"). A state is 64 bytes, and
// its place in the set 8 at most: a call holds about 1.2 MiB at most, and allocates
// about 2.5 MiB over its growth.
const NeverReachedStates = 1 << 14

// WhyNeverReached explains why no sequence of actions, of any length, reaches goal from
// start, whatever perception does, or returns "" when it cannot say so. It is for the
// goals the check before the search lets through ([Domain.WhyNoPlan] returns "": each
// condition may come to hold on its own) and whose search still ends in plain
// [ErrNoPlan] on every planning: conditions that actions make true only one at a time
// ("armed == 1" and "hidden == 1" where Draw sets hidden to 0 and Hide sets armed to 0),
// or values the actions never hit (Craft adds a plank only while there is none, and the
// goal wants planks >= 2).
//
// It first takes the facts the goal depends on: the facts of the goal's conditions, and
// with every fact an action's effect writes, the facts of that action's preconditions,
// repeated until nothing changes. The actions that write none of these facts cannot
// change whether the goal holds, and the others start or not by these facts alone. If a
// fact declared sensed ([Builder.Sensed]) is among them, it returns "": perception may
// change it at any time, outside any plan, and open a way the actions alone do not.
// (Every action that writes such a fact counts, not only those whose effect could make
// a condition true: an action that resets x to 0 under a sensed condition can let an
// action adding 2 reach x == 2 from x == 1.) So a goal whose own condition is on a
// sensed fact is never reported here: perception may make it hold.
//
// It then explores, breadth first, every state those actions reach from start (on
// those facts; the others keep start's values), at most [NeverReachedStates] of them,
// and returns "" if one satisfies the goal or if there are more states than that. Else
// the goal is never reached: not from start, not from any state a plan or perception
// leads to. The explanation names the goal and its conditions that hold in no reached
// state, or, when each holds in some, the conditions that never hold together:
//
//	goal "Stock" is never reached: planks >= 2 holds in none of the 2 states the
//	actions reach from the state (planks is 0), and no fact the goal depends on
//	(planks) is sensed: an action that makes it true cannot start where it could, or
//	no effect hits its value
//
// The planner's search is bounded at MaxSteps actions; this is not, so "" also covers a
// goal that only a plan longer than MaxSteps reaches (ErrPlanTooLong says so).
//
// It allocates (about 2.5 MiB at most: see NeverReachedStates) and takes time in the
// number of states times the actions (about 3.4 ms of CPU for 16384 states and one
// action, measured on a 2-core machine: BenchmarkWhyNeverReachedFull): it is meant for
// diagnostics (systems.Diagnose calls it once per domain, goal and state), never for
// every think. It returns "" for a goal that is not one of d's or already holds in
// start.
func (d *Domain) WhyNeverReached(start *State, goal GoalID) string {
	if goal < 0 || int(goal) >= len(d.goals) {
		return ""
	}
	want := d.goals[goal].Want
	if Satisfied(start, want) {
		return ""
	}
	facts := d.dependsOn(want)
	if facts&d.sensed != 0 {
		return ""
	}
	var acts []*Action // the actions that write a fact of facts
	for i := range d.actions {
		if a := &d.actions[i]; writesAny(a, facts) {
			acts = append(acts, a)
		}
	}
	held := make([]bool, len(want)) // held[i]: want[i] holds in some reached state
	mark := func(s *State) {
		for i, c := range want {
			held[i] = held[i] || c.Holds(s)
		}
	}
	mark(start)
	var seen stateSet
	queue := append(make([]State, 0, 64), *start)
	seen.add(queue, 0)
	for i := 0; i < len(queue); i++ {
		for _, a := range acts {
			s := &queue[i] // the queue may have grown
			if !a.applicable(s) {
				continue
			}
			next, changed := *s, false
			for _, e := range a.Effects {
				if facts>>e.Fact&1 == 0 {
					continue // read by nothing the goal depends on
				}
				before := next[e.Fact]
				e.Apply(&next)
				changed = changed || next[e.Fact] != before
			}
			if !changed {
				continue
			}
			if seen.has(queue, &next) {
				continue
			}
			if Satisfied(&next, want) || len(queue) == NeverReachedStates {
				return ""
			}
			if len(queue) == cap(queue) { // doubling: about 2 MiB allocated at most
				queue = append(make([]State, 0, min(2*cap(queue), NeverReachedStates)), queue...)
			}
			queue = append(queue, next)
			seen.add(queue, len(queue)-1)
			mark(&next)
		}
	}
	return d.neverReached(start, goal, held, facts, len(queue))
}

// stateSet is a set of the states of a slice, by index: open addressing, linear
// probing, a power-of-two table at most half full (-1 free), so a state costs the
// slice's 64 bytes and 8 of table.
type stateSet struct {
	table []int32
}

// has reports whether s is one of the states of all in the set.
func (t *stateSet) has(all []State, s *State) bool {
	if len(t.table) == 0 {
		return false
	}
	mask := uint64(len(t.table) - 1)
	for i := hashState(s) & mask; ; i = (i + 1) & mask {
		k := t.table[i]
		if k < 0 {
			return false
		}
		if all[k] == *s {
			return true
		}
	}
}

// add puts all[k] in the set (it is not there), doubling the table first if it would
// be more than half full.
func (t *stateSet) add(all []State, k int) {
	if 2*(k+1) > len(t.table) {
		t.table = make([]int32, max(64, 2*len(t.table)))
		for i := range t.table {
			t.table[i] = -1
		}
		for j := range k {
			t.place(all, j)
		}
	}
	t.place(all, k)
}

// place puts all[k] in the table's first free slot of its probe sequence.
func (t *stateSet) place(all []State, k int) {
	mask := uint64(len(t.table) - 1)
	for i := hashState(&all[k]) & mask; ; i = (i + 1) & mask {
		if t.table[i] < 0 {
			t.table[i] = int32(k)
			return
		}
	}
}

// neverReached writes WhyNeverReached's explanation: n states reached, held[i] whether
// the goal's condition i holds in one of them, facts those the goal depends on.
func (d *Domain) neverReached(start *State, goal GoalID, held []bool, facts uint32, n int) string {
	g := &d.goals[goal]
	var never []Cond
	for i, c := range g.Want {
		if !held[i] {
			never = append(never, c)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "goal %q is never reached: ", g.Name)
	states := "states"
	if n == 1 {
		states = "state"
	}
	if len(never) > 0 {
		d.writeConds(&b, never, " and ")
		verb := "holds"
		if len(never) > 1 {
			verb = "hold"
		}
		fmt.Fprintf(&b, " %s in none of the %d %s the actions reach from the state (", verb, n, states)
		d.writeValues(&b, start, never)
		b.WriteString("), and no fact the goal depends on (")
		d.writeFacts(&b, facts)
		b.WriteString(") is sensed: an action that makes it true cannot start where it could, or no effect hits its value")
		return b.String()
	}
	d.writeConds(&b, g.Want, " and ")
	fmt.Fprintf(&b, " each hold in one of the %d %s the actions reach from the state, but never all at once (", n, states)
	d.writeValues(&b, start, g.Want)
	b.WriteString("), and no fact the goal depends on (")
	d.writeFacts(&b, facts)
	b.WriteString(") is sensed: an action that makes one true undoes another, or needs it false")
	return b.String()
}

// dependsOn returns the facts the goal wanting want depends on (bit f for fact f): the
// facts of want, and of the preconditions of every action whose effects write one of
// them, repeated until nothing changes.
func (d *Domain) dependsOn(want []Cond) uint32 {
	var facts uint32
	for _, c := range want {
		facts |= 1 << c.Fact
	}
	for changed := true; changed; {
		changed = false
		for i := range d.actions {
			a := &d.actions[i]
			if !writesAny(a, facts) {
				continue
			}
			for _, c := range a.Pre {
				if facts>>c.Fact&1 == 0 {
					facts |= 1 << c.Fact
					changed = true
				}
			}
		}
	}
	return facts
}

// writesAny reports whether one of a's effects is on a fact of facts.
func writesAny(a *Action, facts uint32) bool {
	for _, e := range a.Effects {
		if facts>>e.Fact&1 != 0 {
			return true
		}
	}
	return false
}

// writeConds writes cs as "axe == 1 and planks >= 2".
func (d *Domain) writeConds(b *strings.Builder, cs []Cond, sep string) {
	for i, c := range cs {
		if i > 0 {
			b.WriteString(sep)
		}
		d.writeCond(b, c)
	}
}

// writeValues writes the start values of the facts of cs, each once: "axe is 0, planks
// is 1".
func (d *Domain) writeValues(b *strings.Builder, start *State, cs []Cond) {
	var done uint32
	for _, c := range cs {
		if done>>c.Fact&1 != 0 {
			continue
		}
		if done != 0 {
			b.WriteString(", ")
		}
		done |= 1 << c.Fact
		fmt.Fprintf(b, "%s is %d", d.facts[c.Fact], start[c.Fact])
	}
}

// writeFacts writes the names of facts, in the order declared: "axe, planks".
func (d *Domain) writeFacts(b *strings.Builder, facts uint32) {
	first := true
	for f := range d.facts {
		if facts>>f&1 == 0 {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(d.facts[f])
	}
}
