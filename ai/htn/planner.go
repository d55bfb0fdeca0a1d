package htn

import (
	"errors"
	"math"

	"github.com/archai-go/archai/ai/blackboard"
)

// Errors of [Planner.Plan].
var (
	// ErrNoPlan: the root task does not decompose in the state.
	ErrNoPlan = errors.New("htn: the root task does not decompose")
	// ErrDepth: the decomposition nested more than MaxDepth compound tasks (a recursive
	// domain), and no other decomposition was found.
	ErrDepth = errors.New("htn: decomposition deeper than MaxDepth")
	// ErrLength: a decomposition needed more than MaxPlan tasks or MaxMTR method
	// choices, and no other decomposition was found.
	ErrLength = errors.New("htn: plan longer than MaxPlan")
	// ErrBudget: the planner visited Planner.MaxVisits tasks without finding a
	// decomposition (a domain whose methods backtrack exponentially).
	ErrBudget = errors.New("htn: decomposition budget exhausted")
)

// DefaultMaxVisits is the budget of a Planner whose MaxVisits is 0.
const DefaultMaxVisits = 4096

// Plan is a decomposition of a domain's root task: its primitive tasks in order, the
// method traversal record (the index of the method chosen at each decomposition, in
// order) and the facts the decomposition read.
type Plan struct {
	Tasks  [MaxPlan]TaskID
	Len    int
	MTR    [MaxMTR]uint8
	MTRLen int
	Reads  uint64 // facts read by the conditions evaluated and the effects applied while planning, one bit each
}

// TaskList returns the plan's tasks (a slice of p.Tasks).
func (p *Plan) TaskList() []TaskID { return p.Tasks[:p.Len] }

// Better reports whether plan a ranks before plan b: at the first position where their
// MTRs differ, a chose an earlier method; an MTR that is a prefix of the other, or equal
// to it, is not better.
func Better(a, b *Plan) bool {
	n := min(a.MTRLen, b.MTRLen)
	for i := range n {
		if a.MTR[i] != b.MTR[i] {
			return a.MTR[i] < b.MTR[i]
		}
	}
	return false
}

// Planner decomposes tasks. It keeps a scratch blackboard store per domain for scripts,
// so planning allocates nothing once it has planned with a domain. Not safe for
// concurrent use: give each worker its own.
type Planner struct {
	// MaxVisits bounds the tasks one Plan visits (each primitive and compound task
	// decomposed counts one); DefaultMaxVisits if 0. Past it Plan fails with ErrBudget,
	// whatever methods remain untried: a later method, even one without subtasks that
	// costs no visit, never stands in for the plan the budget cut short.
	MaxVisits int
	// Visits counts the tasks the last Plan visited.
	Visits int

	// ScriptErrors counts the scripts that failed at run time (a division by zero, a
	// value out of an entry's range): a failing condition is false, a failing effect
	// fails its task.
	ScriptErrors uint64
	// LastScriptError is the error of the last script counted in ScriptErrors (nil
	// before the first).
	LastScriptError error

	d      *Domain
	out    *Plan
	state  State
	alt    Plan
	scrap  Plan
	err    error
	stores []domainStore
	st     *blackboard.Store
	budget int
}

type domainStore struct {
	d  *Domain
	st *blackboard.Store
}

// Plan decomposes d's root task from state s (not changed) into out. It returns
// ErrNoPlan, ErrDepth, ErrLength or ErrBudget, leaving out with Len 0.
func (p *Planner) Plan(d *Domain, s *State, out *Plan) error {
	p.use(d)
	*out = Plan{}
	p.out, p.state, p.err = out, *s, nil
	p.Visits = 0
	p.budget = p.MaxVisits
	if p.budget <= 0 {
		p.budget = DefaultMaxVisits
	}
	ok := p.decompose(d.root, 0)
	p.out = nil
	if ok {
		return nil
	}
	reads := out.Reads
	*out = Plan{Reads: reads}
	if p.err != nil {
		return p.err
	}
	return ErrNoPlan
}

// use makes d the planner's domain, with its scratch store.
func (p *Planner) use(d *Domain) {
	if p.d == d {
		return
	}
	p.d = d
	for _, ds := range p.stores {
		if ds.d == d {
			p.st = ds.st
			return
		}
	}
	p.st = d.schema.NewStore()
	p.stores = append(p.stores, domainStore{d, p.st})
}

