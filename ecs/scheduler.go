package ecs

import (
	"fmt"
	"reflect"
	"time"

	arche "github.com/mlange-42/arche/ecs"
)

// System is the method set of arche-model's model.System. Every archai system
// implements it, so the same value runs under a [Scheduler] or under
// arche-model's model.New().AddSystem.
type System interface {
	Initialize(w *arche.World)
	Update(w *arche.World)
	Finalize(w *arche.World)
}

// Namer is implemented by systems that name themselves in timing reports.
type Namer interface {
	Name() string
}

// Scheduler runs systems in the order they were added, one Update each per
// frame, and measures the wall time each system takes (for reports only; the
// simulation itself never reads the wall clock).
//
// For users without arche-model:
//
//	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), perception, decision, ...)
//	s.Initialize(&world)
//	s.Run(&world, 600)
//	s.Finalize(&world)
//
// A system added to a running schedule ([Scheduler.Add] after Initialize) is
// initialized at once and runs last from the next frame on.
type Scheduler struct {
	systems []System
	totals  []time.Duration
	frames  int
	frame   *Frame       // the world's, from Initialize
	world   *arche.World // the world initialized on, nil before Initialize and after Finalize (see Add)
}

// Frame is a resource the [Scheduler]s running a world keep in it (the first
// Initialize or [Ran.Join] adds it): which of their systems is updating, for each scheduler
// whose Update is under way (a scheduler run as a system of another nests in
// it). It also holds, for every system that keeps a [Ran] (each of archai's, under
// any scheduler: arche-model's Model too), the frame it last ran. Code that a
// system calls can so tell whether it runs between two systems of a frame, some of
// them run and some not (save.Save refuses to save there: the loaded run would not
// continue as the saved one).
type Frame struct {
	levels []frameLevel // the Updates under way, outermost first
	ran    []*Ran       // the systems that Mark the frames they run, in the order they joined
}

// frameLevel is one scheduler's Update under way.
type frameLevel struct {
	systems []System
	current int // the system updating
}

// Between reports whether some systems have run this frame and others not, and
// names one that has (ran) and one that has not (next): in some scheduler's Update
// under way, a system other than its first and its last is updating (the one
// before it and the one after it, in the outermost such scheduler); or, under any
// scheduler, the systems that keep a [Ran] have not all run the same frame (the
// last of them, in the order they were initialized, that has run the latest frame,
// and the first after it that has not). Between two frames, and from a system
// scheduled before or after all of archai's, ok is false.
//
// Important: a system that is initialized and not updated every frame (one run
// every other frame, or left initialized on the world and no longer run: finalize
// it) reads as one that has not run this frame.
func (f *Frame) Between() (ran, next string, ok bool) {
	if f == nil {
		return "", "", false
	}
	for _, l := range f.levels {
		if l.current > 0 && l.current < len(l.systems)-1 {
			return SystemName(l.systems[l.current-1]), SystemName(l.systems[l.current+1]), true
		}
	}
	return f.ranBetween()
}

// NewScheduler returns a scheduler running systems in the given order.
//
// Panics:
//   - when a system is nil, or a nil pointer (see [Scheduler.Add]).
func NewScheduler(systems ...System) *Scheduler {
	s := &Scheduler{}
	for _, sys := range systems {
		s.Add(sys)
	}
	return s
}

// Add appends a system, to run after those added before it. Added before
// [Scheduler.Initialize] (as NewScheduler's list is), it is initialized with
// the others. Added after it (and before [Scheduler.Finalize]), it is
// initialized at once on the world the scheduler was initialized on, last, as
// if it had been in the list: its first Update is the next frame's (or, added
// by a system during an Update, the frame after). A system added after Finalize
// is initialized by the next Initialize, with the others.
//
// Panics:
//   - when sys is nil, or a nil pointer (an optional system left unset);
//   - added after Initialize, with the panic of the system's Initialize (a
//     *[SetupError] for a missing resource or an unusable setting, as
//     Initialize would): [Scheduler.AddChecked] returns that as an error.
func (s *Scheduler) Add(sys System) {
	s.mustNotNil(sys)
	if s.world != nil {
		sys.Initialize(s.world)
	}
	s.systems = append(s.systems, sys)
	s.totals = append(s.totals, 0)
}

