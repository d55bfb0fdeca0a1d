package ecs

import (
	"errors"
	"fmt"
	"math"

	arche "github.com/mlange-42/arche/ecs"
)

// Clock is the simulation clock, a world resource. Systems read it to scale
// their work by dt; nothing in archai reads the wall clock.
//
// During frame n (counted from 0), Time is the simulation time at the start of the
// step that systems are computing (n·DT while DT has not changed), and the step
// advances time by DT.
//
// Important: a Clock read between two Updates describes the frame that last ran, not
// the time elapsed: after N Updates (Scheduler.Frames() == N) Frame is N−1 and Time is
// (N−1)·DT; the simulated time that has passed is Time+DT (N·DT), and the frame the next
// Update runs is Frame+1. A script keyed to frames ("open the door at frame 300") that
// is replayed after a load runs up to Frame+1, and a report of elapsed time prints
// Time+DT (see the Clock example).
//
// Important: under a [ClockSystem] the Clock is its output, not its setting: to change
// the step set the system's DT (clockSystem.DT = 1.0/30 between frames). A DT written to
// the Clock alone is overwritten by the next Update, which steps the system's DT and
// counts it ([IgnoredDT]; systems.Diagnose: clock_dt_written).
type Clock struct {
	Time    float64 // simulation time in seconds at the start of this frame
	DT      float64 // length of this frame's step in seconds of simulation time; under a ClockSystem set its DT instead (see above)
	Frame   int64   // number of this frame, from 0
	Started bool    // frame Frame has begun (false before the first Update)
}

// ClockSystem advances the [Clock] resource once per Update. Add it as the
// first system so every later system sees the current frame. Initialize adds a
// Clock resource to the world if there is none. The systems that need a clock
// (decision, level of detail, perception, steering, movement) panic at their
// Initialize if the world has no Clock resource yet.
//
// Time is computed as Frame·DT rather than summed, so it does not drift.
// DT may change between two Updates (a variable step): Time then continues from
// the time the last frame ended at (its Time plus its DT), so it never goes back or
// jumps; from then on each frame's Time is the last one's plus its DT (a sum, which
// rounds: only a constant step from frame 0 keeps exactly Frame·DT). The rule reads
// only the last frame, so a run saved and resumed gives the same times to the bit
// as the run not interrupted. A DT that [CheckDT] rejects when
// Update runs (0, NaN, infinite, negative: set between frames) steps that frame
// by 1/60, and [ReplacedDT] tells so until a usable DT runs again; to pause, do
// not call Update. The step is this system's DT, never the Clock resource's: a DT the
// program writes to the Clock alone between frames (ecs.ClockOf(w).DT = x, its Frame,
// Time and Started as this system left them) is overwritten by the next Update, which
// steps DT and counts it ([IgnoredDT]; systems.Diagnose reports clock_dt_written, with
// the value written, until the ClockSystems are finalized). Writing both (the same
// value) is not counted.
//
// The program (a level restarted on the same world: *clock = ecs.Clock{}) or a load
// (systems/save's LoadInto into a world whose ClockSystem is initialized) may set the
// Clock's Frame, Time and Started between two Updates: the next Update goes on from
// them, as after an Initialize (frame Frame+1 at Time+DT if Started, else frame Frame at
// Frame·DT: a clock not started has no time to go on from, its Time is not read).
// A started Clock's Time written NaN or infinite cannot be gone on from: that frame is
// at Frame·DT, counted by [IgnoredTime] (systems.Diagnose: clock_time_written). A load
// sets the Clock with [SetClock], gone on from even at the frame and time it held.
// Before, it overwrote them with its own count: a world loaded at frame 300 went on at
// frame 0, time 0.
//
// A DT that [CheckDT] rejects (NaN, infinite, ≤ 0) at Initialize is a fault of
// setup: Initialize panics with a *[SetupError] (ErrSettings, wrapping [ErrDT]),
// which [Scheduler.InitializeChecked] and [CheckSetup] return as an error (1/30
// written with integers is 0 in Go). It used to be replaced by 1/60 in silence
// but for systems.Diagnose. [NewClockSystemChecked] refuses it already when the
// system is made.
// A large finite DT is kept: every archai system gives a bounded result for
// any finite dt > 0 (Movement cuts a step to the grid's size). DT is in
// seconds: a step over a second (systems.MaxDT), such as 16.7 for milliseconds,
// is reported by systems.Diagnose as Report.ClockDT, also once such steps have run
// Time to +Inf (math.MaxFloat64 does at frame 2: Report.ClockFault is then
// clock_time_not_finite and ClockDT names its cause). A program that advances its
// own Clock resource instead may set any DT and Time: a NaN, infinite or ≤ 0 DT,
// or a NaN or infinite Time, is reported by systems.Diagnose as
// Report.ClockFault.
//
// Contract: requires no component; writes the Clock resource (added at
// Initialize when the world has none).
type ClockSystem struct {
	DT    float64 // step in seconds of simulation time, finite and > 0 (Initialize panics otherwise); may change between Updates (a frame of a DT not usable steps 1/60)
	clock *Clock
	next  int64

	// The Time and DT of the frame before next (prev: there was one, the clock had
	// started). Frame n's Time is n·DT when frame n−1 ran at this DT and at Time
	// (n−1)·DT (a constant step from frame 0: exact, no drift), else frame n−1's
	// Time plus its DT. The rule reads only the last frame, which a saved Clock
	// holds too: a resumed run gives the times of the run not interrupted, to the bit.
	prevTime, prevDT float64
	prev             bool

	finalized bool // Finalize ran, and Initialize not since: Update panics

	// the DT the program set between frames that the last Update rejected and
	// stepped 1/60 instead (stepReplaced): reported by ReplacedDT until an
	// Update runs a usable DT again
	stepGiven    float64
	stepReplaced bool
	live         *clockSystems
	ran          Ran // the frame it last began, for Frame.Between

	sets uint64 // clockSystems.sets when this system last took the clock (SetClock since: a load)
}

