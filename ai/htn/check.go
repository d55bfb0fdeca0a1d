package htn

import (
	"errors"
	"fmt"
)

// ErrRun is returned (wrapped, with what does not fit) by [Domain.CheckRun].
var ErrRun = errors.New("htn: the run does not fit its domain")

// CheckRun reports whether r, a Run read from outside (a save file), can be carried out
// by d: the plan's length and method record within MaxPlan and MaxMTR, the step within
// 0..Plan.Len, every planned task a primitive task of d, and, for a task Started, a
// finite Start (an operator that waits for Time − Start never would). It returns nil or an error
// wrapping ErrRun that names the first field that does not fit. (Tick itself drops a
// Run that does not fit and plans afresh; CheckRun lets a loader refuse it instead.)
func (d *Domain) CheckRun(r *Run) error {
	p := &r.Plan
	switch {
	case p.Len < 0 || p.Len > MaxPlan:
		return fmt.Errorf("%w: Plan.Len %d outside 0..%d", ErrRun, p.Len, MaxPlan)
	case p.MTRLen < 0 || p.MTRLen > MaxMTR:
		return fmt.Errorf("%w: Plan.MTRLen %d outside 0..%d", ErrRun, p.MTRLen, MaxMTR)
	case r.Step < 0 || r.Step > p.Len:
		return fmt.Errorf("%w: Step %d outside 0..%d (the plan's length)", ErrRun, r.Step, p.Len)
	case badStart(r):
		return fmt.Errorf("%w: Start %v: the running task started at a time that is not finite", ErrRun, r.Start)
	}
	for i, t := range p.Tasks[:p.Len] {
		if t < 0 || int(t) >= len(d.tasks) {
			return fmt.Errorf("%w: Plan.Tasks[%d] = %d, domain %q has %d tasks", ErrRun, i, t, d.name, len(d.tasks))
		}
		if d.tasks[t].compound {
			return fmt.Errorf("%w: Plan.Tasks[%d] = %d (%s) is a compound task of domain %q", ErrRun, i, t, d.TaskName(t), d.name)
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
