package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// pathKey is what a search is shared by: equal cells and equal clearance
// (grid.Options.Clearance, from the requester's radius; see pathqueue_wide.go).
type pathKey struct {
	start, goal grid.Cell
	clear       uint8
}

// pathJob is one search shared by every request with its (start, goal).
type pathJob struct {
	key     pathKey
	prio    int8
	seq     uint64 // oldest ticket number among its requests
	head    int32  // first ticket, -1 if none
	heapIdx int32  // position in the heap, -1 when not queued
}

// pathTicket is one agent's request waiting on a job.
type pathTicket struct {
	e    arche.Entity
	req  uint32 // Path.Request at filing time
	next int32
	lost uint8  // searches this request lost to a goal move once started (0 or 1: see recheck)
	view int32  // its requester's view (pathServer.views), if gen is the frame's
	gen  uint32 // the frame of view (pathServer.gen); 0: none

	since int64 // pathServer.frame when the request was filed (kept when refiled): how long it waits ([Diagnose])
}

// fileRequest files the request of entity e, whose Path is p, from cell start
// (Update's new requests, on the calling goroutine).
func (s *PathQueue) fileRequest(e arche.Entity, p *components.Path, start grid.Cell, again bool) {
	vw := pathView{pending: true, request: p.Request, goal: p.Goal, prio: p.Priority, queued: p.Queued, clear: s.clearanceOf(e)}
	lost := uint8(0)
	if again { // asked again while pending: see Asking again in PathQueue's doc
		lost = 1
	}
	s.file(e, &vw, start, lost, -1, s.frame)
}

// lookView reads the view of requester e (see pathView) in w.
func (s *PathQueue) lookView(w *arche.World, e arche.Entity) pathView {
	if !w.Alive(e) {
		return pathView{gone: true}
	}
	p, pos := s.paths.GetUnchecked(e) // alive: one liveness check for the three components
	if p == nil || pos == nil {
		return pathView{gone: true}
	}
	c := uint8(1)
	if k := s.kin.GetUnchecked(e); k != nil {
		c = grid.ClearanceFor(k.Radius) // clearanceOf
	}
	return pathView{pending: p.State == components.PathPending, request: p.Request, goal: p.Goal,
		prio: p.Priority, queued: p.Queued, clear: c}
}

// viewJob gives every request of job j this frame's view of its requester,
// read in w if the frame has none of it yet.
func (s *PathQueue) viewJob(w *arche.World, j int32) {
	v := &s.pathServer
	for t := v.jobs[j].head; t >= 0; t = v.tickets[t].next {
		tk := &v.tickets[t]
		if tk.gen == v.gen {
			continue
		}
		i, ok := v.viewOf[tk.e]
		if !ok {
			i = v.addView(tk.e, s.lookView(w, tk.e))
		}
		tk.view, tk.gen = i, v.gen
	}
}

// serveOn runs (or goes on with) the frame's serve on the calling goroutine,
// giving it the views it asks for, then writes its answers.
func (s *PathQueue) serveOn(w *arche.World) (changed int) {
	v := &s.pathServer
	for v.need >= 0 {
		s.viewJob(w, v.need)
		v.need = v.serve()
	}
	changed = s.apply(w)
	s.tally()
	return changed
}

// apply writes the frame's answers into the requesters' Paths, in the order
// the searches gave them. An answer whose requester died or whose Path changed
// its request since it was looked at (only a system run between the queue and
// its PathJoin can do that) is not written: it counts as dropped. It returns
// the number of such answers.
func (s *PathQueue) apply(w *arche.World) (changed int) {
	v := &s.pathServer
	for i := range v.answers {
		a := &v.answers[i]
		res := &v.results[a.result]
		var p *components.Path
		var pos *components.Position
		if w.Alive(a.e) {
			p, pos = s.paths.GetUnchecked(a.e)
		}
		if p == nil || p.State != components.PathPending || p.Request != a.req || p.Goal != a.goal {
			v.served--
			v.drop(p == nil, p != nil && p.State != components.PathPending)
			changed++
			continue
		}
		if pos != nil {
			s.pendingLive-- // pending, in the query, and answered now
		}
		p.Goal, p.Next = res.goal, 0
		p.SightKnown = false // a new path: steering tests its line of sight afresh
		if !res.ok {
			p.State = components.PathUnreachable
			p.Waypoints = p.Waypoints[:0]
			continue
		}
		p.State = components.PathReady
		path := v.cells[res.lo:res.hi]
		// a buffer of the path's size class from the stock, if the agent's
		// does not hold it or a smaller one would (pathbuffers.go)
		if wp, ok := s.spares.fit(p.Waypoints, len(path), s.n); ok {
			p.Waypoints = wp
			s.arena.HoldWaypoints(a.e, wp)
		}
		p.Waypoints = append(p.Waypoints[:0], path...)
		if len(path) > 1 {
			p.Next = 1
		}
	}
	v.answers = v.answers[:0]
	return changed
}

