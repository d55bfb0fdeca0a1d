package ecs

import (
	"slices"

	arche "github.com/mlange-42/arche/ecs"
)

// Ran is what a system keeps to tell its world's [Frame] resource the frame it last
// ran, so that code a system calls (save.Save) can tell, under any scheduler (a
// [Scheduler], arche-model's Model, a loop of the program's own), whether some
// systems have run this frame and others not. Every archai system keeps one; a
// system of the program's own may too: [Ran.Join] in Initialize, [Ran.Mark] first
// thing in Update (also in an Update that has nothing to do this frame: a throttled
// or level-of-detail system has run the frame all the same), [Ran.Leave] in Finalize.
//
// A frame is the [Clock]'s: Mark records Clock.Frame as the clock reads then (the
// [ClockSystem], scheduled first, records the frame it has just begun), or "before
// the first frame" while the clock has not started or the world has none. So
// systems that Mark are told apart only by a Clock that moves on each frame; in a
// world whose clock never changes they all read alike, and [Frame.Between] finds
// none of them between two others.
//
// The zero Ran is ready to Join. A Ran must not be copied after Join (the Frame
// holds its address): keep it in the system's struct, used through a pointer.
type Ran struct {
	frame *Frame // the Frame of the world joined, nil when not joined
	sys   System // the system it speaks for, named in Frame.Between
	last  int64  // the clock frame of the last Mark (or the frame joined at); -1: before the first frame
}

// Join records sys in w's [Frame] resource (adding one if w has none) as a system
// that Marks each frame it runs, and takes the frame the systems already joined
// ran last as its own (the clock's frame if none has), so that a system joining
// between two frames counts as having run the last one. A Ran joined to another
// world leaves it first; joined again to the same world, it keeps its place.
func (r *Ran) Join(w *arche.World, sys System) {
	f := Resource[Frame](w)
	if f == nil {
		f = &Frame{}
		arche.AddResource(w, f)
	}
	r.sys = sys
	if r.frame == f {
		return
	}
	r.Leave()
	r.last = clockFrame(Resource[Clock](w))
	if len(f.ran) > 0 {
		r.last = f.ran[0].last
		for _, o := range f.ran[1:] {
			r.last = max(r.last, o.last)
		}
	}
	r.frame = f
	f.ran = append(f.ran, r)
}

// Mark records that the system runs the world's current frame. It does nothing
// before [Ran.Join] or after [Ran.Leave], and allocates nothing.
func (r *Ran) Mark(w *arche.World) {
	if r.frame != nil {
		r.last = clockFrame(Resource[Clock](w))
	}
}

// Leave takes the system out of the Frame it joined: a system finalized no longer
// runs each frame, and must not count as one that has not run this one. A Leave
// when not joined does nothing.
func (r *Ran) Leave() {
	if f := r.frame; f != nil {
		if i := slices.Index(f.ran, r); i >= 0 {
			f.ran = slices.Delete(f.ran, i, i+1)
		}
		r.frame = nil
	}
}

// clockFrame is the frame a Ran records for clock c: its Frame once started, else -1.
func clockFrame(c *Clock) int64 {
	if c == nil || !c.Started {
		return -1
	}
	return c.Frame
}

// ranBetween reports whether the systems that joined f read different frames
// (some have run the latest frame, others not yet), naming the last (in the order
// they joined, the schedule's) that has run it and the first after it that has not
// (else the first that has not).
func (f *Frame) ranBetween() (ran, next string, ok bool) {
	if len(f.ran) < 2 {
		return "", "", false
	}
	hi, lo := f.ran[0].last, f.ran[0].last
	for _, r := range f.ran[1:] {
		hi, lo = max(hi, r.last), min(lo, r.last)
	}
	if hi == lo {
		return "", "", false
	}
	at := -1
	for i, r := range f.ran {
		if r.last == hi {
			at = i
		}
	}
	nx := -1
	for i := range f.ran {
		j := (at + 1 + i) % len(f.ran)
		if f.ran[j].last < hi {
			nx = j
			break
		}
	}
	return SystemName(f.ran[at].sys), SystemName(f.ran[nx].sys), true
}
