package htn

import (
	"fmt"
	"strings"

	"github.com/archai-go/archai/ai/internal/plan"
)

// whyDepth bounds the compound tasks WhyNoPlan explains inside one another; deeper ones
// are only named.
const whyDepth = 4

// WhyNoPlan explains why d's root task does not decompose from state s, or returns ""
// when it does, or when planning fails with a fault of the domain rather than with
// ErrNoPlan (ErrDepth, ErrLength, ErrBudget: [Run].DomainErrors counts those). It names
// each method of the root, in order, and the first thing that stopped it, as the planner
// met it: the method's first condition that fails, with the fact's value, or its first
// subtask that does not decompose and why (a primitive task's first If or While
// condition that fails, or an effect script that fails; a compound task's methods, in
// brackets, explained the same way); a primitive root is explained as such a subtask
// ("root \"Build\" does not decompose: needs wood >= 3 (wood is 0)"):
//
//	root "Live" does not decompose: method EatFirst needs hungry == 1 (hungry is 0);
//	method BuildHouse needs wood >= 3 (wood is 0); method Gather needs forest == 1
//	(forest is 0)
//
// A condition made with [Func] is named "a Func condition", a script by its source and
// the value of each fact it reads ("forest == 1 && wood < 9" (false; forest is 0, wood
// is 4)). A condition on a fact that no task's effect changes (no Set, Add, script
// effect naming it, or Do function) says so: only the domain's sensor ([Builder.Sense]) or a system
// writing the agent's state can make it hold, "method Gather needs forest == 1 (forest
// is 0; no task's effect changes forest: only the sensor or a system writing the state
// can)".
//
// It allocates (a planner and the text); it is meant for diagnostics, not for every
// think.
func (d *Domain) WhyNoPlan(s *State) string {
	var p Planner
	var out Plan
	if p.Plan(d, s, &out) != ErrNoPlan {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "root %s does not decompose: ", plan.Quote(d.TaskName(d.root)))
	p.out, p.state, p.budget = &out, *s, DefaultMaxVisits
	if d.tasks[d.root].compound {
		p.whyMethods(&b, d.root, 0)
	} else { // a primitive root: its own condition or effect stopped it
		p.whyTask(&b, d.root, 0)
	}
	p.out = nil
	return b.String()
}

// whyMethods writes why none of compound task t's methods gives a decomposition from
// p.state (left as it was).
func (p *Planner) whyMethods(b *strings.Builder, t TaskID, depth int) {
	d := p.d
	saved := p.state
	for mi := range d.tasks[t].methods {
		m := &d.tasks[t].methods[mi]
		if mi > 0 {
			b.WriteString("; ")
		}
		b.WriteString("method ")
		if m.Name != "" {
			b.WriteString(m.Name)
		} else {
			fmt.Fprintf(b, "%d", mi)
		}
		if c := p.firstFailing(m.If); c != nil {
			b.WriteString(" needs ")
			p.writeCond(b, c)
			continue
		}
		for _, st := range m.Tasks {
			before := p.state
			*p.out, p.Visits = Plan{}, 0
			if p.decompose(st, depth+1) {
				continue
			}
			p.state = before
			fmt.Fprintf(b, ": %s ", plan.Quote(d.TaskName(st)))
			p.whyTask(b, st, depth+1)
			break
		}
		p.state = saved
	}
}

// whyTask writes why task t does not decompose from p.state.
func (p *Planner) whyTask(b *strings.Builder, t TaskID, depth int) {
	tk := &p.d.tasks[t]
	if tk.compound {
		b.WriteString("has no method that applies")
		if depth < whyDepth {
			b.WriteString(" (")
			p.whyMethods(b, t, depth)
			b.WriteString(")")
		}
		return
	}
	c := p.firstFailing(tk.primitive.If)
	if c == nil {
		c = p.firstFailing(tk.primitive.While)
	}
	switch {
	case c != nil:
		b.WriteString("needs ")
		p.writeCond(b, c)
	case !p.apply(tk.primitive.Effects, &p.state):
		fmt.Fprintf(b, "fails: an effect script failed (%v)", p.LastScriptError)
	default:
		b.WriteString("fails") // not met after a Plan that found no fault of the domain
	}
}

// firstFailing returns the first condition of cs that does not hold in p.state, or nil.
func (p *Planner) firstFailing(cs []Condition) *Condition {
	for i := range cs {
		if !p.holds(cs[i:i+1], &p.state) {
			return &cs[i]
		}
	}
	return nil
}

var opText = [...]string{Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

// writeCond writes condition c and what it read in p.state: "wood >= 3 (wood is 0)".
func (p *Planner) writeCond(b *strings.Builder, c *Condition) {
	switch {
	case c.prog != nil:
		fmt.Fprintf(b, "%s (false", plan.Quote(c.prog.Source()))
		if p.LastScriptError != nil {
			p.sync(&p.state)
			if _, err := c.prog.Bool(p.st); err != nil {
				fmt.Fprintf(b, ": %v", err)
			}
		}
		p.writeReads(b, c.reads)
		b.WriteString(")")
	case c.fn != nil:
		b.WriteString("a Func condition (false)")
	default:
		op := "op?"
		if int(c.op) < len(opText) {
			op = opText[c.op]
		}
		name := p.d.FactName(c.fact)
		fmt.Fprintf(b, "%s %s %d (%s is %d", name, op, c.value, name, p.state[c.fact])
		if p.d.written()&(1<<c.fact) == 0 {
			fmt.Fprintf(b, "; no task's effect changes %s: only the sensor or a system writing the state can", name)
		}
		b.WriteString(")")
	}
}

// writeReads writes the value of each fact of reads (a script condition's) in p.state,
// "; forest is 0, wood is 4", then, as for an Is condition, names those no task's
// effect changes.
func (p *Planner) writeReads(b *strings.Builder, reads uint64) {
	n := p.d.Facts()
	sep := "; "
	for f := 0; f < n; f++ {
		if reads&(1<<f) != 0 {
			fmt.Fprintf(b, "%s%s is %d", sep, p.d.FactName(Fact(f)), p.state[f])
			sep = ", "
		}
	}
	unwritten := reads &^ p.d.written()
	sep = "; no task's effect changes "
	for f := 0; f < n; f++ {
		if unwritten&(1<<f) != 0 {
			b.WriteString(sep + p.d.FactName(Fact(f)))
			sep = ", "
		}
	}
	if unwritten != 0 {
		b.WriteString(": only the sensor or a system writing the state can")
	}
}

// written returns the facts some task's effect may change, one bit each: those of Set
// and Add, those a script effect names, every fact for a Do function.
func (d *Domain) written() uint64 {
	var m uint64
	for i := range d.tasks {
		for _, e := range d.tasks[i].primitive.Effects {
			switch {
			case e.fn != nil:
				return ^uint64(0)
			case e.prog != nil:
				m |= e.reads
			default:
				m |= 1 << e.fact
			}
		}
	}
	return m
}