// scanWants sets s.wants, in query order, to this frame's requesters (Want),
// and with pendingToo to the pending agents as well (orphan candidates, which
// keepOrphans sorts out), and returns the number of pending agents without Want.
func (s *PathQueue) scanWants(pendingToo bool) (pending int) {
	if !pendingToo && s.pool != nil && s.n >= lightParallelMin {
		return s.scanWantsShared()
	}
	c := &s.cols
	s.wants = s.wants[:0]
	for r := range c.runs {
		start := c.runs[r].start
		paths := columnOf[components.Path](c, r, 0, s.n)
		for k := range paths {
			switch {
			case paths[k].Want:
			case paths[k].State == components.PathPending:
				pending++
				if !pendingToo {
					continue
				}
			default:
				continue
			}
			s.wants = append(s.wants, int32(start+k))
		}
	}
	return pending
}

// keepOrphans keeps in s.wants (whose entities are read) the requesters and the
// pending agents without a ticket for their latest request, marks the latter as
// wanting their path again, and returns how many they are. It runs only on a
// frame with more pending agents than tickets, so it may allocate.
func (s *PathQueue) keepOrphans() int {
	live := make(map[pathRequest]struct{}, s.waiting)
	s.requests(live)
	c := &s.cols
	kept, n, r := s.wants[:0], 0, 0
	for _, i32 := range s.wants {
		i := int(i32)
		r = c.run(i, r)
		p := (*components.Path)(c.at(r, 0, i))
		if !p.Want {
			if _, ok := live[pathRequest{c.ents[i], p.Request}]; ok {
				continue
			}
			p.Want = true
			n++
		}
		kept = append(kept, i32)
	}
	s.wants = kept
	return n
}

// pathRequest is one request the queue holds: the requester and the
// Path.Request it was filed under.
type pathRequest struct {
	e   arche.Entity
	req uint32
}

// pathWaits is what [PathQueue.longWaits] finds: the live pending agents
// waiting long, the longest wait, and whether the agent waiting longest is
// held back by priority.
type pathWaits struct {
	n      int   // agents waiting frames or more
	oldest int64 // the longest wait, in frames
	prio   int8  // the priority of the oldest agent's request (its job's)
	// behind: requests of a higher priority than the oldest's were served
	// since it was filed, or wait beside it
	behind bool
}

// longWaits counts the agents of w whose Path is pending and the queue holds a
// request of that has waited frames or more (an agent with several requests,
// asked again while waiting, counts once, with its oldest), and finds the
// longest wait. A request of an agent removed, or no longer pending, is not
// counted though the queue still holds it (it drops it when reached). It walks
// every request the queue holds: [Diagnose] calls it, on the calling goroutine,
// after joining the queue's searches.
func (s *PathQueue) longWaits(w *arche.World, frames int64) (pw pathWaits) {
	if s.waitAge == nil {
		s.waitAge = make(map[arche.Entity]int64)
	}
	ages := s.waitAge
	clear(ages)
	var since int64
	maxPrio := int8(-128)
	for _, j := range s.byKey {
		job := &s.jobs[j]
		for t := job.head; t >= 0; t = s.tickets[t].next {
			tk := &s.tickets[t]
			if !w.Alive(tk.e) {
				continue
			}
			p, pos := s.paths.GetUnchecked(tk.e)
			if p == nil || pos == nil || p.State != components.PathPending {
				continue
			}
			age := s.frame - tk.since
			if a, ok := ages[tk.e]; !ok || age > a {
				ages[tk.e] = age
			}
			maxPrio = max(maxPrio, job.prio)
			if age > pw.oldest || age == pw.oldest && job.prio < pw.prio {
				pw.oldest, pw.prio, since = age, job.prio, tk.since
			}
		}
	}
	for _, a := range ages {
		if a >= frames {
			pw.n++
		}
	}
	clear(ages)
	if pw.n == 0 {
		return pathWaits{}
	}
	pw.behind = maxPrio > pw.prio
	for p := int(pw.prio) + 1; p <= 127 && !pw.behind; p++ {
		pw.behind = s.servedAt[p+128] >= since && s.servedAt[p+128] > 0
	}
	return pw
}

// requests adds to live every request the queue holds. An agent's Path may
// hold a smaller request number than a stale ticket of it (a Path value
// replaced whole starts again from 0), so a pending agent is waited for when
// its own number is among them, not the largest.
func (s *PathQueue) requests(live map[pathRequest]struct{}) {
	for _, j := range s.byKey {
		for t := s.jobs[j].head; t >= 0; t = s.tickets[t].next {
			tk := s.tickets[t]
			live[pathRequest{tk.e, tk.req}] = struct{}{}
		}
	}
}

// jumpPointsWouldServe reports whether the queue searches by A* where jump
// point search would serve: Options.JumpPoints off, Moves8, and a grid whose
// passable cells all cost the same (Report.PathWaitJumpPoints).
func (s *PathQueue) jumpPointsWouldServe() bool {
	g := s.grid
	return g != nil && !s.Options.JumpPoints && s.Options.Moves == grid.Moves8 && g.MinCost() == g.MaxCost()
}
