package debugview

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// captureSelected copies the selected agent in detail, or returns nil.
func (v *Viewer) captureSelected(w *arche.World) *Agent {
	e := v.selected
	if e.IsZero() {
		return nil
	}
	a := &Agent{ID: e.ID(), Gen: e.Generation(), Alive: ecs.Alive(w, e)} // ecs.Alive: the selection may be of the last world
	if !a.Alive || !w.Has(e, v.ids.pos) {
		a.Alive = false
		return a
	}
	ids := &v.ids
	for _, id := range w.Ids(e) {
		if info, ok := arche.ComponentInfo(w, id); ok {
			a.Components = append(a.Components, info.Type.Name())
		}
	}
	a.Values = valuesOf(w, e, archaiComponents)
	has := func(id arche.ID) bool { return w.Has(e, id) }
	pos := (*components.Position)(w.Get(e, ids.pos))
	a.Pos = vec(pos.X, pos.Y)
	if has(ids.vel) {
		vel := (*components.Velocity)(w.Get(e, ids.vel))
		vv := vec(vel.X, vel.Y)
		a.Vel = &vv
	}
	if has(ids.faction) {
		t := int((*components.Faction)(w.Get(e, ids.faction)).Team)
		a.Team = &t
	}
	if has(ids.health) {
		hp := (*components.Health)(w.Get(e, ids.health))
		a.Health = &[2]float64{finite(hp.Current), finite(hp.Max)}
	}
	if has(ids.intent) {
		in := (*components.Intent)(w.Get(e, ids.intent))
		a.Intent = &Intent{Mode: modeName(in.Mode), Move: in.Move, Goal: vec(in.Goal.X, in.Goal.Y),
			Attack: in.Attack.ID(), Target: in.Target.ID(), Point: vec(in.Point.X, in.Point.Y)}
	}
	if has(ids.think) {
		th := (*components.Think)(w.Get(e, ids.think))
		a.Think = &Think{Interval: finite(th.Interval), Last: finite(th.Last), Next: finite(th.Next), Frozen: th.Frozen}
	}
	if has(ids.brain) {
		a.Tree = v.tree((*components.Brain)(w.Get(e, ids.brain)))
	}
	if has(ids.board) {
		a.Blackboard = blackboardOf((*components.Blackboard)(w.Get(e, ids.board)))
	}
	if has(ids.util) {
		a.Utility = utilityOf((*components.UtilityBrain)(w.Get(e, ids.util)), &v.utilTrace)
	}
	v.findStates(w, e)
	a.Selectors = v.selectors(w, e)
	if a.Utility != nil || a.Selectors != nil {
		a.UtilityLog = v.utilityLogWindow()
	}
	if has(ids.machine) {
		sm := (*components.StateMachine)(w.Get(e, ids.machine))
		a.FSM = fsmOf(sm)
		if a.FSM != nil {
			v.findTreeRuns(w, e)
			a.FSM.Trees = v.stateTrees(w, e, sm)
			a.FSMLog = v.fsmLogWindow()
		}
	}
	if has(ids.path) {
		a.Path = v.pathOf((*components.Path)(w.Get(e, ids.path)))
	}
	if has(ids.perception) {
		p := (*components.Perception)(w.Get(e, ids.perception))
		a.Perception = &Perception{Range: finite(p.SightRange), FieldOfView: finite(p.FieldOfView), Heading: vec(p.Heading.X, p.Heading.Y),
			Visible: p.Visible, Target: p.Target.ID(), HasLastSeen: p.HasLastSeen, LastSeen: vec(p.LastSeen.X, p.LastSeen.Y)}
		if p.Visible { // else the component holds the last foe's values: stale
			at, d := vec(p.TargetAt.X, p.TargetAt.Y), finite(p.Distance)
			a.Perception.TargetAt, a.Perception.Distance = &at, &d
		}
	}
	if has(ids.flow) && v.grid != nil {
		ff := (*components.FlowFollower)(w.Get(e, ids.flow))
		c := ff.Goal
		center := v.grid.Center(c)
		a.Flow = &Flow{Goal: vec(center.X, center.Y), Has: ff.Has, Arrived: ff.Arrived}
	}
	a.Planner = v.capturePlanner(w, e)
	if a.Planner != nil {
		a.PlanLog = v.planLogWindow()
	}
	if v.tracer != nil && a.Tree != nil {
		a.Log = traceWindow(v.tracer, v.traceStart, v.treeBase, v.frameTime()-v.LogSeconds)
	}
	return a
}

