package debugview

import (
	"math"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// op is a command of the page.
type op uint8

const (
	opWake     op = iota // nothing: wakes a paused Update (SetEnabled)
	opPause              // stop after this frame
	opResume             // run on
	opStep               // run one frame, then pause
	opSelect             // select the agent whose entity ID is id
	opDeselect           // select no agent
	opSpeed              // pace at value times real time
)

type command struct {
	op    op
	id    uint32
	value float64
}

// drain applies the commands waiting, without blocking.
func (v *Viewer) drain(w *arche.World) {
	for {
		select {
		case c := <-v.cmds:
			v.apply(w, c)
		default:
			return
		}
	}
}

// hold blocks while paused, applying commands (and publishing what they
// change), until a resume, a step, SetEnabled(false) or Close.
func (v *Viewer) hold(w *arche.World) {
	for v.paused && !v.stepOnce && v.enabled.Load() {
		var retry <-chan time.Time
		if v.dirty { // the last snapshot met a reader: publish it once the reader is done
			retry = time.After(time.Millisecond)
		}
		select {
		case <-retry:
			v.publish()
		case c := <-v.cmds:
			v.apply(w, c)
			if v.dirty && v.paused {
				t0 := time.Now()
				v.capture(w, t0)
				v.work += time.Since(t0)
			}
		case <-v.done:
			v.paused = false
		}
	}
	v.stepOnce = false
	v.reanchor()
}

func (v *Viewer) apply(w *arche.World, c command) {
	switch c.op {
	case opPause:
		v.paused = true
	case opResume:
		v.paused = false
	case opStep:
		v.paused, v.stepOnce = true, true
	case opSelect:
		v.selectID(w, c.id)
	case opDeselect:
		v.selected, v.selErr = arche.Entity{}, ""
		v.forget(w)
	case opSpeed:
		v.speed = c.value
		v.reanchor()
	case opWake:
		return
	}
	v.dirty = true
}

// selectID selects the living agent (an entity with a Position) whose ID is
// id, or records why it cannot.
func (v *Viewer) selectID(w *arche.World, id uint32) {
	v.forget(w)
	q := w.Query(v.filter)
	for q.Next() {
		if e := q.Entity(); e.ID() == id {
			v.selected, v.selErr = e, ""
			q.Close()
			v.findTreeRuns(w, e)
			v.findStates(w, e)
			// the utility choices' baselines and Traces now, so that a selection
			// while paused shows the scores of every utility State at once
			v.observeUtility(w)
			v.observeSelectors(w)
			// and the trees' (the Brain's, the state machine's and its trees'), so
			// that their logs start with the statuses at the selection at once too
			v.observeTree(w)
			v.observeFSM(w)
			return
		}
	}
	v.selected = arche.Entity{}
	v.selErr = "no agent with entity ID " + itoa(uint64(id))
}

// forget drops what the viewer followed of the selected agent: its logs, its
// tracers and the Traces given to its utility States.
func (v *Viewer) forget(w *arche.World) {
	v.tracer, v.traced = nil, nil
	v.planSeen, v.planLog = planSeen{}, v.planLog[:0]
	v.fsmSeen, v.fsmLog = fsmSeen{}, v.fsmLog[:0]
	v.utilSeen, v.utilLog = utilSeen{}, v.utilLog[:0]
	v.unrecordTicks(w) // before runComps, the agent's TreeRuns, are forgotten
	v.runComps, v.stateTracers, v.treesBaselined = v.runComps[:0], v.stateTracers[:0], false
	v.untrace(w)
	v.untraceStates(w)
}

// aliveIn reports whether e is alive in w (an entity of the last world after a
// level restart is not, and asking must not panic).
func aliveIn(w *arche.World, e arche.Entity) bool { return ecs.Alive(w, e) }

// observe records the selected agent's tree, plan, state machine and utility
// transitions, every frame.
func (v *Viewer) observe(w *arche.World) {
	if v.selected.IsZero() {
		return
	}
	if ecs.Alive(w, v.selected) { // an entity of the last world after a level restart: dead, not a panic
		v.observePlan(w)
		v.observeFSM(w)
		v.observeUtility(w)
		v.observeSelectors(w)
	}
	v.observeTree(w)
}

// observeTree records the transitions of the selected agent's tree (its Brain's).
func (v *Viewer) observeTree(w *arche.World) {
	if !ecs.Alive(w, v.selected) || !w.Has(v.selected, v.ids.brain) {
		v.tracer, v.traced = nil, nil
		return
	}
	brain := (*components.Brain)(w.Get(v.selected, v.ids.brain))
	if brain.Tree == nil || brain.Memory.Len() != brain.Tree.Len() {
		v.tracer, v.traced = nil, nil
		return
	}
	v.recordTicks(w, &brain.Memory)
	now := v.frameTime()
	if v.traced != brain.Tree {
		// the statuses when the agent is selected are the log's baseline
		// ("selected"), not transitions from Idle: the log shows what changes from here
		v.tracer, v.traced = bt.NewTracer(brain.Tree, 4096), brain.Tree
		v.tracer.Observe(&brain.Memory, now)
		v.traceStart = len(v.tracer.Log())
		v.treeBase = baselineOf(&brain.Memory, now)
	}
	v.tracer.Observe(&brain.Memory, now)
}

// frameTime is this frame's simulation time in seconds, as the systems see
// it (Clock.Time, n·DT in frame n at a constant step); without a clock, frames count 1/60 s.
func (v *Viewer) frameTime() float64 {
	if v.clock != nil {
		return v.clock.Time
	}
	return float64(v.frames-1) / 60
}

// pace waits so that simulation time runs at speed times real time; it
// re-anchors when the simulation falls more than a quarter second behind (no
// catching up in a burst). While it waits it applies the page's commands: a
// new speed re-anchors (a tiny speed's long wait ends at once), SetEnabled(false)
// and Close end the wait; other commands take effect and the wait goes on.
func (v *Viewer) pace(w *arche.World) {
	for v.speed > 0 && v.enabled.Load() {
		if v.anchorWall.IsZero() {
			v.reanchor()
			return
		}
		ns := (v.frameTime() - v.anchorSim) / v.speed * float64(time.Second)
		if math.IsNaN(ns) {
			return // a NaN clock time: nothing to pace by
		}
		due := v.anchorWall.Add(time.Duration(min(ns, maxWait)))
		d := time.Until(due)
		if d < -time.Second/4 {
			v.reanchor()
			return
		}
		if d <= 0 {
			return
		}
		if v.timer == nil {
			v.timer = time.NewTimer(d)
		} else {
			v.timer.Reset(d)
		}
		select {
		case <-v.timer.C:
			return
		case c := <-v.cmds:
			v.timer.Stop()
			v.apply(w, c)
		case <-v.done:
			v.timer.Stop()
			return
		}
	}
}

// maxWait bounds the pace's wait for one frame, in nanoseconds, so that a tiny
// speed waits long rather than overflowing time.Duration (and running unpaced).
const maxWait = float64(1 << 62)

func (v *Viewer) reanchor() {
	v.anchorWall, v.anchorSim = time.Now(), v.frameTime()
}

// publish swaps the back snapshot to the front, unless the HTTP side is
// reading it right now (then the next capture tries again): the simulation
// never waits for a reader.
func (v *Viewer) publish() {
	if !v.mu.TryLock() {
		v.dirty = true
		return
	}
	v.version++
	v.back.Version = v.version
	v.front, v.back = v.back, v.front
	close(v.changed)
	v.changed = make(chan struct{})
	v.mu.Unlock()
	v.dirty = false
}

// publishEnded marks the front snapshot ended (Finalize: no frame follows) and
// publishes it again, waiting for readers, since the simulation is over.
func (v *Viewer) publishEnded() {
	v.mu.Lock()
	v.version++
	v.front.Version, v.front.Ended, v.front.FPS = v.version, true, 0
	close(v.changed)
	v.changed = make(chan struct{})
	v.mu.Unlock()
}

func itoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// heartbeat records when Update returns (Viewer.left), for stall.
func (v *Viewer) heartbeat() {
	if !v.finalized { // (an Update that panics on a finalized viewer is no frame)
		v.left.Store(v.wallNow().UnixNano())
	}
}

// wallNow is the heartbeat's wall clock.
func (v *Viewer) wallNow() time.Time {
	if v.now != nil {
		return v.now()
	}
	return time.Now()
}

// stall reports, on the HTTP side, whether the simulation has stalled (no frame for
// StallAfter, while enabled, not paused and not ended) and the wall seconds since the
// last Update returned (0 inside Update, before the first, after Finalize).
func (v *Viewer) stall() (bool, float64) {
	left := v.left.Load()
	if left == 0 || !v.enabled.Load() || v.ended.Load() {
		return false, 0
	}
	d := v.wallNow().Sub(time.Unix(0, left))
	return d >= StallAfter, max(d.Seconds(), 0)
}
