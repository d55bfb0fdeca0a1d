package systems

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// The state of the systems that persists across frames, for saving a world mid-run
// (package systems/save): each system with such state has SaveState, which returns it
// as JSON, and LoadState, which restores it into the system after its Initialize on the
// loaded world. Pure caches (the spatial hash, flow fields built at once, the grid's
// lazy caches) are not saved: they are rebuilt the same. The systems with such state are
// Decision, Utility, FSM, HTN, GOAP, PathQueue, FlowField, Combat and Diagnostics ([StatefulSystems] names
// those live in a world); save.Save refuses a world running one whose state it is not
// given, and save's Loaded.Restore the same of the loaded world.

// stateful are archai's systems whose state persists across frames (those with
// SaveState and LoadState).
const stateful = sysDecision | sysUtility | sysFSM | sysPathQueue | sysFlowField | sysHTN | sysGOAP | sysCombat

// StatefulSystems returns the Names of archai's systems live in w (initialized on w and
// not finalized since) whose state persists across frames and is saved by their
// SaveState: "decision", "utility", "fsm", "pathqueue", "flowfield", "htn", "goap",
// "combat" (its counts since Initialize, see [CombatState]) and "diagnostics" (a [Diagnostics]: its check cadence and the findings it last wrote, see
// [DiagnosticsState]), in that order, each once however many are live. Package systems/save refuses to save
// a world running one of them without its state (see save.Save), and to restore a file
// without its state into a world running one. It returns nil if none is live (or no
// archai system was ever initialized on w).
func StatefulSystems(w *arche.World) []string {
	var names []string
	if r := ecs.Resource[installed](w); r != nil {
		for i, n := range r.live {
			if n > 0 && stateful&(systemSet(1)<<i) != 0 {
				names = append(names, systemNames[i])
			}
		}
	}
	if diagnosticsRunning(w) {
		names = append(names, "diagnostics")
	}
	return names
}

// ErrOutOfDomain is wrapped by a LoadState error for a value out of its domain (an
// entity ID past the world's, a capacity past the system's setting, ...). Package
// systems/save returns it as save.ErrDomain (the same error value).
var ErrOutOfDomain = errors.New("value out of its domain")

// ErrNotInitialized is returned by a LoadState called before the system's Initialize:
// a saved state is restored into a system initialized on the loaded world.
var ErrNotInitialized = errors.New("system not initialized: call Initialize on the loaded world (e.g. the scheduler's) before restoring its state")

// inPool reports whether e's ID is inside w's entity pool, so that w.Alive(e) and
// component look-ups of e do not index past it (Arche panics there).
func inPool(w *arche.World, e arche.Entity) bool {
	// the pool holds IDs 0..Total; compared as int64, since a 32-bit int reads an ID
	// over 2³¹ (from a file) as negative
	return int64(e.ID()) <= int64(w.Stats().Entities.Total)
}

// InitializedWorld returns the world the queue was last initialized on (nil before
// Initialize): save's Loaded.Restore refuses to restore into a queue of another world.
func (s *PathQueue) InitializedWorld() *arche.World { return s.world }

// InitializedWorld returns the world the FlowField was last initialized on (nil before
// Initialize): save's Loaded.Restore refuses to restore into a FlowField of another world.
func (s *FlowField) InitializedWorld() *arche.World { return s.world }

// InitializedWorld returns the world the Combat was last initialized on (nil before
// Initialize): save's Loaded.Restore refuses to restore into a Combat of another world.
func (s *Combat) InitializedWorld() *arche.World { return s.world }

// PathQueueState is what a [PathQueue] carries from one frame to the next: the queued
// searches with their requests, the search in progress and the expansions already
// spent on it, and the next ticket number.
type PathQueueState struct {
	NextSeq  uint64         `json:"next_seq"`
	Queued   []PathJobState `json:"queued"`           // in no particular order: the queue orders them by (Priority, Seq)
	Active   *PathJobState  `json:"active,omitempty"` // the search carried over to the next frame
	Expanded int            `json:"expanded"`         // node expansions the active search has done
	// Search: the queue's search options when a search is under way (Active), which
	// LoadState replays with them; nil otherwise (and in files written before it).
	Search *PathSearchState `json:"search,omitempty"`
	// EditedBeside and ChangedBeside are the queue's counts since Initialize of joins
	// that found the grid edited while its searches ran, and of answers a join could not
	// write (Diagnose's Report.GridEditedBeside and RequestsChangedBeside, one finding
	// each), so that the loaded run reports what the unbroken one would; a file written
	// before them (2026-12-04) reads them as 0, and they count from the load.
	EditedBeside  int `json:"edited_beside,omitempty"`
	ChangedBeside int `json:"changed_beside,omitempty"`
	// Totals are the queue's counts since Initialize (TotalServed, ...), so that the loaded
	// queue counts on from them; nil in a file written before them (2026-12-05): they
	// count from the load.
	Totals *PathTotalsState `json:"totals,omitempty"`
}

