package debugview

import (
	"reflect"
	"unsafe"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/internal/fieldscan"
	arche "github.com/mlange-42/arche/ecs"
)

// StateTree is a behavior tree run inside a state machine's state
// (hybrid.TreeState): the tree with each node's live status, the states that run
// it, and its transition log.
//
// The viewer finds the agent's hybrid.TreeRun values in its components (a
// component that is a TreeRun, or holds one in a field, as examples/guardfsm's
// Combat does) and the tree each last ran (TreeRun.Tree); the states come from
// the machine's fsm.Hooks.Activity, which TreeState sets to its tree. A tree of
// an active state that the agent has not ticked yet is listed with Field "" and
// every node Idle.
type StateTree struct {
	States   []string     `json:"states"`   // the machine's states that run the tree, by full name ("Day/Work/Chop")
	Active   bool         `json:"active"`   // one of States is active now
	Field    string       `json:"field"`    // where the agent keeps the tree's memory: "Chores.TreeRun"; "" if not found
	Root     int          `json:"root"`     // TreeRun.Status: the root's last status (bt.Status)
	RootName string       `json:"rootName"` // Root by name: "Running"
	Tree     *Tree        `json:"tree"`     // the nodes and their live statuses
	Log      []Transition `json:"log"`      // the tree's transitions since the agent was selected, of the last LogSeconds, oldest first
}

// FSMTransition is one change of the selected agent's active state, seen by
// comparing its StateMachine from one frame to the next. Kind is "selected" (the
// state when the agent was selected: the log's baseline), "transition" or
// "stopped" (fsm.Machine.Stop: no state active). From and To are the active paths,
// outermost first; Count is the number of transitions taken since the last entry
// (fsm.Memory.Transitions): above 1, the machine went through states within one
// update that no frame saw, and Previous (the leaf left last, with its parents)
// names the last of them.
type FSMTransition struct {
	Time     float64  `json:"t"`
	Kind     string   `json:"kind"`
	From     []string `json:"from"`
	To       []string `json:"to"`
	Count    uint32   `json:"count"`
	Previous string   `json:"previous"`
}

// fsmSeen is what observeFSM compares: the selected agent's machine at the last frame.
type fsmSeen struct {
	valid       bool
	machine     *fsm.Machine
	active      fsm.StateID
	transitions uint32
	path        []string // the active path's names (shared by the log's entries: never changed)
}

// treeRunField is where a component holds a hybrid.TreeRun (or, for
// capture_selector.go, a utility.State).
type treeRunField = fieldscan.Field

// stateTracer follows one TreeRun of the selected agent.
type stateTracer struct {
	id     arche.ID
	field  treeRunField
	tree   *bt.Tree
	tracer *bt.Tracer
	start  int        // log entries of the baseline, left out
	base   Transition // the log's "selected" entry; Kind "" for a tree first run after the selection
	seen   bool       // found in the last observe
}

var treeRunType = reflect.TypeFor[hybrid.TreeRun]()

// treeRunFields lists where a value of type t holds hybrid.TreeRun values: t
// itself, or its fields and array elements, at most depth levels deep and
// fieldscan.MaxElems elements of an array.
func treeRunFields(t reflect.Type, base uintptr, name string, depth int, out []treeRunField) []treeRunField {
	return fieldscan.Find(treeRunType, t, base, name, depth, out)
}

// treeRunsOf returns the TreeRun fields of component id, cached.
func (v *Viewer) treeRunsOf(w *arche.World, id arche.ID) []treeRunField {
	if f, ok := v.treeRuns[id]; ok {
		return f
	}
	var out []treeRunField
	if info, ok := arche.ComponentInfo(w, id); ok {
		out = fieldscan.Of(treeRunType, info.Type)
	}
	if v.treeRuns == nil {
		v.treeRuns = map[arche.ID][]treeRunField{}
	}
	v.treeRuns[id] = out
	return out
}

// findTreeRuns lists the selected agent's components that hold TreeRuns (at a
// capture: a component added since is found at the next).
func (v *Viewer) findTreeRuns(w *arche.World, e arche.Entity) {
	v.runComps = v.runComps[:0]
	for _, id := range w.Ids(e) {
		if len(v.treeRunsOf(w, id)) > 0 {
			v.runComps = append(v.runComps, id)
		}
	}
}

// treeRun returns the TreeRun at f of e's component id.
func treeRun(w *arche.World, e arche.Entity, id arche.ID, f treeRunField) *hybrid.TreeRun {
	return (*hybrid.TreeRun)(unsafe.Add(w.Get(e, id), f.Off))
}

