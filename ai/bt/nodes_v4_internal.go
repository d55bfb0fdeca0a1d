package bt

import (
	"fmt"
	"math"
)

// addV4 checks and resolves the fields of the nodes of nodes_v4.go for [Compile].
func (c *compiler) addV4(n *Node, cn *node, nk int) error {
	switch n.kind {
	case kindSleep:
		if math.IsNaN(n.seconds) || math.IsInf(n.seconds, 0) || n.seconds < 0 {
			return c.fail(true, fmt.Errorf("%w, got %v", ErrInvalidDuration, n.seconds))
		}
	case kindTryCatch:
		cn.n1 = int32(min(max(n.n1, 0), 1))
	case kindParallelAll:
		f := threshold(n.n1, nk)
		if f < 1 || f > nk {
			return c.fail(true, fmt.Errorf("%w: ParallelAll max_failures %d with %d children", ErrInvalidCount, n.n1, nk))
		}
		cn.n1 = int32(f)
	case kindLoop:
		if n.choose == nil {
			return c.fail(true, ErrNilFunc)
		}
		if n.other != Success && n.other != Failure && n.other != Skipped {
			return c.fail(true, fmt.Errorf("%w: if_empty %v, want Success, Failure or Skipped", ErrInvalidStatus, n.other))
		}
	case kindUnsetBlackboard:
		if n.tick == nil {
			return c.fail(true, ErrNilFunc)
		}
	case kindWasEntryUpdated, kindEntryUpdated:
		if n.cond == nil {
			return c.fail(true, ErrNilFunc)
		}
		if n.kind == kindEntryUpdated && n.other != Success && n.other != Failure && n.other != Running && n.other != Skipped {
			return c.fail(true, fmt.Errorf("%w: %v when not updated", ErrInvalidStatus, n.other))
		}
	}
	return nil
}

// tickV4 ticks node i of a kind of nodes_v4.go; see each constructor's doc comment.
func (t *Tree) tickV4(m []NodeMemory, i int32, n *node, mem *NodeMemory, ctx *Context) Status {
	switch n.kind {
	case kindTryCatch:
		return t.tickTryCatch(m, n, mem, ctx)

	case kindParallelAll:
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		fresh := mem.Status != Running
		var done, failed, skipped int32 // skipped: in this tick (a skipped child is ticked again)
		for _, j := range kids {
			s := m[j].Status
			if fresh || (s != Success && s != Failure) {
				s = t.tick(m, j, ctx)
			}
			switch s {
			case Success:
				done++
			case Failure:
				done++
				failed++
			case Skipped:
				skipped++
			}
		}
		switch {
		case skipped == int32(len(kids)):
			return Skipped
		case done+skipped < int32(len(kids)):
			return Running
		case failed >= n.n1:
			return Failure
		}
		return Success

	case kindAsyncSequence:
		return t.tickAsync(m, n, mem, ctx, Success)

	case kindAsyncFallback:
		return t.tickAsync(m, n, mem, ctx, Failure)

	case kindUnsetBlackboard:
		n.tick(ctx)
		return Success

	case kindLoop:
		if mem.Status != Running {
			mem.Timer = 0
		}
		if mem.Status != Running || m[i+1].Status != Running {
			ctx.mem, ctx.node = mem, int(i)
			switch n.choose(ctx) {
			case 0:
				return n.other
			case -1:
				return Failure
			}
		}
		if t.tick(m, i+1, ctx) == Failure {
			return Failure
		}
		return Running

	case kindWasEntryUpdated:
		ctx.mem, ctx.node = mem, int(i)
		if n.cond(ctx) {
			return Success
		}
		return Failure

	case kindEntryUpdated:
		if mem.Status != Running || m[i+1].Status != Running {
			ctx.mem, ctx.node = mem, int(i)
			if !n.cond(ctx) {
				return n.other
			}
		}
		return t.tick(m, i+1, ctx)

	case kindSleep:
		if mem.Status == Running {
			mem.Timer += ctx.DT
		} else {
			mem.Timer = 0
		}
		if !(mem.Timer+epsilon < n.seconds) { // a NaN timer (corrupt Memory) has expired
			return Success
		}
		return Running
	}
	return Failure
}