// PathTotalsState is a [PathQueue]'s counts since Initialize, saved with its state.
type PathTotalsState struct {
	Served       int64 `json:"served,omitempty"`
	Dropped      int64 `json:"dropped,omitempty"`
	Expansions   int64 `json:"expansions,omitempty"`
	Searches     int64 `json:"searches,omitempty"`
	Repathed     int64 `json:"repathed,omitempty"`
	Requeued     int64 `json:"requeued,omitempty"`
	Overtaken    int64 `json:"overtaken,omitempty"`
	AStarInstead int64 `json:"astar_instead,omitempty"`
	// Orphaned, Replaced and Cancelled are Dropped by reason (TotalOrphaned, ...); a
	// file written before them (2026-12-06 14:00 UTC) reads them as 0, and they count
	// from the load (Dropped then holds more than their sum).
	Orphaned  int64 `json:"orphaned,omitempty"`
	Replaced  int64 `json:"replaced,omitempty"`
	Cancelled int64 `json:"cancelled,omitempty"`
}

// PathSearchState is what of a [PathQueue]'s Options makes its search the one it is:
// the active search's saved expansions are done again with them at [PathQueue.LoadState],
// and with other options they are another search's (jump point search instead of A*,
// another weight): the run would go on, silently, otherwise than the saved one.
// HeuristicFunc records only whether a function was set (a function cannot be saved).
type PathSearchState struct {
	Moves         grid.Moves     `json:"moves"`
	Heuristic     grid.Heuristic `json:"heuristic"`
	HeuristicFunc bool           `json:"heuristic_func,omitempty"`
	Weight        float64        `json:"weight,omitempty"`
	JumpPoints    bool           `json:"jump_points,omitempty"`
}

// searchState returns the options of the queue's searches that its state records.
func (s *PathQueue) searchState() *PathSearchState {
	o := s.Options
	return &PathSearchState{Moves: o.Moves, Heuristic: o.Heuristic, HeuristicFunc: o.HeuristicFunc != nil, Weight: o.Weight, JumpPoints: o.JumpPoints}
}

// PathJobState is one search and the requests it serves.
type PathJobState struct {
	Start     grid.Cell          `json:"start"`
	Goal      grid.Cell          `json:"goal"`
	Priority  int8               `json:"priority"`
	Seq       uint64             `json:"seq"`
	Clearance uint8              `json:"clearance,omitempty"` // grid.Options.Clearance of the search (0 or 1: none)
	Requests  []PathRequestState `json:"requests"`            // in the queue's order
}

// PathRequestState is one agent's request: its entity, its Path.Request number, the
// searches it lost to a goal move (0 or 1; see Moving goals in [PathQueue]'s doc; left
// out when 0, so a file without it reads as 0), and how long it has waited: the frames
// the queue has served since the request was made (0 in the frame it was made; left out
// when 0). The loaded queue goes on counting from Waited, so [Diagnose] reports the wait
// (Report.PathsWaitingLong, PathWaitOldest) the saved run would; a file written before
// the field (2026-12-02) reads as 0, and its requests count from the load.
type PathRequestState struct {
	Entity  arche.Entity `json:"entity"`
	Request uint32       `json:"request"`
	Lost    uint8        `json:"lost,omitempty"`
	Waited  int64        `json:"waited,omitempty"` // frames of the queue, 0 to MaxPathWait
}

// MaxPathWait bounds [PathRequestState.Waited] in a loaded file: 2⁴⁰ frames, over 500 years
// at 60 frames a second. A larger wait is refused ([ErrOutOfDomain]): the queue's frame
// minus it would overflow, and the wait would read as negative.
const MaxPathWait = 1 << 40

func (s *PathQueue) jobState(j int32) PathJobState {
	job := &s.jobs[j]
	st := PathJobState{Start: job.key.start, Goal: job.key.goal, Priority: job.prio, Seq: job.seq,
		Requests: []PathRequestState{}}
	if job.key.clear > 1 {
		st.Clearance = job.key.clear // 1 is left out: files of narrow agents read as before
	}
	for t := job.head; t >= 0; t = s.tickets[t].next {
		tk := &s.tickets[t]
		st.Requests = append(st.Requests, PathRequestState{Entity: tk.e, Request: tk.req, Lost: tk.lost, Waited: s.frame - tk.since})
	}
	return st
}

// State returns the queue's state (see [PathQueueState]).
func (s *PathQueue) State() PathQueueState {
	s.join() // with Overlap: the searches the last Update started
	st := PathQueueState{NextSeq: s.nextSeq, Queued: []PathJobState{}, EditedBeside: s.editedBeside, ChangedBeside: s.changedBeside,
		Totals: &PathTotalsState{Served: s.TotalServed, Dropped: s.TotalDropped, Expansions: s.TotalExpansions, Searches: s.TotalSearches,
			Repathed: s.TotalRepathed, Requeued: s.TotalRequeued, Overtaken: s.TotalOvertaken, AStarInstead: s.TotalAStarInstead,
			Orphaned: s.TotalOrphaned, Replaced: s.TotalReplaced, Cancelled: s.TotalCancelled}}
	for _, j := range s.heap {
		st.Queued = append(st.Queued, s.jobState(j))
	}
	if s.active >= 0 {
		a := s.jobState(s.active)
		st.Active, st.Expanded, st.Search = &a, s.activeExpanded, s.searchState()
	}
	return st
}