// ErrDT is the error [CheckDT] wraps: a step that is not a finite number of
// seconds greater than zero.
var ErrDT = errors.New("dt must be a finite number of seconds > 0")

// CheckDT returns nil if dt is a usable step (finite and > 0), else an error
// wrapping [ErrDT] that quotes dt.
func CheckDT(dt float64) error {
	if dt > 0 && !math.IsInf(dt, 1) {
		return nil
	}
	return fmt.Errorf("ecs: clock step %v: %w", dt, ErrDT)
}

// NewClockSystem returns a ClockSystem stepping dt seconds per frame. A dt
// that [CheckDT] rejects makes its Initialize panic with a *[SetupError]
// (returned by [Scheduler.InitializeChecked] and [CheckSetup]).
func NewClockSystem(dt float64) *ClockSystem { return &ClockSystem{DT: dt} }

// NewClockSystemChecked returns a ClockSystem stepping dt seconds per frame,
// or the error of [CheckDT] (wrapping [ErrDT]) if dt is NaN, infinite or ≤ 0.
func NewClockSystemChecked(dt float64) (*ClockSystem, error) {
	if err := CheckDT(dt); err != nil {
		return nil, err
	}
	return &ClockSystem{DT: dt}, nil
}

// Initialize gets or adds the Clock resource. On a world whose clock has
// already run (a resumed or loaded simulation), the next Update continues with
// the following frame, and the Clock keeps the DT of the frame it describes
// (a variable step's last, which may differ from this system's DT) until then;
// a clock not started takes this system's DT.
//
// Panics:
//   - with a *[SetupError] (ErrSettings, wrapping [ErrDT]) if DT is 0, negative,
//     NaN or infinite, before it touches the world; [Scheduler.InitializeChecked]
//     and [CheckSetup] return it. The message names ClockSystem.DT and its value
//     (for 0: in Go 1/30 is an integer division, write 1.0/30).
func (s *ClockSystem) Initialize(w *arche.World) {
	if err := CheckDT(s.DT); err != nil {
		hint := "give the step in seconds, 1.0/60 for 60 frames a second"
		if s.DT == 0 { // most often an integer division
			hint = "in Go 1/30 is an integer division, 0: write 1.0/30; to pause, skip Update"
		}
		panic(&SetupError{System: "ClockSystem", Kind: ErrSettings, Err: err,
			Msg: fmt.Sprintf("ecs: ClockSystem.DT is %v: %v (%s)", s.DT, ErrDT, hint)})
	}
	live := Resource[clockSystems](w)
	if live == nil {
		live = &clockSystems{}
		arche.AddResource(w, live)
	}
	s.clock, s.finalized = ClockOf(w), false
	s.live, s.stepReplaced = live, false
	live.n++
	s.resume()
	if !s.clock.Started || CheckDT(s.clock.DT) != nil {
		// a started clock (resumed or loaded) keeps the step of the frame it
		// describes, so that Time+DT stays the time that has passed and a
		// loaded world's StateHash its saved one's; the next Update steps DT
		s.clock.DT = s.DT
	}
	live.left = s.clock.DT
	s.ran.Join(w, s)
}