// AddChecked is [Scheduler.Add] that returns a fault of setup as an error, as
// [Scheduler.InitializeChecked] does: added after Initialize, when the system's
// Initialize panics with a *[SetupError], the system is finalized and not
// added, the world's resources are put back as they were before the call, and
// the error is returned (wrapping ErrMissingResource, ErrSettings or ErrOrder).
// Added before Initialize it returns nil: InitializeChecked checks its setup
// with the others'. Any other panic propagates unchanged.
//
// Panics:
//   - when sys is nil, or a nil pointer (see [Scheduler.Add]).
func (s *Scheduler) AddChecked(sys System) (err error) {
	s.mustNotNil(sys)
	w := s.world
	if w == nil {
		s.Add(sys)
		return nil
	}
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
		sys.Finalize(w)
		restoreResources(w, before)
		err = se
	}()
	s.Add(sys)
	return nil
}

// mustNotNil panics, naming the system's place in the list, when sys is nil or a
// nil pointer.
func (s *Scheduler) mustNotNil(sys System) {
	if sys == nil {
		panic(fmt.Sprintf("ecs: NewScheduler/Scheduler.Add: system %d is nil (an optional system left unset? leave it out of the list)", len(s.systems)))
	}
	if v := reflect.ValueOf(sys); v.Kind() == reflect.Pointer && v.IsNil() {
		panic(fmt.Sprintf("ecs: NewScheduler/Scheduler.Add: system %d is a nil %T (an optional system left unset? leave it out of the list)", len(s.systems), sys))
	}
}

// Initialize calls Initialize on every system, in order, and adds the world's
// [Frame] resource if it has none.
func (s *Scheduler) Initialize(w *arche.World) {
	s.world = nil
	s.initFrame(w)
	for _, sys := range s.systems {
		sys.Initialize(w)
	}
	s.world = w
}

// Update runs one frame: Update on every system, in order.
func (s *Scheduler) Update(w *arche.World) {
	f := s.frame
	k := -1
	if f != nil {
		k = len(f.levels)
		f.levels = append(f.levels, frameLevel{systems: s.systems})
		defer func() { f.levels = f.levels[:k] }() // also when a system panics
	}
	for i, sys := range s.systems {
		if k >= 0 {
			f.levels[k].current = i
		}
		t0 := time.Now()
		sys.Update(w)
		s.totals[i] += time.Since(t0)
	}
	s.frames++
}

// Run runs frames frames.
func (s *Scheduler) Run(w *arche.World, frames int) {
	for range frames {
		s.Update(w)
	}
}

// Finalize calls Finalize on every system, in order. A system added after it
// waits for the next Initialize (see [Scheduler.Add]).
func (s *Scheduler) Finalize(w *arche.World) {
	s.world = nil
	for _, sys := range s.systems {
		sys.Finalize(w)
	}
}

// SystemTime is one system's share of the frames run so far.
type SystemTime struct {
	Name  string        // the system's Name(), or its Go type
	Total time.Duration // wall time spent in Update over all frames
}

// Times returns each system's accumulated Update time, in scheduling order.
func (s *Scheduler) Times() []SystemTime {
	out := make([]SystemTime, len(s.systems))
	for i, sys := range s.systems {
		out[i] = SystemTime{Name: SystemName(sys), Total: s.totals[i]}
	}
	return out
}

// AppendTimes appends each system's accumulated Update time, in scheduling
// order, to dst and returns it: [Scheduler.Times] without allocating once dst
// has the capacity (for live views that poll every few frames).
func (s *Scheduler) AppendTimes(dst []SystemTime) []SystemTime {
	for i, sys := range s.systems {
		dst = append(dst, SystemTime{Name: SystemName(sys), Total: s.totals[i]})
	}
	return dst
}

// Frames returns the number of frames run (Updates) by this Scheduler since it was made.
// After N of them the Clock reads the last frame run: Frame N−1 (from 0) and Time
// (N−1)·DT, its start (see [Clock]); a world resumed from a save counts on from the
// saved Clock, while Frames counts from 0 again.
func (s *Scheduler) Frames() int { return s.frames }

// SystemName returns sys.Name() if sys is a [Namer], else its Go type.
func SystemName(sys System) string {
	if n, ok := sys.(Namer); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", sys)
}

// initFrame gives the scheduler the world's Frame resource, adding it if the
// world has none.
func (s *Scheduler) initFrame(w *arche.World) {
	f := Resource[Frame](w)
	if f == nil {
		f = &Frame{}
		arche.AddResource(w, f)
	}
	s.frame = f
}