// observeFSM logs the selected agent's state changes of this frame and follows
// the trees run inside its states.
func (v *Viewer) observeFSM(w *arche.World) {
	e := v.selected
	v.observeStateTrees(w, e)
	if !w.Has(e, v.ids.machine) {
		v.fsmSeen = fsmSeen{}
		return
	}
	sm := (*components.StateMachine)(w.Get(e, v.ids.machine))
	m := sm.Machine
	if m == nil {
		v.fsmSeen = fsmSeen{}
		return
	}
	now := v.frameTime()
	prev := v.fsmSeen
	mem := &sm.Memory
	if prev.valid && prev.machine == m && prev.active == mem.Active && prev.transitions == mem.Transitions {
		return
	}
	path := activePath(m, mem)
	v.fsmSeen = fsmSeen{valid: true, machine: m, active: mem.Active, transitions: mem.Transitions, path: path}
	t := FSMTransition{Time: finite(now), Kind: "selected", To: path, Previous: m.FullName(mem.Previous)}
	if prev.valid && prev.machine == m {
		t.From, t.Count = prev.path, mem.Transitions-prev.transitions
		t.Kind = "transition"
		if !m.Has(mem.Active) {
			t.Kind = "stopped"
		}
	}
	v.fsmLog = append(v.fsmLog, t)
	v.fsmLog = trimLog(v.fsmLog, now-v.LogSeconds, fsmInfo)
}

// activePath returns the names of mem's active states, outermost first.
func activePath(m *fsm.Machine, mem *fsm.Memory) []string {
	var ids [fsm.MaxDepth]fsm.StateID
	n := m.Path(mem, ids[:])
	out := make([]string, n)
	for i, id := range ids[:n] {
		out[i] = m.Name(id)
	}
	return out
}

// trimLog drops the entries that a window from from on no longer shows (keeps), and
// the oldest beyond maxPlanLog.
func trimLog[T any](log []T, from float64, info func(T) (float64, string, string)) []T {
	k := 0
	for i := range log {
		if keeps(log, i, from, info) {
			log[k] = log[i]
			k++
		}
	}
	clear(log[k:]) // (their slices are shared with snapshots: let them go)
	log = log[:k]
	if len(log) > maxPlanLog {
		log = append(log[:0], log[len(log)-maxPlanLog:]...)
	}
	return log
}

// logWindow copies the entries of log that a window from from on shows (keeps).
func logWindow[T any](log []T, from float64, info func(T) (float64, string, string)) []T {
	var out []T
	for i := range log {
		if keeps(log, i, from, info) {
			out = append(out, log[i])
		}
	}
	return out
}

// keeps reports whether a log window from from on shows entry i of log (oldest first;
// info gives an entry's time, kind and key): an entry at or after from; a "selected"
// entry, the log's baseline (what was selected, and when), however old; and of each
// key's entries before from, the last, the state in force at the window's start, so
// that the page scrubbed there shows it (a utility log's key is the State's field; the
// other logs have one key).
func keeps[T any](log []T, i int, from float64, info func(T) (float64, string, string)) bool {
	t, kind, key := info(log[i])
	if t >= from || kind == "selected" {
		return true
	}
	for _, x := range log[i+1:] {
		if tx, _, keyx := info(x); keyx == key && tx < from {
			return false // a later entry of the same key, also before from, is the one in force
		}
	}
	return true
}

func fsmInfo(t FSMTransition) (float64, string, string) { return t.Time, t.Kind, "" }

// observeStateTrees records the transitions of every TreeRun the selected agent
// holds (found at the last capture), active or not: a state left halts its tree,
// and the log shows it.
func (v *Viewer) observeStateTrees(w *arche.World, e arche.Entity) {
	for i := range v.stateTracers {
		v.stateTracers[i].seen = false
	}
	now := v.frameTime()
	for _, id := range v.runComps {
		if !w.Has(e, id) {
			continue
		}
		for _, f := range v.treeRunsOf(w, id) {
			r := treeRun(w, e, id, f)
			if r.Tree == nil || r.Memory.Len() != r.Tree.Len() {
				continue
			}
			v.recordTicks(w, &r.Memory)
			st := v.stateTracer(id, f)
			if st.tree != r.Tree || st.tracer == nil {
				st.tree, st.tracer, st.start, st.base = r.Tree, bt.NewTracer(r.Tree, 4096), 0, Transition{}
				if !v.treesBaselined { // the statuses when the agent is selected are the baseline, as for the Brain's tree
					st.tracer.Observe(&r.Memory, now)
					st.start = len(st.tracer.Log())
					st.base = baselineOf(&r.Memory, now)
				} // a tree first run since is logged from Idle
			}
			st.tracer.Observe(&r.Memory, now)
			st.seen = true
		}
	}
	v.treesBaselined = true
	k := 0
	for _, st := range v.stateTracers {
		if st.seen {
			v.stateTracers[k] = st
			k++
		}
	}
	v.stateTracers = v.stateTracers[:k]
}

