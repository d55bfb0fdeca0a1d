package ecs

import (
	"math"

	arche "github.com/mlange-42/arche/ecs"
)

// Clock is the simulation clock, a world resource. Systems read it to scale
// their work by dt; nothing in archai reads the wall clock.
//
// During frame n (counted from 0), Time is n·DT: the simulation time at the start
// of the step that systems are computing, and the step advances time by DT.
type Clock struct {
	Time    float64 // simulation time in seconds at the start of this frame
	DT      float64 // length of this frame's step in seconds of simulation time
	Frame   int64   // number of this frame, from 0
	Started bool    // frame Frame has begun (false before the first Update)
}

// ClockSystem advances the [Clock] resource once per Update. Add it as the
// first system so every later system sees the current frame. Initialize adds a
// Clock resource to the world if there is none.
//
// Time is computed as Frame·DT rather than summed, so it does not drift.
type ClockSystem struct {
	DT    float64 // step in seconds of simulation time; 1/60 if not a finite positive number
	clock *Clock
	next  int64
}

// NewClockSystem returns a ClockSystem stepping dt seconds per frame.
func NewClockSystem(dt float64) *ClockSystem { return &ClockSystem{DT: dt} }

// Initialize gets or adds the Clock resource. On a world whose clock has
// already run (a resumed or loaded simulation), the next Update continues with
// the following frame.
func (s *ClockSystem) Initialize(w *arche.World) {
	if !(s.DT > 0) || math.IsInf(s.DT, 1) {
		s.DT = 1.0 / 60
	}
	s.clock = ClockOf(w)
	s.clock.DT = s.DT
	s.next = s.clock.Frame
	if s.clock.Started {
		s.next++
	}
}

// Update moves the clock to the next frame.
func (s *ClockSystem) Update(w *arche.World) {
	s.clock.Frame = s.next
	s.clock.DT = s.DT
	s.clock.Time = float64(s.next) * s.DT
	s.clock.Started = true
	s.next++
}

// Name implements [Namer].
func (s *ClockSystem) Name() string { return "clock" }

// Finalize does nothing.
func (s *ClockSystem) Finalize(w *arche.World) {}

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