// SaveState returns [PathQueue.State] as JSON. It returns an error if the grid was
// edited since the queue's last Update: the repaths the queue owes the agents whose
// paths cross the edit are made at its next Update, and a queue loaded from the file
// would never make them (it starts watching the loaded grid as it is), so save after
// the next Update.
func (s *PathQueue) SaveState() (json.RawMessage, error) {
	s.join()
	if s.grid != nil && s.grid.Version() != s.edits.version {
		what := "the grid was replaced (another grid's contents copied over it)" // another base: see grid.Grid.Version
		if cells, ok := s.grid.EditsSince(s.edits.version, nil); ok && len(cells) > 0 {
			edits := "1 cell edit"
			if len(cells) > 1 {
				edits = fmt.Sprintf("%d cell edits", len(cells))
			}
			what = fmt.Sprintf("the grid was edited since the queue's last Update (%s, the last at x = %d, y = %d)", edits, cells[0].X, cells[0].Y)
		}
		return nil, fmt.Errorf("pathqueue state: %s: the repaths for the edit are not made yet and would be lost; save after the queue's next Update", what)
	}
	return json.Marshal(s.State())
}

// LoadState restores a state saved by [PathQueue.SaveState] into a queue initialized on
// the loaded world, replacing whatever it held: the searches are queued again and the
// active one is searched again up to the saved expansions (A* is deterministic), so the
// run continues as if it had not stopped. A job whose start or goal is off the grid is
// taken back as the queue filed it (a start off the grid is searched from its entry, a
// goal off it answered PathUnreachable: see [PathQueue]). It returns an error, leaving
// the queue empty, if two jobs share a (start, goal) pair, a request names
// an entity ID past the world's or has a Waited outside [0, MaxPathWait] or a Lost above 1, or
// a count (edited_beside, changed_beside, totals) is negative (wrapping [ErrOutOfDomain],
// naming the field), or the
// active search cannot do its expansions again or was saved by a queue with other search
// Options (moves, heuristic, weight, jump point search: [PathSearchState]; its expansions
// would be another search's). Other settings (Budget, Smooth, Options with no search under
// way) may differ: the run then goes on with them, not as the saved one would. A request of a dead entity is kept:
// the queue drops it on its first frame as it drops any dead requester's.
func (s *PathQueue) LoadState(raw json.RawMessage) error {
	s.join()
	if s.world == nil {
		return fmt.Errorf("pathqueue state: %w", ErrNotInitialized)
	}
	var st PathQueueState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("pathqueue state: %w", err)
	}
	s.reset()
	err := s.restore(st)
	if err != nil {
		s.reset()
	}
	return err
}

func (s *PathQueue) reset() {
	s.jobs, s.freeJobs, s.tickets, s.freeTkts, s.heap = s.jobs[:0], s.freeJobs[:0], s.tickets[:0], s.freeTkts[:0], s.heap[:0]
	clear(s.byKey)
	s.active, s.activeExpanded, s.waiting, s.nextSeq = -1, 0, 0, 1
	s.servedAt = [256]int64{}
}