func (v *Viewer) tree(b *components.Brain) *Tree {
	if b.Tree == nil {
		return nil
	}
	return treeOf(b.Tree, &b.Memory)
}

// treeOf copies t's nodes and their statuses in m (all Idle for a nil m or one
// of another length): each node's last status, and its status in the latest tick
// (Idle if it is of a run that is over: bt.Memory.Current) where m records its ticks.
func treeOf(t *bt.Tree, m *bt.Memory) *Tree {
	out := &Tree{Name: t.Name(), Nodes: make([]Node, t.Len()), Status: make([]int, t.Len()), LastStatus: make([]int, t.Len()), tree: t}
	for i := range t.Len() {
		out.Nodes[i] = Node{Name: t.NodeName(i), Kind: t.NodeKind(i), Type: t.NodeType(i), Parent: t.Parent(i),
			StatusName: bt.Idle.String(), LastStatusName: bt.Idle.String()}
	}
	if m != nil && m.Len() == t.Len() && t.Len() > 0 {
		_, out.Recorded = m.Current(0)
		for i, nm := range m.Nodes() {
			shown := nm.Status
			if current, known := m.Current(i); known && !current {
				shown, out.Nodes[i].Stale = bt.Idle, true
			}
			out.Status[i], out.LastStatus[i] = int(shown), int(nm.Status)
			out.Nodes[i].StatusName, out.Nodes[i].LastStatusName = shown.String(), nm.Status.String()
		}
	}
	return out
}

func blackboardOf(b *components.Blackboard) []KV {
	st := b.Store
	if st == nil || st.Schema() == nil {
		return nil
	}
	sc := st.Schema()
	out := make([]KV, 0, sc.Len())
	for i := range sc.Len() {
		name := sc.Name(i)
		if name == "" {
			continue // a key removed by Schema.Truncate
		}
		val, ok := st.Value(name)
		kv := KV{Key: name, Set: ok}
		if ok {
			kv.Value = clip(fmt.Sprint(val))
		}
		out = append(out, kv)
	}
	return out
}

// clip cuts a displayed value to 80 bytes.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

func fsmOf(m *components.StateMachine) *FSM {
	if m.Machine == nil {
		return nil
	}
	out := &FSM{Name: m.Machine.MachineName(), Previous: m.Machine.FullName(m.Memory.Previous),
		Elapsed: finite(m.Memory.Elapsed), Transitions: m.Memory.Transitions}
	var path [fsm.MaxDepth]fsm.StateID
	n := m.Machine.Path(&m.Memory, path[:])
	for _, id := range path[:n] {
		out.Active = append(out.Active, m.Machine.Name(id))
	}
	return out
}

func (v *Viewer) pathOf(p *components.Path) *Path {
	out := &Path{State: pathStateName(p.State), Next: p.Next}
	if v.grid != nil {
		c := v.grid.Center(p.Goal)
		out.Goal = vec(c.X, c.Y)
		for _, wp := range p.Waypoints {
			c := v.grid.Center(wp)
			out.Waypoints = append(out.Waypoints, vec(c.X, c.Y))
		}
	}
	return out
}

func modeName(m components.IntentMode) string {
	switch m {
	case components.IntentGo:
		return "go"
	case components.IntentFlee:
		return "flee"
	case components.IntentPursue:
		return "pursue"
	case components.IntentEvade:
		return "evade"
	}
	return fmt.Sprintf("mode(%d)", m)
}

func pathStateName(s components.PathState) string {
	switch s {
	case components.PathNone:
		return "none"
	case components.PathPending:
		return "pending"
	case components.PathReady:
		return "ready"
	case components.PathUnreachable:
		return "unreachable"
	}
	return fmt.Sprintf("state(%d)", s)
}

// finite replaces NaN and infinities (which JSON cannot hold) by 0.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

func vec(x, y float64) Vec { return Vec{finite(x), finite(y)} }
