package ecs

import (
	"fmt"
	"reflect"
	"time"

	arche "github.com/mlange-42/arche/ecs"
)

// Timings measures the Update time of systems that something other than a
// [Scheduler] runs (arche-model's model.Model, a loop of the program's own),
// for the same reports: each system is wrapped by [Timings.Time] where it is
// added, and [Timings.AppendTimes] reports them as [Scheduler.AppendTimes]
// does, in the order they were wrapped (so a debugview.Viewer charts them:
// set its Times to the Timings).
//
//	tm := &ecs.Timings{}
//	m := model.New()
//	m.AddSystem(tm.Time(ecs.NewClockSystem(1.0 / 60)))
//	m.AddSystem(tm.Time(&systems.Perception{}))
//	...
//	v := debugview.New()
//	v.Times = tm
//	m.AddSystem(tm.Time(v))   // its entry shows its own work, without pace or pause
//
// The zero Timings is ready to use. It is not safe across goroutines: wrap and
// update on the simulation goroutine (a debugview.Viewer reads it there).
//
// Important: the model holds the wrapper, not the system: remove a system from
// an arche-model Model with the value Time returned, and keep the system itself
// for what needs its type (save.Save's states, a Reaper's Combat).
type Timings struct {
	names  []string
	totals []time.Duration
}

// Time returns sys wrapped so that the wall time of each of its Updates adds to
// its entry in tm, named as [SystemName](sys). The wrapper's Initialize and
// Finalize call sys's; its Name is sys's.
//
// A sys that tm already times is returned unchanged, without a second entry:
// tm.Time(tm.Time(s)) is tm.Time(s), and so is a Timed of another Timings
// around one of tm's (its Updates already add to tm's entry). A Timed of
// another Timings with none of tm's inside is wrapped as any system: each
// Timings then has one entry for it, and each Update adds to both (separate
// reports, one charted and one logged, say; the outer one's time includes the
// inner one's clock reads). Wrapping the same system twice with Time (two
// calls on s itself) still makes two entries, as the Model would run it twice.
//
// Panics:
//   - when sys is nil, or a nil pointer (an optional system left unset);
//   - when sys is also a UI system (arche-model's model.UISystem, with
//     InitializeUI, UpdateUI, PostUpdateUI and FinalizeUI): a Timed has only
//     System's methods, so the Model would run its Updates and never its UI
//     (which AddSystem refuses unwrapped); add it unwrapped with AddUISystem.
func (tm *Timings) Time(sys System) *Timed {
	if sys == nil {
		panic(fmt.Sprintf("ecs: Timings.Time: system %d is nil (an optional system left unset? leave it out)", len(tm.names)))
	}
	if v := reflect.ValueOf(sys); v.Kind() == reflect.Pointer && v.IsNil() {
		panic(fmt.Sprintf("ecs: Timings.Time: system %d is a nil %T (an optional system left unset? leave it out)", len(tm.names), sys))
	}
	if _, ok := sys.(uiSystem); ok {
		panic(fmt.Sprintf("ecs: Timings.Time: system %d (%T) is a UI system (arche-model's model.UISystem), whose UI methods a Timed would hide: add it unwrapped with AddUISystem", len(tm.names), sys))
	}
	for t, ok := sys.(*Timed); ok; t, ok = t.sys.(*Timed) {
		if t.tm == tm {
			return sys.(*Timed) // already counted in tm: one entry per system
		}
	}
	tm.names = append(tm.names, SystemName(sys))
	tm.totals = append(tm.totals, 0)
	return &Timed{sys: sys, tm: tm, i: len(tm.names) - 1}
}

// AppendTimes appends each wrapped system's accumulated Update time, in the
// order Time wrapped them, to dst and returns it; it allocates nothing once dst
// has the capacity.
func (tm *Timings) AppendTimes(dst []SystemTime) []SystemTime {
	for i, n := range tm.names {
		dst = append(dst, SystemTime{Name: n, Total: tm.totals[i]})
	}
	return dst
}

// Times returns each wrapped system's accumulated Update time, in the order
// Time wrapped them.
func (tm *Timings) Times() []SystemTime { return tm.AppendTimes(nil) }

// uiSystem is the method set of arche-model's model.UISystem.
type uiSystem interface {
	InitializeUI(w *arche.World)
	UpdateUI(w *arche.World)
	PostUpdateUI(w *arche.World)
	FinalizeUI(w *arche.World)
}

// Timed is a system wrapped by [Timings.Time]: it runs the system and times its
// Updates.
type Timed struct {
	sys System
	tm  *Timings
	i   int
}

// Initialize calls the system's Initialize.
func (t *Timed) Initialize(w *arche.World) { t.sys.Initialize(w) }

// Update calls the system's Update and adds its wall time to the system's entry.
func (t *Timed) Update(w *arche.World) {
	t0 := time.Now()
	t.sys.Update(w)
	t.tm.totals[t.i] += time.Since(t0)
}

// Finalize calls the system's Finalize.
func (t *Timed) Finalize(w *arche.World) { t.sys.Finalize(w) }

// Name returns the system's name ([SystemName]).
func (t *Timed) Name() string { return t.tm.names[t.i] }

// Unwrap returns the system.
func (t *Timed) Unwrap() System { return t.sys }