func (s *PathQueue) restore(st PathQueueState) error {
	if st.NextSeq == 0 {
		return fmt.Errorf("pathqueue state: next_seq is 0")
	}
	if st.EditedBeside < 0 || st.ChangedBeside < 0 {
		return fmt.Errorf("pathqueue state: edited_beside %d, changed_beside %d: not negative: %w", st.EditedBeside, st.ChangedBeside, ErrOutOfDomain)
	}
	if t := st.Totals; t != nil && min(t.Served, t.Dropped, t.Expansions, t.Searches, t.Repathed, t.Requeued, t.Overtaken, t.AStarInstead,
		t.Orphaned, t.Replaced, t.Cancelled) < 0 {
		return fmt.Errorf("pathqueue state: totals %+v: not negative: %w", *t, ErrOutOfDomain)
	}
	if t := st.Totals; t != nil && (t.Orphaned > t.Dropped || t.Replaced > t.Dropped-t.Orphaned || t.Cancelled > t.Dropped-t.Orphaned-t.Replaced) {
		return fmt.Errorf("pathqueue state: totals: orphaned %d + replaced %d + cancelled %d is more than dropped %d: %w",
			t.Orphaned, t.Replaced, t.Cancelled, t.Dropped, ErrOutOfDomain)
	}
	s.nextSeq = st.NextSeq
	add := func(js PathJobState, queue bool, field string) (int32, error) {
		for i, r := range js.Requests {
			if !inPool(s.world, r.Entity) {
				return 0, fmt.Errorf("pathqueue state: %s.requests[%d].entity: %d is past the world's entity pool: %w", field, i, r.Entity.ID(), ErrOutOfDomain)
			}
		}
		// a start or goal off the grid is kept: the queue files such requests as it
		// does any (a start off the grid is searched from its entry, a goal off it is
		// answered PathUnreachable when served), so a saved queue holds them
		key := pathKey{js.Start, js.Goal, max(js.Clearance, 1)}
		if _, dup := s.byKey[key]; dup {
			return 0, fmt.Errorf("pathqueue state: two jobs %v→%v", key.start, key.goal)
		}
		var j int32
		if queue {
			j = s.newJob(key, js.Priority, js.Seq)
		} else {
			s.jobs = append(s.jobs, pathJob{key: key, prio: js.Priority, seq: js.Seq, head: -1, heapIdx: -1})
			j = int32(len(s.jobs) - 1)
			s.byKey[key] = j
		}
		for i := len(js.Requests) - 1; i >= 0; i-- { // file pushes at the head: add the last first
			r := js.Requests[i]
			if r.Lost > 1 {
				return 0, fmt.Errorf("pathqueue state: %s.requests[%d].lost: %d is not 0 or 1: %w", field, i, r.Lost, ErrOutOfDomain)
			}
			if r.Waited < 0 || r.Waited > MaxPathWait {
				return 0, fmt.Errorf("pathqueue state: %s.requests[%d].waited: %d is not in [0, %d] frames: %w", field, i, r.Waited, int64(MaxPathWait), ErrOutOfDomain)
			}
			s.jobs[j].head = s.newTicket(pathTicket{e: r.Entity, req: r.Request, next: s.jobs[j].head, lost: r.Lost, since: s.frame - r.Waited})
			s.waiting++
		}
		return j, nil
	}
	for i, js := range st.Queued {
		if _, err := add(js, true, fmt.Sprintf("queued[%d]", i)); err != nil {
			return err
		}
	}
	if st.Active != nil {
		j, err := add(*st.Active, false, "active")
		if err != nil {
			return err
		}
		if st.Search != nil {
			if mine := s.searchState(); *mine != *st.Search {
				return fmt.Errorf("pathqueue state: the active search %v→%v was saved by a queue with Options %+v, this one has %+v: its expansions would be another search's; restore into a PathQueue with the saved Options (or save when no search is under way)", st.Active.Start, st.Active.Goal, *st.Search, *mine)
			}
		}
		s.active = j
		s.search = s.searchFor(s.jobs[j].key.clear)
		if err := s.startSearch(s.jobs[j].key); err != nil { // from a blocked start's exit as it was
			return fmt.Errorf("pathqueue state: the active search %v→%v cannot start again: %w", st.Active.Start, st.Active.Goal, err)
		}
		if st.Expanded < 0 {
			return fmt.Errorf("pathqueue state: expanded %d < 0", st.Expanded)
		}
		if st.Expanded > 0 { // (Step(0) would expand one node)
			if n, _ := s.search.Step(st.Expanded); n != st.Expanded {
				return fmt.Errorf("pathqueue state: the active search %v→%v did %d of its %d expansions again", st.Active.Start, st.Active.Goal, n, st.Expanded)
			}
		}
		s.activeExpanded = st.Expanded
	}
	s.editedBeside, s.changedBeside = st.EditedBeside, st.ChangedBeside
	if t := st.Totals; t != nil {
		s.TotalServed, s.TotalDropped, s.TotalExpansions, s.TotalSearches = t.Served, t.Dropped, t.Expansions, t.Searches
		s.TotalRepathed, s.TotalRequeued, s.TotalOvertaken, s.TotalAStarInstead = t.Repathed, t.Requeued, t.Overtaken, t.AStarInstead
		s.TotalOrphaned, s.TotalReplaced, s.TotalCancelled = t.Orphaned, t.Replaced, t.Cancelled
	}
	return nil
}

// ThinkCursorState is the think budget's saved state: how many agents the budget left
// waiting in the last frame and for how many frames in a row it has left some waiting,
// which [Diagnose] reads for CauseDecisionStarved (the backlog must last
// [DecisionWaitLong] seconds), so a world loaded mid-backlog reports it at the frame the
// unbroken run would. A file written before Waiting and Backlog (2026-12-04) reads them
// as 0: the backlog is counted from the load, and decision_starved comes that much later.
// The budget keeps no cursor: it takes due agents by (Think.Next, entity ID), so which
// agents think next follows from their Think components alone, and Cursor is always 0;
// the field stays so that save files keep one format, and a saved value is checked (not
// negative) and otherwise unused.
type ThinkCursorState struct {
	Cursor  int   `json:"cursor"`
	Waiting int   `json:"waiting,omitempty"` // the system's Waiting after its last Update
	Backlog int64 `json:"backlog,omitempty"` // frames in a row, up to the last, with Waiting > 0; 0 to MaxPathWait
	// TotalThought is the system's TotalThought (agents that thought since Initialize), so
	// that the loaded system counts on from it; a file written before it (2026-12-05)
	// reads it as 0, and the count starts at the load.
	TotalThought int64 `json:"total_thought,omitempty"`
	// IntentFlips are the system's records of its agents' changes back of their Intent
	// (alive ones, by entity ID; see [IntentFlipState]), so that the loaded system
	// reports intent_flip_flop where and while the unbroken one would; a file written
	// before them (2026-12-06) has none: the agents count their flips from the load.
	IntentFlips []IntentFlipState `json:"intent_flips,omitempty"`
}

// thinkState returns t's state (see [ThinkCursorState]).
func (t *thinkers[B]) thinkState() ThinkCursorState {
	return ThinkCursorState{Cursor: t.cursor, Waiting: t.Waiting, Backlog: t.backlog, TotalThought: t.TotalThought,
		IntentFlips: t.flips.state(t.world)}
}

