package ecs

import (
	"errors"
	"reflect"

	arche "github.com/mlange-42/arche/ecs"
)

// The kinds of [SetupError], for errors.Is.
var (
	// ErrMissingResource: the world lacks a resource the system needs (the
	// map, the clock, the Neighbours that Spatial adds, a planner registry),
	// or has one that holds nothing (a map of no cells: a zero grid.Grid{}).
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
// After the finalizing, the world's resources are those it had before the
// call: the ones the systems added (the Clock, the Neighbours, a flow field
// cache, archai's own records) are removed, and the ones they replaced are put
// back. The contents of a resource the world had before are as the systems
// left them (a Clock that was there is not rewound).
//
// Any other panic (a bug, or a user system's own panic) is not a fault of
// setup: it propagates unchanged, and nothing is finalized.
func (s *Scheduler) InitializeChecked(w *arche.World) (err error) {
	next := 0 // the system being initialized
	before := resourcesOf(w)
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		se, ok := r.(*SetupError)
		if !ok {
			panic(r)
		}
		s.finalizeBack(w, next, before)
		err = se
	}()
	s.world = nil
	s.initFrame(w)
	for i, sys := range s.systems {
		next = i
		sys.Initialize(w)
	}
	s.world = w
	return nil
}

// CheckSetup checks the setup of a world for systems run in the given order
// under arche-model (whose model.Run gets a fault of setup as a panic): it
// initializes them as [Scheduler.InitializeChecked] does and returns its error,
// or, when all initialize, finalizes them again in reverse order and returns
// nil. Either way the systems are left finalized and the world's resources are
// those it had before, so the program adds the same system values to its model
// afterwards (a finalized system initializes anew: see package systems, "Life
// cycle"). It costs one Initialize and Finalize of each system (on a large map
// FlowField's sectors and the walls tables are built twice).
//
// Panics:
//   - when a system is nil, or a nil pointer (see [Scheduler.Add]);
//   - with any panic of an Initialize that is not a *[SetupError], unchanged.
func CheckSetup(w *arche.World, systems ...System) error {
	s := NewScheduler(systems...)
	before := resourcesOf(w)
	if err := s.InitializeChecked(w); err != nil {
		return err
	}
	s.finalizeBack(w, len(s.systems)-1, before)
	return nil
}

// finalizeBack finalizes systems last, last−1, ..., 0, in that order, then
// puts back the world's resources of before (from resourcesOf).
func (s *Scheduler) finalizeBack(w *arche.World, last int, before map[arche.ResID]any) {
	for i := last; i >= 0; i-- {
		s.systems[i].Finalize(w)
	}
	restoreResources(w, before)
}

// resourcesOf returns the world's resources, by ID (those registered and
// absent are left out).
func resourcesOf(w *arche.World) map[arche.ResID]any {
	res := w.Resources()
	out := map[arche.ResID]any{}
	for _, id := range arche.ResourceIDs(w) {
		if r := res.Get(id); r != nil {
			out[id] = r
		}
	}
	return out
}

// restoreResources makes the world's resources those of before (from
// resourcesOf): it removes those added since and puts back those removed or
// replaced. A resource of a type that is not comparable (not a pointer: never
// one of archai's) is left as it is.
func restoreResources(w *arche.World, before map[arche.ResID]any) {
	res := w.Resources()
	for _, id := range arche.ResourceIDs(w) {
		cur, want := res.Get(id), before[id]
		if cur == nil && want == nil {
			continue
		}
		if cur != nil && want != nil {
			if tc, tw := reflect.TypeOf(cur), reflect.TypeOf(want); tc == tw && (!tc.Comparable() || cur == want) {
				continue
			}
		}
		if cur != nil {
			res.Remove(id)
		}
		if want != nil {
			res.Add(id, want)
		}
	}
}
