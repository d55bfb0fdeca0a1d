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
	lost uint8 // searches this request lost to a goal move once started (0 or 1: see recheck)
}

// file adds a request of entity e for (start, p.Goal) to the job with that
// key, creating and queueing the job if needed; lost is the searches the
// request already lost to a goal move (pathTicket.lost).
func (s *PathQueue) file(e arche.Entity, p *components.Path, start grid.Cell, lost uint8) {
	key := pathKey{start, p.Goal, s.clearanceOf(e)}
	j, ok := s.byKey[key]
	if !ok {
		j = s.newJob(key, p.Priority, p.Queued)
	}
	job := &s.jobs[j]
	t := s.newTicket(pathTicket{e: e, req: p.Request, next: job.head, lost: lost})
	job.head = t
	s.waiting++
	if job.heapIdx >= 0 && (p.Priority > job.prio || (p.Priority == job.prio && p.Queued < job.seq)) {
		job.prio = max(job.prio, p.Priority)
		job.seq = min(job.seq, p.Queued)
		s.heapUp(int(job.heapIdx))
	}
}

func (s *PathQueue) newJob(key pathKey, prio int8, seq uint64) int32 {
	var j int32
	if n := len(s.freeJobs); n > 0 {
		j = s.freeJobs[n-1]
		s.freeJobs = s.freeJobs[:n-1]
	} else {
		s.jobs = append(s.jobs, pathJob{})
		j = int32(len(s.jobs) - 1)
	}
	s.jobs[j] = pathJob{key: key, prio: prio, seq: seq, head: -1, heapIdx: -1}
	s.byKey[key] = j
	s.heapPush(j)
	return j
}

func (s *PathQueue) newTicket(t pathTicket) int32 {
	if n := len(s.freeTkts); n > 0 {
		i := s.freeTkts[n-1]
		s.freeTkts = s.freeTkts[:n-1]
		s.tickets[i] = t
		return i
	}
	s.tickets = append(s.tickets, t)
	return int32(len(s.tickets) - 1)
}

func (s *PathQueue) freeJob(j int32) {
	delete(s.byKey, s.jobs[j].key)
	s.freeJobs = append(s.freeJobs, j)
}

// serve runs searches until the budget is spent or nothing waits.
func (s *PathQueue) serve(w *arche.World) {
	spent := 0
	for spent < s.Budget {
		if s.active < 0 {
			if len(s.heap) == 0 {
				return
			}
			j := s.heapPop()
			n := s.recheck(w, j, false)
			spent += n
			if s.jobs[j].head < 0 {
				s.freeJob(j)
				continue
			}
			key := s.jobs[j].key
			s.active, s.activeExpanded = j, 0
			s.search = s.searchFor(key.clear)
			if err := s.search.Start(key.start, key.goal); err != nil {
				s.finish(w, j)
				spent++
				continue
			}
		} else if spent == 0 { // a search carried over: anyone still waiting? (not charged)
			s.recheck(w, s.active, true)
			if s.jobs[s.active].head < 0 {
				s.freeJob(s.active)
				s.active = -1
				continue
			}
		}
		if spent >= s.Budget {
			return // the search started resumes next frame
		}
		n, done := s.search.Step(s.Budget - spent)
		s.activeExpanded += n
		spent += max(n, 1)
		s.Expansions += n
		if done {
			s.finish(w, s.active)
		}
	}
}

// recheck walks the requests of job j, dropping those whose agent died,
// replaced the request or stopped waiting, and refiling those whose goal
// changed. started tells whether j's search has begun (carried over from an
// earlier frame, or finished): a request whose goal moved leaves it and
// counts it lost (pathTicket.lost), unless it lost one already, in which case
// it stays and is answered with the path to the goal it had, so a goal that
// moves more often than a search takes cannot starve it (its Path.Goal then
// says which goal the path leads to, and the agent asks again: PathFollow's
// repath test does). It returns the number of requests looked at.
func (s *PathQueue) recheck(w *arche.World, j int32, started bool) int {
	key := s.jobs[j].key
	prev := int32(-1)
	looked := 0
	for t := s.jobs[j].head; t >= 0; {
		looked++
		tk := s.tickets[t]
		next := tk.next
		p, drop := s.requester(w, tk)
		keep := !drop && (p.Goal == key.goal || (started && tk.lost > 0))
		if !keep {
			if prev < 0 {
				s.jobs[j].head = next
			} else {
				s.tickets[prev].next = next
			}
			s.freeTkts = append(s.freeTkts, t)
			s.waiting--
			if drop {
				s.Dropped++
			} else { // the goal moved while waiting: refile from the same start
				lost := tk.lost
				if started {
					lost = 1
				}
				s.file(tk.e, p, key.start, lost)
			}
		} else {
			prev = t
		}
		t = next
	}
	return looked
}