// loadThinkState restores a state saved by thinkState into t, named name in errors;
// it returns t's Waiting for the system's own field. It returns an error, leaving t as
// it was, for a malformed state, a negative cursor, a TotalThought negative or over
// math.MaxInt64/2, or a Waiting or Backlog out of their domain (negative, a backlog past MaxPathWait, one of them 0 and the other not: the
// backlog counts the frames with agents waiting, the last among them), wrapping
// [ErrOutOfDomain].
func (t *thinkers[B]) loadThinkState(name string, raw json.RawMessage) (int, error) {
	var st ThinkCursorState
	if err := json.Unmarshal(raw, &st); err != nil {
		return t.Waiting, fmt.Errorf("%s think cursor: %w", name, err)
	}
	if st.Cursor < 0 {
		return t.Waiting, fmt.Errorf("%s think cursor: %d < 0", name, st.Cursor)
	}
	if st.Waiting < 0 || st.Backlog < 0 || st.Backlog > MaxPathWait || (st.Waiting > 0) != (st.Backlog > 0) {
		return t.Waiting, fmt.Errorf("%s think cursor: waiting %d, backlog %d: both 0, or waiting > 0 and backlog in [1, %d] frames: %w",
			name, st.Waiting, st.Backlog, int64(MaxPathWait), ErrOutOfDomain)
	}
	if st.TotalThought < 0 || st.TotalThought > math.MaxInt64/2 {
		return t.Waiting, fmt.Errorf("%s think cursor: total_thought %d: want 0 to %d (a count near the int64's top wraps negative within frames): %w",
			name, st.TotalThought, int64(math.MaxInt64/2), ErrOutOfDomain)
	}
	if err := t.flips.load(t.world, st.IntentFlips); err != nil {
		return t.Waiting, fmt.Errorf("%s think cursor: %w", name, err)
	}
	t.cursor, t.Waiting, t.backlog, t.TotalThought = st.Cursor, st.Waiting, st.Backlog, st.TotalThought
	return t.Waiting, nil
}

// DecisionState is what a [Decision] saves: its think budget's state and
// ScriptErrors, the scripts failed at run time since Initialize, which [Diagnose]
// reports (Report.ScriptErrors, one finding), so that the loaded run goes on
// counting from it as the unbroken one would, with the newest of those errors (its
// text and node, which Diagnose's report names until a script fails again). A file
// written before ScriptErrors was saved (2026-12-05) reads it as 0: the count starts
// at the load; one written before the error's text (2026-12-05 15:50 UTC) loads
// the count without it.
type DecisionState struct {
	ThinkCursorState
	ScriptErrors    uint64 `json:"script_errors,omitempty"`
	LastScriptError string `json:"last_script_error,omitempty"`
	LastScriptNode  int    `json:"last_script_node,omitempty"`
	// ClockFaults and Swapped are the Decision's counts since Initialize of the same
	// names; a file written before them (2026-12-05) reads them as 0.
	ClockFaults uint64 `json:"clock_faults,omitempty"`
	Swapped     uint64 `json:"swapped,omitempty"`
}

// SaveState returns the Decision's state as JSON (see [DecisionState]).
func (s *Decision) SaveState() (json.RawMessage, error) {
	st := DecisionState{ThinkCursorState: s.due.thinkState(), ScriptErrors: s.ScriptErrors, ClockFaults: s.ClockFaults, Swapped: s.Swapped}
	if node, err := s.lastScriptError(); err != nil {
		st.LastScriptError, st.LastScriptNode = err.Error(), node
	}
	return json.Marshal(st)
}

// LoadState restores the state saved by [Decision.SaveState], Waiting and
// ScriptErrors included (its count goes on from the saved one). It returns an error
// for a negative cursor or a Waiting or Backlog out of their domain (see
// [ThinkCursorState]).
func (s *Decision) LoadState(raw json.RawMessage) (err error) {
	var st DecisionState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("decision state: %w", err)
	}
	if s.Waiting, err = s.due.loadThinkState("decision", raw); err != nil {
		return err
	}
	s.scriptBase = st.ScriptErrors - s.scriptsSince()
	s.ScriptErrors = st.ScriptErrors
	s.TotalThought = s.due.TotalThought
	s.clockBase = st.ClockFaults - s.clockFaultsSince()
	s.ClockFaults, s.Swapped = st.ClockFaults, st.Swapped
	s.loaded = scriptError{}
	if st.LastScriptError != "" {
		s.loaded = scriptError{time: math.Inf(-1), node: st.LastScriptNode, err: errors.New(st.LastScriptError)}
	}
	for i := range s.errs { // the saved run's newest: those of the run before the load are not
		s.errs[i].v = scriptError{}
	}
	return nil
}

// SaveState returns the think budget's state as JSON (see [ThinkCursorState]).
func (s *Utility) SaveState() (json.RawMessage, error) {
	return json.Marshal(s.due.thinkState())
}

// LoadState restores the think budget's state saved by [Utility.SaveState] (see
// [Decision.LoadState]).
func (s *Utility) LoadState(raw json.RawMessage) (err error) {
	s.Waiting, err = s.due.loadThinkState("utility", raw)
	s.TotalThought = s.due.TotalThought
	return err
}

// FSMState is what an [FSM] saves: its think budget's state and BadTargets, the Update
// hooks since Initialize that returned a state of no machine, which [Diagnose] reports
// (Report.BadTargets, one finding), so that the loaded run goes on reporting the count
// the unbroken one would. A file written before BadTargets (2026-12-04) reads it as 0:
// the count starts at the load.
type FSMState struct {
	ThinkCursorState
	BadTargets uint64 `json:"bad_targets,omitempty"`
	// ClockFaults and Swapped are the FSM's counts since Initialize of the same names; a
	// file written before them (2026-12-05) reads them as 0.
	ClockFaults uint64 `json:"clock_faults,omitempty"`
	Swapped     uint64 `json:"swapped,omitempty"`
}

