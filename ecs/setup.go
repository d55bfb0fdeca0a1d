package ecs

import (
	"errors"

	arche "github.com/mlange-42/arche/ecs"
)

// The kinds of [SetupError], for errors.Is.
var (
	// ErrMissingResource: the world lacks a resource the system needs (the
	// map, the clock, the Neighbours that Spatial adds, a planner registry).
	ErrMissingResource = errors.New("a resource the system needs is missing")
	// ErrSettings: a setting of the system is unusable (a size, a count or
	// search options out of range).
	ErrSettings = errors.New("a setting of the system is unusable")
	// ErrOrder: the systems are scheduled in an order that cannot work (ORCA
	// outside Steer…Movement, a PathJoin before its PathQueue).
	ErrOrder = errors.New("the systems are in an order that cannot work")
)

// SetupError is a fault of a world's setup found by a system's Initialize: a
// missing resource, an unusable setting, or an order of systems that cannot
// work. These are faults of the program (or of the settings it read), not of
// the agents' data, and arche-model's System.Initialize returns nothing, so
// archai's systems panic with a *SetupError; [Scheduler.InitializeChecked]
// returns it as an error instead. Its message names the system, what is
// wrong and how to fix it.
type SetupError struct {
	System string // the system's type name ("PathQueue")
	Kind   error  // ErrMissingResource, ErrSettings or ErrOrder
	Msg    string // the whole message ("systems: PathQueue needs the map: ...")
	Err    error  // the underlying error, if any (grid.Options.Validate's), or nil
}

// Error returns the message.
func (e *SetupError) Error() string { return e.Msg }

// Unwrap returns the kind and the underlying error, for errors.Is and errors.As.
func (e *SetupError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// InitializeChecked is [Scheduler.Initialize] that returns a setup fault as an
// error: it calls Initialize on every system in order, and when one panics
// with a *[SetupError] (every archai system's Initialize does for a missing
// resource, an unusable setting or an impossible order), it finalizes that
// system and those initialized before it, in reverse order, and returns the
// error, wrapping ErrMissingResource, ErrSettings or ErrOrder. The program can
// then fix the world (add the resource, correct the setting) and call
// InitializeChecked again: a finalized system initializes anew (see package
// systems, "Life cycle").
//
// Any other panic (a bug, or a user system's own panic) is not a fault of
// setup: it propagates unchanged, and nothing is finalized.
func (s *Scheduler) InitializeChecked(w *arche.World) (err error) {
	next := 0 // the system being initialized
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		se, ok := r.(*SetupError)
		if !ok {
			panic(r)
		}
		for i := next; i >= 0; i-- {
			s.systems[i].Finalize(w)
		}
		err = se
	}()
	for i, sys := range s.systems {
		next = i
		sys.Initialize(w)
	}
	return nil
}