// resume takes the clock's frame, time and step as the last frame's (as the clock
// holds them: a fresh, resumed or loaded one).
func (s *ClockSystem) resume() {
	s.prevTime, s.prevDT, s.prev = s.clock.Time, s.clock.DT, s.clock.Started
	s.next = s.clock.Frame
	if s.clock.Started {
		s.next++
	}
	s.sets = s.live.sets
}

// written reports whether the clock still holds the frame, time and started flag this
// system set last (or found at Initialize), and no [SetClock] ran since: false if the
// program or a load wrote them.
func (s *ClockSystem) written() bool {
	c := s.clock
	frame := s.next
	if s.prev {
		frame--
	}
	return s.sets == s.live.sets && c.Started == s.prev && c.Frame == frame &&
		math.Float64bits(c.Time) == math.Float64bits(s.prevTime)
}

// Update moves the clock to the next frame, by the DT of this frame (see
// [ClockSystem] for a DT that changes).
//
// Panics: if called before Initialize, or after Finalize with no Initialize since
// (programming errors: the clock is not set up, or the program has finished with the
// world), as every archai system does.
func (s *ClockSystem) Update(w *arche.World) {
	if s.clock == nil {
		if s.finalized {
			panic("ecs: ClockSystem.Update called after Finalize: call Initialize(w) again first (a level restart), or stop updating it")
		}
		panic("ecs: ClockSystem.Update called before Initialize: call Initialize(w) on every system (Scheduler.Initialize, or arche-model's model.Run) before the first Update")
	}
	if !s.written() { // a load or the program set the clock (a level restart): go on from it
		s.resume()
		if s.prev && (math.IsNaN(s.prevTime) || math.IsInf(s.prevTime, 0)) {
			// no time to go on from: Frame·DT below, told by IgnoredTime
			s.live.times++
			s.live.time = s.prevTime
		}
	} else if d := math.Float64bits(s.clock.DT); d != math.Float64bits(s.live.left) && d != math.Float64bits(s.DT) {
		// the program wrote DT alone, not the step it set this system to: the step is
		// this system's DT, told by IgnoredDT
		s.live.dts++
		s.live.dt, s.live.step = s.clock.DT, s.DT
	}
	dt := s.DT
	if CheckDT(dt) != nil {
		dt = 1.0 / 60
		s.stepGiven, s.stepReplaced = s.DT, true // a pause written as DT 0: ReplacedDT tells
		s.live.replaced, s.live.given = true, s.DT
	} else if s.stepReplaced { // a usable step again
		s.stepReplaced = false
		s.live.replaced, s.live.given = false, 0
	}
	t := float64(s.next) * dt
	if s.prev && (s.prevDT != dt || s.prevTime != float64(s.next-1)*dt) {
		// the step changed (now or before): go on from where the last frame ended
		last := s.prevDT
		if CheckDT(last) != nil { // a program's own clock: its step counts as this one
			last = dt
		}
		if e := s.prevTime + last; !math.IsNaN(e) && !math.IsInf(e, 0) {
			t = e
		}
	}
	s.clock.Frame = s.next
	s.clock.DT, s.live.left = dt, dt
	s.clock.Time = t
	s.prevTime, s.prevDT, s.prev = t, dt, true
	s.clock.Started = true
	s.next++
	s.ran.Mark(w)
}

// Name implements [Namer].
func (s *ClockSystem) Name() string { return "clock" }

// Finalize lets go of the world's clock: Update panics until the next Initialize.
// The Clock resource stays in the world as it is (a later Initialize resumes it).
// A Finalize before Initialize, or a second one, does nothing.
func (s *ClockSystem) Finalize(w *arche.World) {
	if s.clock != nil {
		s.ran.Leave()
		s.clock, s.finalized = nil, true
		if live := Resource[clockSystems](w); live != nil && live.n > 0 {
			live.n--
			if live.n == 0 {
				live.replaced, live.given = false, 0
				live.dts, live.dt, live.step, live.times, live.time = 0, 0, 0, 0, 0
			}
		}
	}
}