// SaveState returns the FSM's state as JSON (see [FSMState]).
func (s *FSM) SaveState() (json.RawMessage, error) {
	return json.Marshal(FSMState{ThinkCursorState: s.due.thinkState(), BadTargets: s.BadTargets, ClockFaults: s.ClockFaults, Swapped: s.Swapped})
}

// LoadState restores the state saved by [FSM.SaveState] (see [Decision.LoadState]),
// BadTargets included: the FSM's count goes on from it.
func (s *FSM) LoadState(raw json.RawMessage) (err error) {
	var st FSMState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("fsm state: %w", err)
	}
	if s.Waiting, err = s.due.loadThinkState("fsm", raw); err != nil {
		return err
	}
	var now, faults uint64
	for i := range s.ctxs {
		now += s.ctxs[i].v.BadTargets()
		faults += s.ctxs[i].v.ClockFaults()
	}
	s.badBase, s.BadTargets = st.BadTargets-now, st.BadTargets // the workers' counts go on from the saved one
	s.clockBase, s.ClockFaults = st.ClockFaults-faults, st.ClockFaults
	s.TotalThought, s.Swapped = s.due.TotalThought, st.Swapped
	return nil
}

// flowFieldState is what FlowField saves: its cache's state and, in sector
// mode, the sector fields' (see [SectorFlowState]).
type flowFieldState struct {
	flowfield.CacheState
	Sector *SectorFlowState `json:"sector,omitempty"`
	Edits  *flowEditsState  `json:"edits,omitempty"` // Hold's count of frames since the grid's last edit (flowfield_hold.go); nil: none within Hold
	// Frame is the whole-grid system's own count of Updates, whose value
	// mod aimTurns chooses the followers checked on sight in a world without
	// a started Clock (FlowField.aimTurn); 0 in sector mode. A file written
	// before it (2026-12-06) reads 0: such a world's loaded run checks other
	// followers in a frame than the saved one would have.
	Frame uint64 `json:"frame,omitempty"`
	// GoalsOver is the system's record of its Updates in a row, up to the
	// last, that were asked for more goals than MaxFields (Capacity with sectors; Diagnose's
	// Report.FlowGoalsOver, reported once they last FlowBehindLong), and Waiting is
	// FlowField.Waiting after the last Update (the followers without a complete
	// field, which that finding names), so that a loaded run reports the finding
	// at the frame the unbroken one does. A file written before them (2026-12-06
	// 11:30 UTC) reads neither: the frames count from the load, and Waiting reads 0
	// until the first Update.
	GoalsOver *flowOverState `json:"goals_over,omitempty"`
	Waiting   int            `json:"waiting,omitempty"`
	// WideSealed is the whole-grid system's list, after its last Update, of the wide
	// followers whose cell had no route wide enough to their goal (Diagnose's
	// CauseFlowFollowerWide), in entity ID order, so that a loaded world's Diagnose
	// before its first Update names them as the unbroken run's does. A file written
	// before it (2026-12-06 14:00 UTC) reads none: they are counted again from the
	// first Update after the load.
	WideSealed []arche.Entity `json:"wide_sealed,omitempty"`
}

// flowOverState is a FlowField's flowOver in a save: the goals asked for in its
// last Update, and the Updates in a row with goals refused (both above 0).
type flowOverState struct {
	Goals  int   `json:"goals"`
	Frames int64 `json:"frames"`
}

// SaveState returns the flow-field cache's state as JSON (see flowfield.CacheState):
// its fields' goals, recency and build progress, and in sector mode the sector fields'
// state (see [SectorFlowState]). Fields that grid edits made stale are saved as they
// are, so the loaded run serves and rebuilds them as the saved one would: a whole-grid
// field with the costs it was built on where they changed since (flowfield.CacheEntryState),
// a sector field whose goal nobody followed since the edit with its sectors' values
// (flowfield.SectorFieldState's Behind). In sector mode it returns an error when the
// grid was edited after the FlowField's last Update (the sector layer has not seen the
// edit yet): save after its next Update.
func (s *FlowField) SaveState() (json.RawMessage, error) {
	st, err := s.Cache.State()
	if err != nil {
		return nil, err
	}
	fs := flowFieldState{CacheState: st, Edits: s.edits.state(s.grid, s.Hold), Frame: s.frame, Waiting: s.Waiting}
	if s.over.frames > 0 {
		fs.GoalsOver = &flowOverState{Goals: s.over.goals, Frames: s.over.frames}
	}
	if len(s.wide.sealed) > 0 {
		fs.WideSealed = slices.SortedFunc(slices.Values(s.wide.sealed), func(a, b arche.Entity) int { return cmp.Compare(a.ID(), b.ID()) })
	}
	if s.sector != nil {
		if fs.Sector, err = s.sector.state(); err != nil {
			return nil, err
		}
	}
	return json.Marshal(fs)
}