// requester returns the Path of a ticket's agent, and whether the request
// is to be dropped.
func (s *PathQueue) requester(w *arche.World, tk pathTicket) (*components.Path, bool) {
	if !w.Alive(tk.e) {
		return nil, true
	}
	p, pos := s.paths.Get(tk.e)
	if p == nil || pos == nil || p.State != components.PathPending || p.Request != tk.req {
		return nil, true
	}
	return p, false
}

// finish writes the finished search of job j to its requesters and frees
// the job.
func (s *PathQueue) finish(w *arche.World, j int32) {
	s.recheck(w, j, true) // requesters may have died or moved on during the search
	path, _, err := s.search.Result(s.buf)
	s.buf = path
	if err == nil && s.Smooth {
		path = grid.SmoothWide(s.grid, path, path, s.jobs[j].key.clear) // grid.Smooth for clearance 1
	}
	s.Searches++
	goal := s.jobs[j].key.goal
	for t := s.jobs[j].head; t >= 0; t = s.tickets[t].next {
		p, _ := s.paths.Get(s.tickets[t].e)
		if p.Goal != goal {
			s.Overtaken++ // kept after losing a search (recheck): the path leads where the goal was
		}
		p.Goal, p.Next = goal, 0
		p.SightKnown = false // a new path: steering tests its line of sight afresh
		if err != nil {
			p.State = components.PathUnreachable
			p.Waypoints = p.Waypoints[:0]
		} else {
			p.State = components.PathReady
			// a buffer of the path's size class from the stock, if the agent's
			// does not hold it or a smaller one would (pathbuffers.go)
			if wp, ok := s.spares.fit(p.Waypoints, len(path), s.n); ok {
				p.Waypoints = wp
				s.arena.HoldWaypoints(s.tickets[t].e, wp)
			}
			p.Waypoints = append(p.Waypoints[:0], path...)
			if len(path) > 1 {
				p.Next = 1
			}
		}
		s.freeTkts = append(s.freeTkts, t)
		s.waiting--
		s.Served++
	}
	s.jobs[j].head = -1
	s.freeJob(j)
	if s.active == j {
		s.active = -1
	}
}

// The job heap is a binary heap of job indices, highest priority first,
// then lowest seq.
func (s *PathQueue) before(a, b int32) bool {
	ja, jb := &s.jobs[a], &s.jobs[b]
	return ja.prio > jb.prio || (ja.prio == jb.prio && ja.seq < jb.seq)
}

func (s *PathQueue) heapPush(j int32) {
	s.heap = append(s.heap, j)
	s.heapUp(len(s.heap) - 1)
}

func (s *PathQueue) heapPop() int32 {
	h := s.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	s.heap = h[:last]
	if last > 0 {
		s.jobs[s.heap[0]].heapIdx = 0
		s.heapDown(0)
	}
	s.jobs[top].heapIdx = -1
	return top
}

func (s *PathQueue) heapUp(i int) {
	h := s.heap
	j := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !s.before(j, h[p]) {
			break
		}
		h[i] = h[p]
		s.jobs[h[i]].heapIdx = int32(i)
		i = p
	}
	h[i] = j
	s.jobs[j].heapIdx = int32(i)
}

func (s *PathQueue) heapDown(i int) {
	h := s.heap
	n := len(h)
	j := h[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && s.before(h[r], h[c]) {
			c = r
		}
		if !s.before(h[c], j) {
			break
		}
		h[i] = h[c]
		s.jobs[h[i]].heapIdx = int32(i)
		i = c
	}
	h[i] = j
	s.jobs[j].heapIdx = int32(i)
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