// clockSystems is a world resource: the number of ClockSystem Initialize calls in the
// world less their Finalize calls (see [LiveClockSystems]), and the last step one of
// them replaced by 1/60 (see [ReplacedDT]); the Clock DTs and Times written and not
// used (see [IgnoredDT], [IgnoredTime]), and the count of [SetClock] calls.
type clockSystems struct {
	n        int
	replaced bool
	given    float64

	dts      uint64  // Updates that found Clock.DT written alone
	dt, step float64 // the last DT found so, and the step used instead
	times    uint64  // Updates that found a started Clock's Time written NaN or infinite
	time     float64 // the last such Time
	sets     uint64  // SetClock calls
	left     float64 // the DT a ClockSystem last left in the Clock (Initialize, Update)
}

// IgnoredDT reports how many Updates of the [ClockSystem]s initialized in w (since the
// first of them, until all are finalized) found the Clock resource's DT written by the
// program between frames, its Frame, Time and Started left as the system set them (such
// as ecs.ClockOf(w).DT = 1.0/30), and stepped the system's own DT instead; the last DT
// found so, and the step used in its place. The Clock's DT is the system's output (the
// step of the frame that last ran), not its setting: to change the step, set
// ClockSystem.DT (clockSystem.DT = 1.0/30, clockSystem being the value of
// [NewClockSystem] in the schedule). systems.Diagnose reports it (Report.ClockFault
// clock_dt_written). A clock set as a whole ([SetClock], a load, or Frame, Time or
// Started written too, as a level restart does) is gone on from, not counted.
func IgnoredDT(w *arche.World) (n uint64, written, step float64) {
	if live := Resource[clockSystems](w); live != nil && live.n > 0 {
		return live.dts, live.dt, live.step
	}
	return 0, 0, 0
}

// IgnoredTime reports how many Updates of the [ClockSystem]s initialized in w (since
// the first of them, until all are finalized) found a started Clock's Time written by
// the program NaN or infinite, a time no frame can go on from, and stepped to Frame·DT
// instead; and the last such Time. systems.Diagnose reports it (Report.ClockFault
// clock_time_written). A finite Time written between frames is gone on from (see
// [ClockSystem]).
func IgnoredTime(w *arche.World) (n uint64, written float64) {
	if live := Resource[clockSystems](w); live != nil && live.n > 0 {
		return live.times, live.time
	}
	return 0, 0
}

// SetClock sets w's Clock resource to c as a whole (adding one if w has none), as a
// load does (systems/save's LoadInto calls it): a [ClockSystem] initialized in w goes
// on from it at its next Update, as after an Initialize, even when c's Frame, Time and
// Started are those the clock held already, and does not count c's DT as written alone
// ([IgnoredDT]).
func SetClock(w *arche.World, c Clock) {
	*ClockOf(w) = c
	if live := Resource[clockSystems](w); live != nil {
		live.sets++
	}
}

// ReplacedDT reports whether a [ClockSystem] initialized in w (and not all finalized
// since) was given a DT that [CheckDT] rejects and steps 1/60 instead, and the DT it
// was given: a DT set between frames and met by its last Update (until an Update runs
// a usable DT again; at Initialize such a DT is a *[SetupError]). A game that pauses
// by setting DT to 0 goes on at 1/60 s a frame (to pause, skip Update), and
// clock.DT = 1/30 between frames sets 0 (an integer division in Go).
// systems.Diagnose reports it (Report.ClockFault clock_dt_replaced).
func ReplacedDT(w *arche.World) (given float64, ok bool) {
	if live := Resource[clockSystems](w); live != nil && live.n > 0 && live.replaced {
		return live.given, true
	}
	return 0, false
}

// LiveClockSystems returns the number of [ClockSystem]s initialized in w and not
// finalized since (a second Initialize of one system without a Finalize counts twice).
// More than one is a mistake nothing else shows: each advances the same Clock a frame
// (of its own DT) at its Update, so the world runs two frames per schedule step.
// systems.Diagnose reports it in Report.Twice as "clock".
func LiveClockSystems(w *arche.World) int {
	if live := Resource[clockSystems](w); live != nil {
		return live.n
	}
	return 0
}

// Resource returns the world's resource of type T, or nil if it has none.
// Unlike arche.GetResource it does not panic on a missing resource.
func Resource[T any](w *arche.World) *T {
	r, _ := w.Resources().Get(arche.ResourceID[T](w)).(*T)
	return r
}

// ClockOf returns the world's Clock resource, adding a zero Clock (dt 1/60 s)
// if the world has none.
func ClockOf(w *arche.World) *Clock {
	if c := Resource[Clock](w); c != nil {
		return c
	}
	c := &Clock{DT: 1.0 / 60}
	arche.AddResource(w, c)
	return c
}