// LoadState builds the saved fields again in the cache of a FlowField initialized on
// the loaded world, each to the point its build had reached, so the first frame after
// loading samples the fields the saved run's would (a field requested in a frame is
// ready only from the next one); before the FlowField's Initialize it returns an error
// wrapping [ErrNotInitialized]. In sector mode it builds the saved sector fields again,
// sector by sector in the saved order, and checks each against the saved one. It returns
// an error, leaving the FlowField with no fields, when the state is not one of this
// mode (sector state without Sectors, or none with it; another sector size) or a field
// cannot be built again as saved; and an error wrapping [ErrOutOfDomain], leaving the
// cache as it was, if the saved capacity is below 1 or above what this system lets the
// cache grow to (max(Capacity, 2·MaxFields): MaxFields more for the fields of wide
// followers, see updateWide) or the file holds more fields than that
// capacity (each is built again: a file must not choose how much memory loading takes),
// or its list of sealed-off wide followers names the zero entity, one past the world's
// pool or one twice (or is given in sector mode), besides the errors of
// [flowfield.Cache.Restore] (a goal off the grid or given twice, ...).
func (s *FlowField) LoadState(raw json.RawMessage) error {
	if s.Cache == nil {
		return fmt.Errorf("flowfield state: %w", ErrNotInitialized)
	}
	var st flowFieldState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("flowfield state: %w", err)
	}
	if limit := max(s.Capacity, 2*s.MaxFields); st.Capacity < 1 || st.Capacity > limit {
		return fmt.Errorf("flowfield state: capacity %d outside 1..%d (the FlowField's max(Capacity, 2·MaxFields)): %w", st.Capacity, limit, ErrOutOfDomain)
	}
	if o := st.GoalsOver; o != nil && (o.Goals < 1 || o.Frames < 1 || o.Frames > MaxPathWait) {
		return fmt.Errorf("flowfield state: goals_over: %d goals for %d frames: want goals > 0 for 1 to %d frames: %w",
			o.Goals, o.Frames, int64(MaxPathWait), ErrOutOfDomain)
	}
	if st.Waiting < 0 {
		return fmt.Errorf("flowfield state: waiting %d < 0: %w", st.Waiting, ErrOutOfDomain)
	}
	if len(st.Entries) > st.Capacity {
		return fmt.Errorf("flowfield state: entries: %d fields for a capacity of %d: %w", len(st.Entries), st.Capacity, ErrOutOfDomain)
	}
	if err := s.checkWideSealed(st.WideSealed); err != nil {
		return err
	}
	switch {
	case s.sector == nil && st.Sector != nil:
		return fmt.Errorf("flowfield state: sector fields saved, but FlowField.Sectors is 0")
	case s.sector != nil && st.Sector == nil:
		s.sector.restore(&SectorFlowState{Size: s.sector.sectors.Size()})
		s.Cache.Invalidate()
		return fmt.Errorf("flowfield state: no sector fields saved, but FlowField.Sectors is %d", s.Sectors)
	}
	if err := s.Cache.Restore(st.CacheState); err != nil {
		return err
	}
	if err := s.edits.restore(s.grid, st.Edits); err != nil {
		return err
	}
	if s.sector != nil {
		if err := s.sector.restore(st.Sector); err != nil {
			s.Cache.Invalidate()
			return err
		}
	}
	s.frame, s.Waiting, s.over = st.Frame, st.Waiting, flowOver{}
	s.wide.sealed = append(s.wide.sealed[:0], st.WideSealed...)
	if o := st.GoalsOver; o != nil {
		s.over = flowOver{goals: o.Goals, frames: o.Frames}
	}
	return nil
}

// checkWideSealed returns an error wrapping [ErrOutOfDomain] if a saved list of
// sealed-off wide followers names the zero entity, one past the world's pool or one
// twice or out of ID order, or is given in sector mode (which serves wide followers
// as point agents and lists none).
func (s *FlowField) checkWideSealed(sealed []arche.Entity) error {
	if len(sealed) > 0 && s.sector != nil {
		return fmt.Errorf("flowfield state: wide_sealed: %d entities, but sector mode lists none: %w", len(sealed), ErrOutOfDomain)
	}
	for i, e := range sealed {
		if e.IsZero() || !inPool(s.world, e) {
			return fmt.Errorf("flowfield state: wide_sealed[%d]: entity %v: not one of the world's: %w", i, e, ErrOutOfDomain)
		}
		if i > 0 && e.ID() <= sealed[i-1].ID() {
			return fmt.Errorf("flowfield state: wide_sealed[%d]: entity ID %d after %d: want each once, in ID order: %w",
				i, e.ID(), sealed[i-1].ID(), ErrOutOfDomain)
		}
	}
	return nil
}