// decompose adds task t's decomposition to p.out, applying its effects to p.state.
func (p *Planner) decompose(t TaskID, depth int) bool {
	if p.Visits >= p.budget {
		p.err = ErrBudget
		return false
	}
	p.Visits++
	d := p.d
	tk := &d.tasks[t]
	if !tk.compound {
		if !p.holds(tk.primitive.If, &p.state) || !p.holds(tk.primitive.While, &p.state) {
			return false
		}
		if p.out.Len == MaxPlan {
			p.err = ErrLength
			return false
		}
		if !p.apply(tk.primitive.Effects, &p.state) {
			return false
		}
		p.out.Tasks[p.out.Len] = t
		p.out.Len++
		return true
	}
	if depth >= MaxDepth {
		p.err = ErrDepth
		return false
	}
	if p.out.MTRLen == MaxMTR {
		p.err = ErrLength
		return false
	}
	saved, n, k := p.state, p.out.Len, p.out.MTRLen
	for mi := range tk.methods {
		m := &tk.methods[mi]
		if !p.holds(m.If, &p.state) {
			continue
		}
		p.out.MTR[k] = uint8(mi) // mi < MaxMethods (Build)
		p.out.MTRLen = k + 1
		ok := true
		for _, st := range m.Tasks {
			if !p.decompose(st, depth+1) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
		p.state, p.out.Len, p.out.MTRLen = saved, n, k
		if p.err == ErrBudget { // the search was cut short: no later method may stand in
			return false
		}
	}
	return false
}

// holds reports whether every condition of cs holds in s, recording what they read.
func (p *Planner) holds(cs []Condition, s *State) bool {
	for i := range cs {
		c := &cs[i]
		if p.out != nil {
			p.out.Reads |= c.reads
		}
		var ok bool
		switch {
		case c.prog != nil:
			p.sync(s)
			v, err := c.prog.Bool(p.st)
			if err != nil {
				p.ScriptErrors++
				p.LastScriptError = err
			}
			ok = v && err == nil
		case c.fn != nil:
			ok = c.fn(s)
		default:
			v := s[c.fact]
			switch c.op {
			case Eq:
				ok = v == c.value
			case Ne:
				ok = v != c.value
			case Lt:
				ok = v < c.value
			case Le:
				ok = v <= c.value
			case Gt:
				ok = v > c.value
			case Ge:
				ok = v >= c.value
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// apply applies es to s; false if a script failed (s then holds what was applied).
func (p *Planner) apply(es []Effect, s *State) bool {
	for i := range es {
		e := &es[i]
		if p.out != nil {
			p.out.Reads |= e.reads
		}
		switch {
		case e.prog != nil:
			p.sync(s)
			err := e.prog.Exec(p.st)
			p.read(s)
			if err != nil {
				p.ScriptErrors++
				p.LastScriptError = err
				return false
			}
		case e.fn != nil:
			e.fn(s)
		case e.add:
			s[e.fact] = int32(min(max(int64(s[e.fact])+int64(e.value), math.MinInt32), math.MaxInt32))
		default:
			s[e.fact] = e.value
		}
	}
	return true
}

// sync writes s into the scratch store.
func (p *Planner) sync(s *State) {
	for i, k := range p.d.keys {
		k.SetWord(p.st, uint64(int64(s[i])))
	}
}

// read reads the scratch store back into s.
func (p *Planner) read(s *State) {
	for i, k := range p.d.keys {
		w, _ := k.Word(p.st)
		s[i] = int32(min(max(int64(w), math.MinInt32), math.MaxInt32))
	}
}

// Choice is one decomposition in a plan: a compound task, the method chosen for it (its
// index among the task's methods, in order, and its name) and the task's depth in the
// decomposition (0 for the root task).
type Choice struct {
	Task   TaskID
	Method int
	Name   string
	Depth  int
}

// Choices appends to dst the decompositions of plan p, a plan of d, in the order the
// planner made them (depth first, as the MTR records them): each compound task and the
// method chosen for it. The planner takes a task's methods in order and chooses the
// first whose conditions held and whose subtasks all decomposed, in the state the plan
// was made from; so the methods before the chosen one did not (which of the two is not
// recorded: their conditions may have held and a subtask failed, as for the domain of
// [Registry.LoadJSON]'s example, whose state {1, 1} chooses Attack's second method,
// Empty, because the first, Loaded, shoots twice with one round).
//
// It reports false, with dst as given, if p is not a decomposition of d's root task (a
// plan of another domain, or one changed by hand): its MTR and tasks must replay over d.
// It allocates only to grow dst.
func (d *Domain) Choices(dst []Choice, p *Plan) ([]Choice, bool) {
	n0 := len(dst)
	k, j := 0, 0 // MTR entries and tasks replayed
	var walk func(t TaskID, depth int) bool
	walk = func(t TaskID, depth int) bool {
		if int(t) < 0 || int(t) >= len(d.tasks) || depth > MaxDepth {
			return false
		}
		tk := &d.tasks[t]
		if !tk.compound {
			if j >= p.Len || j >= MaxPlan || p.Tasks[j] != t {
				return false
			}
			j++
			return true
		}
		if k >= p.MTRLen || k >= MaxMTR || int(p.MTR[k]) >= len(tk.methods) {
			return false
		}
		mi := int(p.MTR[k])
		k++
		m := &tk.methods[mi]
		dst = append(dst, Choice{Task: t, Method: mi, Name: m.Name, Depth: depth})
		for _, st := range m.Tasks {
			if !walk(st, depth+1) {
				return false
			}
		}
		return true
	}
	if p.Len == 0 || !walk(d.root, 0) || k != p.MTRLen || j != p.Len {
		return dst[:n0], false
	}
	return dst, true
}

// MethodName returns the name of method m of task t, or "" (not a compound task's method).
func (d *Domain) MethodName(t TaskID, m int) string {
	if int(t) < 0 || int(t) >= len(d.tasks) || m < 0 || m >= len(d.tasks[t].methods) {
		return ""
	}
	return d.tasks[t].methods[m].Name
}
