package debugview

import (
	"cmp"
	"slices"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// Planner is the selected agent's HTN or GOAP planner: its domain (by name), its
// plan with the current step, its believed world state by fact name and its squad.
type Planner struct {
	Kind     string     `json:"kind"`   // "htn" or "goap"
	Domain   string     `json:"domain"` // the domain's name (HTNPlanner.Name, GOAPPlanner.Name)
	Resolved bool       `json:"resolved"`
	Goal     string     `json:"goal"`  // GOAP: the goal the plan reaches; "" for HTN or no plan
	Steps    []PlanStep `json:"steps"` // the plan's tasks (HTN) or actions (GOAP), in order
	Step     int        `json:"step"`  // index of the current step; len(Steps) when the plan is done
	Status   string     `json:"status"`
	Plans    uint32     `json:"plans"`    // plans adopted since spawn
	Replaced uint32     `json:"replaced"` // HTN: running plans replaced by a better one
	Failures uint32     `json:"failures"` // steps that failed or could not start
	Facts    []Fact     `json:"facts"`    // the believed world state, the domain's facts in order
	Squad    *Squad     `json:"squad"`    // null without a SquadMember
	// Methods is, for an HTN plan, the method chosen for each compound task, in the
	// order the planner decomposed them (htn.Domain.Choices: the plan's MTR replayed over
	// its domain); null for GOAP or without a plan.
	Methods []PlanMethod `json:"methods"`
}

// PlanMethod is one decomposition of an HTN plan: the compound task, the method chosen
// for it and why. The planner takes a task's methods in order and chooses the first whose
// conditions held and whose subtasks all decomposed, in the believed state the plan was
// made from; so PassedOver, the methods before it, did not (their conditions did not
// hold, or one of their subtasks did not decompose: the planner does not record which).
type PlanMethod struct {
	Task       string   `json:"task"`
	Method     string   `json:"method"` // its name; "method N" (N from 1) for one without a name
	Index      int      `json:"index"`  // among the task's methods, in order, from 0
	Depth      int      `json:"depth"`  // 0 for the root task
	PassedOver []string `json:"passedOver"`
}

// PlanStep is one step of a plan: its task or action name and its status: "done",
// "running" (the current step, started), "next" (the current step, not started yet) or
// "pending".
type PlanStep struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Fact is one fact of a planner's believed world state.
type Fact struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

// Squad is the selected agent's components.SquadMember and its squad mates (the agents
// with the same Squad entity), in entity order.
type Squad struct {
	Entity uint32 `json:"entity"` // the entity holding the squad's shared state
	// Gen is that entity's generation and Alive whether it still lives: a squad entity
	// removed while members still name it is not alive, and its ID may already be
	// another entity's (of another generation).
	Gen     uint32   `json:"gen"`
	Alive   bool     `json:"alive"`
	Slot    int      `json:"slot"`
	Members []Member `json:"members"`
}

// Member is one agent of a squad.
type Member struct {
	ID   uint32 `json:"id"`
	Slot int    `json:"slot"`
	Step string `json:"step"` // the name of its plan's current step, "" without one
}

// PlanTransition is one change of the selected agent's plan, seen by comparing its
// planner from one frame to the next (two changes within one think show as their net
// effect): Kind is "selected" (the plan when the agent was selected: the log's
// baseline), "plan" (a plan adopted with no plan running), "replan" (a new plan replaced
// a running one: a better one, or after a change of state), "start", "done" (a step
// succeeded), "failed" (a step failed or could not start; the agent replans), "complete"
// (the plan's last step succeeded) or "dropped" (the plan was abandoned without a new
// one). Plan (the step names) and Step (the current step's index) are the plan after
// the change, Started whether its current step has started; Task names the step the
// change concerns. So the page can show the plan at any time of the log.
type PlanTransition struct {
	Time    float64  `json:"t"`
	Kind    string   `json:"kind"`
	Step    int      `json:"step"`
	Started bool     `json:"started"`
	Task    string   `json:"task"`
	Plan    []string `json:"plan"`
}

// planSeen is what observePlan compares: the selected agent's plan at the last frame.
type planSeen struct {
	valid                    bool
	plans, replaced, failure uint32
	step, length             int
	started                  bool
	current                  string
	names                    []string // the plan's step names (shared by the log's entries: never changed)
}

// runView is the part of an htn.Run or goap.Run the viewer reads, with names.
type runView struct {
	plans, replaced, failures uint32
	step, length              int
	started                   bool
	name                      func(i int) string // the name of step i
	failed                    func() string      // the name of the step of the last failure
}

func htnView(p *components.HTNPlanner, d *htn.Domain) runView {
	r := &p.Run
	n := max(0, min(r.Plan.Len, htn.MaxPlan))
	return runView{plans: r.Plans, replaced: r.Replaced, failures: r.Failures, step: r.Step, length: n, started: r.Started,
		name: func(i int) string { return d.TaskName(r.Plan.Tasks[i]) }, failed: func() string { return d.TaskName(r.Failed) }}
}

func goapView(p *components.GOAPPlanner, d *goap.Domain) runView {
	r := &p.Run
	n := max(0, min(r.Plan.Len, goap.MaxSteps))
	return runView{plans: r.Plans, failures: r.Failures, step: r.Step, length: n, started: r.Started,
		name: func(i int) string { return d.ActionName(r.Plan.Steps[i]) }, failed: func() string { return d.ActionName(r.Failed) }}
}

func (r *runView) current() string {
	if r.step >= 0 && r.step < r.length {
		return r.name(r.step)
	}
	return ""
}

func (r *runView) names() []string {
	out := make([]string, r.length)
	for i := range out {
		out[i] = r.name(i)
	}
	return out
}

// plannerRun returns the selected agent's planner run with its domain, or false.
func (v *Viewer) plannerRun(w *arche.World, e arche.Entity) (runView, bool) {
	if w.Has(e, v.ids.htn) {
		p := (*components.HTNPlanner)(w.Get(e, v.ids.htn))
		if p.Cache != nil && p.Cache.Name() == p.Name {
			return htnView(p, p.Cache), true
		}
	}
	if w.Has(e, v.ids.goap) {
		p := (*components.GOAPPlanner)(w.Get(e, v.ids.goap))
		if p.Cache != nil && p.Cache.Name() == p.Name {
			return goapView(p, p.Cache), true
		}
	}
	if d, r, _, ok := v.hybridPlan(w, e); ok {
		return htnRunView(r, d), true
	}
	if d, r, _, ok := v.hybridGOAPPlan(w, e); ok {
		return goapRunView(r, d), true
	}
	return runView{}, false
}

// observePlan logs the selected agent's plan transitions of this frame.
func (v *Viewer) observePlan(w *arche.World) {
	r, ok := v.plannerRun(w, v.selected)
	if !ok {
		v.planSeen = planSeen{}
		return
	}
	now := v.frameTime()
	prev := v.planSeen
	newPlan := !prev.valid || r.plans != prev.plans || r.length != prev.length
	names := prev.names
	if newPlan {
		names = nil
		if r.length > 0 {
			names = r.names()
		}
	}
	v.planSeen = planSeen{valid: true, plans: r.plans, replaced: r.replaced, failure: r.failures, step: r.step,
		length: r.length, started: r.started, current: r.current(), names: names}
	add := func(kind string, step int, started bool, task string) {
		v.planLog = append(v.planLog, PlanTransition{Time: finite(now), Kind: kind, Step: step, Started: started, Task: task, Plan: names})
	}
	if !prev.valid { // the baseline when the agent is selected: the log shows changes from here
		add("selected", r.step, r.started, r.current())
		return
	}
	if r.failures != prev.failure { // the step that failed, which need not be the one running at the last frame
		add("failed", r.step, false, r.failed())
	}
	if !newPlan {
		for i := prev.step; i < r.step && i < r.length; i++ {
			add("done", i+1, false, r.name(i))
		}
		if r.step >= r.length && prev.step < prev.length && r.length > 0 {
			add("complete", r.step, false, "")
		}
	} else if r.length > 0 { // (a plan made and failed within one think shows as its failure)
		kind := "plan"
		if r.replaced != prev.replaced || (prev.step < prev.length && r.failures == prev.failure) {
			kind = "replan"
		}
		add(kind, 0, false, "")
		for i := 0; i < r.step && i < r.length; i++ {
			add("done", i+1, false, r.name(i))
		}
	} else if prev.step < prev.length && r.failures == prev.failure {
		add("dropped", 0, false, prev.current)
	}
	if r.started && r.step < r.length && (newPlan || !prev.started || r.step != prev.step) {
		add("start", r.step, true, r.current())
	}
	v.planLog = trimLog(v.planLog, now-v.LogSeconds, planInfo)
}

func planInfo(t PlanTransition) (float64, string, string) { return t.Time, t.Kind, "" }

// maxPlanLog bounds the plan transitions kept.
const maxPlanLog = 4096

// capturePlanner copies the selected agent's planner (HTN first), or returns nil.
func (v *Viewer) capturePlanner(w *arche.World, e arche.Entity) *Planner {
	var out *Planner
	switch {
	case w.Has(e, v.ids.htn):
		p := (*components.HTNPlanner)(w.Get(e, v.ids.htn))
		out = &Planner{Kind: "htn", Domain: p.Name, Status: p.Run.Status.String(), Plans: p.Run.Plans,
			Replaced: p.Run.Replaced, Failures: p.Run.Failures}
		if d := p.Cache; d != nil && d.Name() == p.Name {
			out.Resolved = true
			out.fill(htnView(p, d))
			out.Methods = methodsOf(d, &p.Run.Plan)
			for f := range min(d.Facts(), htn.MaxFacts) {
				out.Facts = append(out.Facts, Fact{Name: d.FactName(htn.Fact(f)), Value: p.State[f]})
			}
		}
	case w.Has(e, v.ids.goap):
		p := (*components.GOAPPlanner)(w.Get(e, v.ids.goap))
		out = &Planner{Kind: "goap", Domain: p.Name, Status: p.Run.Status.String(), Plans: p.Run.Plans, Failures: p.Run.Failures}
		if d := p.Cache; d != nil && d.Name() == p.Name {
			out.Resolved = true
			r := goapView(p, d)
			out.fill(r)
			if r.length > 0 {
				out.Goal = d.GoalName(p.Run.Plan.Goal)
			}
			for f := range min(d.Facts(), goap.MaxFacts) {
				out.Facts = append(out.Facts, Fact{Name: d.FactName(goap.Fact(f)), Value: int32(p.State[f])})
			}
		}
	default:
		d, r, st, ok := v.hybridPlan(w, e) // a hybrid.HTNAction's plan in its tree
		if !ok {
			return v.captureGOAPAction(w, e)
		}
		out = &Planner{Kind: "htn", Domain: d.Name(), Resolved: true, Status: r.Status.String(), Plans: r.Plans,
			Replaced: r.Replaced, Failures: r.Failures}
		out.fill(htnRunView(r, d))
		out.Methods = methodsOf(d, &r.Plan)
		for f := range min(d.Facts(), htn.MaxFacts) {
			out.Facts = append(out.Facts, Fact{Name: d.FactName(htn.Fact(f)), Value: st[f]})
		}
	}
	if out.Domain == "" {
		out.Domain = "(no name)"
	}
	if w.Has(e, v.ids.squad) {
		out.Squad = v.squadOf(w, *(*components.SquadMember)(w.Get(e, v.ids.squad)))
	}
	return out
}

// captureGOAPAction copies the plan of a hybrid.GOAPAction in e's trees
// (hybridGOAPPlan) as a GOAPPlanner's, or returns nil.
func (v *Viewer) captureGOAPAction(w *arche.World, e arche.Entity) *Planner {
	d, r, st, ok := v.hybridGOAPPlan(w, e)
	if !ok {
		return nil
	}
	out := &Planner{Kind: "goap", Domain: d.Name(), Resolved: true, Status: r.Status.String(), Plans: r.Plans, Failures: r.Failures}
	view := goapRunView(r, d)
	out.fill(view)
	if view.length > 0 {
		out.Goal = d.GoalName(r.Plan.Goal)
	}
	for f := range min(d.Facts(), goap.MaxFacts) {
		out.Facts = append(out.Facts, Fact{Name: d.FactName(goap.Fact(f)), Value: int32(st[f])})
	}
	if out.Domain == "" {
		out.Domain = "(no name)"
	}
	if w.Has(e, v.ids.squad) {
		out.Squad = v.squadOf(w, *(*components.SquadMember)(w.Get(e, v.ids.squad)))
	}
	return out
}

func (p *Planner) fill(r runView) {
	p.Step = r.step
	p.Steps = make([]PlanStep, r.length)
	for i := range p.Steps {
		st := "pending"
		switch {
		case i < r.step:
			st = "done"
		case i == r.step && r.started:
			st = "running"
		case i == r.step:
			st = "next"
		}
		p.Steps[i] = PlanStep{Name: r.name(i), Status: st}
	}
}

// squadOf lists the agents of m's squad.
func (v *Viewer) squadOf(w *arche.World, m components.SquadMember) *Squad {
	s := &Squad{Entity: m.Squad.ID(), Gen: m.Squad.Generation(), Alive: w.Alive(m.Squad), Slot: int(m.Slot)}
	q := w.Query(arche.All(v.ids.squad))
	for q.Next() {
		o := (*components.SquadMember)(q.Get(v.ids.squad))
		if o.Squad != m.Squad {
			continue
		}
		mb := Member{ID: q.Entity().ID(), Slot: int(o.Slot)}
		if r, ok := v.plannerRun(w, q.Entity()); ok {
			mb.Step = r.current()
		}
		s.Members = append(s.Members, mb)
	}
	sortMembers(s.Members)
	return s
}

// sortMembers sorts ms by entity ID (O(n log n): a squad may be large, and its members
// come in Arche's storage order, which churn leaves unsorted).
func sortMembers(ms []Member) {
	slices.SortFunc(ms, func(a, b Member) int { return cmp.Compare(a.ID, b.ID) })
}

// planLogWindow copies the plan transitions of the last LogSeconds (their Plan slices
// are never changed once logged: shared).
func (v *Viewer) planLogWindow() []PlanTransition {
	return logWindow(v.planLog, v.frameTime()-v.LogSeconds, planInfo)
}

// methodsOf lists the methods chosen in HTN plan p of d; nil without a plan or for a
// plan that does not replay over d.
func methodsOf(d *htn.Domain, p *htn.Plan) []PlanMethod {
	cs, ok := d.Choices(nil, p)
	if !ok {
		return nil
	}
	name := func(t htn.TaskID, m int) string {
		if n := d.MethodName(t, m); n != "" {
			return n
		}
		return "method " + itoa(uint64(m+1))
	}
	out := make([]PlanMethod, len(cs))
	for i, c := range cs {
		out[i] = PlanMethod{Task: d.TaskName(c.Task), Method: name(c.Task, c.Method), Index: c.Method, Depth: c.Depth}
		for m := range c.Method {
			out[i].PassedOver = append(out[i].PassedOver, name(c.Task, m))
		}
	}
	return out
}