// CombatState is what a [Combat] saves: its counts since Initialize, TotalStrikes and
// NoClock (the strikes of weapons with a Cooldown in a world without a Clock), so that a
// loaded run goes on counting from them as the unbroken one would (a program that reports
// the strikes of a whole run, as cmd/bench does, read them from the load on before); and
// what its last Update wrote: Downed and the Clock's frame of that Update, and the
// per-frame counts Strikes, Cooling and AttackersDown. A world is saved between frames,
// often before the program's turn to handle Combat.Downed (see [Combat]): the loaded
// Combat gives the program the same Downed to handle, and [Diagnose] gives the agents in
// it the same grace in that frame (CauseDownedStillActing), as the unbroken run does. A
// file written before CombatState (2026-12-05) holds none: give save.Without(combat) to
// Restore, and the counts start at the load. A file written before Downed was saved
// (2026-12-06) reads it as empty and the per-frame counts as 0: the downed of the saved
// frame are not handed on (a program handles them from their Health, as cmd/bench's
// Casualties does at its first Update), and Diagnose counts those still acting at once.
type CombatState struct {
	TotalStrikes int64 `json:"total_strikes,omitempty"`
	NoClock      int   `json:"no_clock,omitempty"`
	// Strikes, Cooling and AttackersDown are the counts of Combat's last Update.
	Strikes       int `json:"strikes,omitempty"`
	Cooling       int `json:"cooling,omitempty"`
	AttackersDown int `json:"attackers_down,omitempty"`
	// Downed is Combat.Downed as the last Update wrote it (in its order; targets
	// removed since are kept: the unbroken run's list names them too).
	Downed []arche.Entity `json:"downed,omitempty"`
	// DownedFrame is the Clock's frame of the Update that wrote Downed, or -1 (no
	// Clock, or one not started); 0 when absent.
	DownedFrame int64 `json:"downed_frame,omitempty"`
	// Allies is Combat.Allies of the last Update, and AlliesAttacked its attackers
	// and their targets (pairs, by attacker entity ID), for Diagnose's
	// CauseAttackingAlly; absent in files before 2026-12-06 (none).
	Allies         int               `json:"allies,omitempty"`
	AlliesAttacked [][2]arche.Entity `json:"allies_attacked,omitempty"`
}

// SaveState returns the Combat's state as JSON (see [CombatState]).
func (s *Combat) SaveState() (json.RawMessage, error) {
	st := CombatState{TotalStrikes: s.TotalStrikes, NoClock: s.NoClock, Strikes: s.Strikes, Cooling: s.Cooling,
		AttackersDown: s.AttackersDown, DownedFrame: s.downedFrame, Allies: s.Allies}
	if len(s.Downed) > 0 {
		st.Downed = s.Downed
	}
	if len(s.allies) > 0 {
		st.AlliesAttacked = s.allies
	}
	return json.Marshal(st)
}

// LoadState restores the state saved by [Combat.SaveState] into a Combat initialized on
// the loaded world (before Initialize it returns an error wrapping [ErrNotInitialized]):
// TotalStrikes and NoClock go on from the saved counts, and Downed, its frame and the
// last frame's counts are those of the saved Update. It returns an error wrapping
// [ErrOutOfDomain], leaving the Combat as it was, for a negative count, a DownedFrame
// below -1, a Downed entity that is the zero entity, past the world's entity pool or
// listed twice, or an AlliesAttacked entity that is the zero entity or past the pool, or
// attackers not in increasing ID order (each once).
func (s *Combat) LoadState(raw json.RawMessage) error {
	if s.filter == nil {
		return fmt.Errorf("combat state: %w", ErrNotInitialized)
	}
	var st CombatState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("combat state: %w", err)
	}
	if st.Allies < 0 || st.Allies < len(st.AlliesAttacked) {
		return fmt.Errorf("combat state: allies %d for %d allies_attacked: want at least as many, not negative: %w",
			st.Allies, len(st.AlliesAttacked), ErrOutOfDomain)
	}
	for i, p := range st.AlliesAttacked {
		for k, e := range p {
			if e.IsZero() || !inPool(s.world, e) {
				return fmt.Errorf("combat state: allies_attacked[%d][%d]: entity %v: not one of the world's: %w", i, k, e, ErrOutOfDomain)
			}
		}
		// an Update lists each attacker once, by entity ID
		if i > 0 && p[0].ID() <= st.AlliesAttacked[i-1][0].ID() {
			return fmt.Errorf("combat state: allies_attacked[%d]: attacker ID %d after %d: want each attacker once, by ID: %w",
				i, p[0].ID(), st.AlliesAttacked[i-1][0].ID(), ErrOutOfDomain)
		}
	}
	if st.TotalStrikes < 0 || st.NoClock < 0 || st.Strikes < 0 || st.Cooling < 0 || st.AttackersDown < 0 {
		return fmt.Errorf("combat state: total_strikes %d, no_clock %d, strikes %d, cooling %d, attackers_down %d: not negative: %w",
			st.TotalStrikes, st.NoClock, st.Strikes, st.Cooling, st.AttackersDown, ErrOutOfDomain)
	}
	if st.DownedFrame < -1 {
		return fmt.Errorf("combat state: downed_frame %d: want -1 (no started clock) or a frame: %w", st.DownedFrame, ErrOutOfDomain)
	}
	if len(st.Downed) > 0 {
		ids := make([]uint32, len(st.Downed))
		for i, e := range st.Downed {
			if e.IsZero() || !inPool(s.world, e) {
				return fmt.Errorf("combat state: downed[%d]: entity %v: not one of the world's: %w", i, e, ErrOutOfDomain)
			}
			ids[i] = e.ID()
		}
		slices.Sort(ids)
		for i := 1; i < len(ids); i++ {
			if ids[i] == ids[i-1] {
				return fmt.Errorf("combat state: downed: entity ID %d listed twice (a target is downed once a frame): %w", ids[i], ErrOutOfDomain)
			}
		}
	}
	s.TotalStrikes, s.NoClock = st.TotalStrikes, st.NoClock
	s.Strikes, s.Cooling, s.AttackersDown = st.Strikes, st.Cooling, st.AttackersDown
	s.Downed = append(s.Downed[:0], st.Downed...)
	s.downedFrame = st.DownedFrame
	s.Allies, s.allies = st.Allies, append(s.allies[:0], st.AlliesAttacked...)
	return nil
}
