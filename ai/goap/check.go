package goap

import (
	"errors"
	"fmt"
)

// ErrRun is returned (wrapped, with what does not fit) by [Domain.CheckRun].
var ErrRun = errors.New("goap: the run does not fit its domain")

// CheckRun reports whether r, a Run read from outside (a save file), can be carried out
// by d: the plan's length within MaxSteps, the step within 0..Plan.Len, every step an
// action of d, with steps left the plan's goal a goal of d, and, for an action Started,
// a finite Start (an operator that waits for Time − Start never would). It returns nil or an
// error wrapping ErrRun that names the first field that does not fit. (Tick itself
// drops a Run that does not fit and plans afresh; CheckRun lets a loader refuse it.)
func (d *Domain) CheckRun(r *Run) error {
	p := &r.Plan
	switch {
	case p.Len < 0 || p.Len > MaxSteps:
		return fmt.Errorf("%w: Plan.Len %d outside 0..%d", ErrRun, p.Len, MaxSteps)
	case r.Step < 0 || r.Step > p.Len:
		return fmt.Errorf("%w: Step %d outside 0..%d (the plan's length)", ErrRun, r.Step, p.Len)
	case r.Step < p.Len && (p.Goal < 0 || int(p.Goal) >= len(d.goals)):
		return fmt.Errorf("%w: Plan.Goal %d, domain %q has %d goals", ErrRun, p.Goal, d.name, len(d.goals))
	case badStart(r):
		return fmt.Errorf("%w: Start %v: the running action started at a time that is not finite", ErrRun, r.Start)
	}
	for i, a := range p.Steps[:p.Len] {
		if a < 0 || int(a) >= len(d.actions) {
			return fmt.Errorf("%w: Plan.Steps[%d] = %d, domain %q has %d actions", ErrRun, i, a, d.name, len(d.actions))
		}
	}
	return nil
}

// Resolve returns the domain called name and its ID, trying hint (an ID cached beside
// the name) first, so that a hint that still names the domain costs one comparison. An
// empty name resolves hint alone. It returns nil and 0 if the registry (possibly nil)
// has no such domain.
func (r *Registry) Resolve(name string, hint ID) (*Domain, ID) {
	d, id := r.shared().Resolve(name, uint16(hint))
	return d, ID(id)
}

// Names returns the names of the registered domains, in ID order.
func (r *Registry) Names() []string {
	return r.shared().Names()
}