// tickTryCatch implements TryCatch: see its doc comment.
func (t *Tree) tickTryCatch(m []NodeMemory, n *node, mem *NodeMemory, ctx *Context) Status {
	kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
	try := len(kids) - 1
	if mem.Status != Running {
		mem.Child, mem.Count = 0, 0
	}
	if int(mem.Child) < try {
		k := int(mem.Child)
		s := Success
		for ; k < try; k++ {
			if s = t.tick(m, kids[k], ctx); s == Skipped {
				mem.Count++
			} else if s != Success {
				break
			}
		}
		switch s {
		case Success, Skipped:
			s = allSkipped(Success, int(mem.Count), try)
			mem.Child, mem.Count = 0, 0
			return s
		case Running:
			mem.Child = uint16(k)
			return Running
		}
		// a try child failed: catch, in this tick
	}
	mem.Count = 0
	mem.Child = uint16(try)
	if t.tick(m, kids[try], ctx) == Running {
		return Running
	}
	mem.Child = 0
	return Failure
}

// haltV4 is the part of halting node j that differs from resetting its memory; it
// reports whether it reset the memory itself.
func (t *Tree) haltV4(m []NodeMemory, j int32, n *node, mem *NodeMemory, ctx *Context) bool {
	switch n.kind {
	case kindEntryUpdated:
		*mem = NodeMemory{Timer: mem.Timer} // the last sequence number seen survives halts
		return true
	case kindTryCatch:
		if n.n1 != 0 && int(mem.Child) < int(n.nkids)-1 {
			// catch_on_halt: the try block is already halted (descendants first); run the
			// catch child once, and halt it if it does not finish at once.
			t.catchOnHalt(m, n, ctx)
		}
	}
	return false
}

// catchOnHalt runs a TryCatch's catch child once as its try block is halted, and halts
// it if it does not finish at once. Tree.Halt does not check the clock as Tick does: a
// bad one counts as 0 here too, and ctx gets the caller's values back even if a leaf of
// the catch child panics.
func (t *Tree) catchOnHalt(m []NodeMemory, n *node, ctx *Context) {
	dt, now := ctx.DT, ctx.Time
	defer func() { ctx.DT, ctx.Time = dt, now }()
	if !goodDT(dt) {
		ctx.DT = 0
	}
	if !goodTime(now) {
		ctx.Time = 0
	}
	last := t.kids[n.kidOff+int32(n.nkids)-1]
	if t.tick(m, last, ctx) == Running {
		t.haltRange(m, last, t.nodes[last].end, ctx)
	}
}

// tickAsync ticks an [AsyncSequence] (next is Success: a child's Success moves on) or an
// [AsyncFallback] (next is Failure): a child that returns next moves on to the following
// child, but one that started and finished in this tick returns Running first (one child
// per tick); a skipped child is counted and passed; any other status ends the node with
// it; all children skipped is Skipped, else the node ends with next.
func (t *Tree) tickAsync(m []NodeMemory, n *node, mem *NodeMemory, ctx *Context, next Status) Status {
	kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
	k := 0
	if mem.Status == Running {
		k = int(mem.Child)
	} else {
		mem.Count = 0 // children skipped so far
	}
	s := next
	for ; k < len(kids); k++ {
		resumed := m[kids[k]].Status == Running
		if s = t.tick(m, kids[k], ctx); s == Skipped {
			mem.Count++
			continue
		}
		if s != next {
			break
		}
		if !resumed && k+1 < len(kids) {
			k++
			s = Running
			break
		}
	}
	if k >= len(kids) { // (> only for a corrupt Memory)
		s = allSkipped(next, int(mem.Count), len(kids))
	}
	mem.Child = 0
	if s == Running {
		mem.Child = uint16(k)
	} else {
		mem.Count = 0
	}
	return s
}