// stateTracer returns the tracer of the TreeRun at f of component id, adding one.
func (v *Viewer) stateTracer(id arche.ID, f treeRunField) *stateTracer {
	for i := range v.stateTracers {
		if st := &v.stateTracers[i]; st.id == id && st.field.Off == f.Off {
			return st
		}
	}
	v.stateTracers = append(v.stateTracers, stateTracer{id: id, field: f})
	return &v.stateTracers[len(v.stateTracers)-1]
}

// stateTrees copies the trees run inside the machine's states: those the agent's
// TreeRuns last ran, then those of active states not ticked yet.
func (v *Viewer) stateTrees(w *arche.World, e arche.Entity, sm *components.StateMachine) []StateTree {
	m := sm.Machine
	var out []StateTree
	from := v.frameTime() - v.LogSeconds
	for _, id := range v.runComps {
		if !w.Has(e, id) {
			continue
		}
		for _, f := range v.treeRunsOf(w, id) {
			r := treeRun(w, e, id, f)
			if r.Tree == nil {
				continue
			}
			st := StateTree{Field: f.Name, Root: int(r.Status), RootName: r.Status.String(), Tree: treeOf(r.Tree, &r.Memory)}
			st.States, st.Active = v.statesRunning(m, &sm.Memory, r.Tree)
			for _, t := range v.stateTracers {
				if t.id == id && t.field.Off == f.Off && t.tree == r.Tree {
					st.Log = traceWindow(t.tracer, t.start, t.base, from)
				}
			}
			out = append(out, st)
		}
	}
	// the trees of active states that no TreeRun has run yet
	var ids [fsm.MaxDepth]fsm.StateID
	n := m.Path(&sm.Memory, ids[:])
	for _, s := range ids[:n] {
		tree, ok := m.Activity(s).(*bt.Tree)
		if !ok || tree == nil || ranTree(out, tree) {
			continue
		}
		st := StateTree{RootName: bt.Idle.String(), Tree: treeOf(tree, nil)}
		st.States, st.Active = v.statesRunning(m, &sm.Memory, tree)
		out = append(out, st)
	}
	return out
}

func ranTree(trees []StateTree, t *bt.Tree) bool {
	for _, st := range trees {
		if st.Tree.tree == t {
			return true
		}
	}
	return false
}

// statesRunning returns the full names of m's states whose Activity is tree, and
// whether one of them is active in mem.
func (v *Viewer) statesRunning(m *fsm.Machine, mem *fsm.Memory, tree *bt.Tree) ([]string, bool) {
	if v.activities.machine != m {
		v.activities.machine, v.activities.states = m, nil
		for i := 1; i <= m.Len(); i++ {
			s := m.State(i)
			if t, ok := m.Activity(s).(*bt.Tree); ok && t != nil {
				v.activities.states = append(v.activities.states, s)
			}
		}
	}
	var names []string
	active := false
	for _, s := range v.activities.states {
		if m.Activity(s).(*bt.Tree) == tree {
			names = append(names, m.FullName(s))
			active = active || m.IsActive(mem, s)
		}
	}
	return names, active
}

// traceWindow copies tr's transitions after its baseline of the last seconds (from
// on), after base (the "selected" entry; none if its Kind is "") if it is that recent.
func traceWindow(tr *bt.Tracer, start int, base Transition, from float64) []Transition {
	var out []Transition
	if base.Kind != "" { // the baseline, however old: what was selected, and when
		out = append(out, base)
	}
	log := tr.Log()
	for _, t := range log[min(start, len(log)):] {
		if t.Time >= from {
			out = append(out, transitionOf(t))
		}
	}
	return out
}

// transitionOf copies a node's change of status for the page.
func transitionOf(t bt.Transition) Transition {
	return Transition{Time: finite(t.Time), Node: t.Node, From: int(t.From), To: int(t.To), FromName: t.From.String(), ToName: t.To.String(), Kind: "transition"}
}

// baselineOf returns the "selected" entry of a tree log: every node's status in m
// at time now.
func baselineOf(m *bt.Memory, now float64) Transition {
	nodes := m.Nodes()
	out := Transition{Time: finite(now), Kind: "selected", Status: make([]int, len(nodes)), StatusNames: make([]string, len(nodes))}
	for i, nm := range nodes {
		out.Status[i], out.StatusNames[i] = int(nm.Status), nm.Status.String()
	}
	if len(nodes) > 0 {
		out.From, out.To = out.Status[0], out.Status[0]
		out.FromName, out.ToName = out.StatusNames[0], out.StatusNames[0]
	}
	return out
}

// fsmLogWindow copies the state changes of the last LogSeconds (their paths are
// never changed once logged: shared).
func (v *Viewer) fsmLogWindow() []FSMTransition {
	return logWindow(v.fsmLog, v.frameTime()-v.LogSeconds, fsmInfo)
}
