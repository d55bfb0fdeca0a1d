package systems

// The path queue's job heap (pathServer.heap), and startServe's walk of it.

// predict lists in order the jobs a serve of this frame rechecks first, in
// the order it does: the active search's, then the queued ones best first (a
// walk of the heap that leaves it as it is), until they hold at least want
// requests or none is left. Jobs that rechecks create or join are not foreseen.
func (v *pathServer) predict(want int) {
	v.order = v.order[:0]
	n := 0
	if v.active >= 0 {
		v.order = append(v.order, v.active)
		n += v.requestsOf(v.active)
	}
	// cand is a binary heap of positions in v.heap, best job first: a job's
	// children in v.heap come after it, so taking the best candidate and adding
	// its children walks the heap best first
	better := func(a, b int32) bool { return v.before(v.heap[a], v.heap[b]) }
	cand := v.cand[:0]
	if len(v.heap) > 0 {
		cand = append(cand, 0)
	}
	for len(cand) > 0 && n < want {
		i := cand[0]
		last := len(cand) - 1
		cand[0] = cand[last]
		cand = cand[:last]
		siftDown(cand, 0, better)
		j := v.heap[i]
		v.order = append(v.order, j)
		n += v.requestsOf(j)
		for c := 2*i + 1; c <= 2*i+2 && int(c) < len(v.heap); c++ {
			cand = append(cand, c)
			siftUp(cand, len(cand)-1, better)
		}
	}
	v.cand = cand
}

// requestsOf returns the number of requests job j holds.
func (v *pathServer) requestsOf(j int32) int {
	n := 0
	for t := v.jobs[j].head; t >= 0; t = v.tickets[t].next {
		n++
	}
	return n
}

func siftUp(h []int32, i int, better func(a, b int32) bool) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func siftDown(h []int32, i int, better func(a, b int32) bool) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && better(h[r], h[c]) {
			c = r
		}
		if !better(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// The job heap is a binary heap of job indices, highest priority first,
// then lowest seq.
func (v *pathServer) before(a, b int32) bool {
	ja, jb := &v.jobs[a], &v.jobs[b]
	return ja.prio > jb.prio || (ja.prio == jb.prio && ja.seq < jb.seq)
}

func (v *pathServer) heapPush(j int32) {
	v.heap = append(v.heap, j)
	v.heapUp(len(v.heap) - 1)
}

func (v *pathServer) heapPop() int32 {
	h := v.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	v.heap = h[:last]
	if last > 0 {
		v.jobs[v.heap[0]].heapIdx = 0
		v.heapDown(0)
	}
	v.jobs[top].heapIdx = -1
	return top
}

func (v *pathServer) heapUp(i int) {
	h := v.heap
	j := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !v.before(j, h[p]) {
			break
		}
		h[i] = h[p]
		v.jobs[h[i]].heapIdx = int32(i)
		i = p
	}
	h[i] = j
	v.jobs[j].heapIdx = int32(i)
}

func (v *pathServer) heapDown(i int) {
	h := v.heap
	n := len(h)
	j := h[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && v.before(h[r], h[c]) {
			c = r
		}
		if !v.before(h[c], j) {
			break
		}
		h[i] = h[c]
		v.jobs[h[i]].heapIdx = int32(i)
		i = c
	}
	h[i] = j
	v.jobs[j].heapIdx = int32(i)
}
