package htn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/internal/plan"
	"github.com/archai-go/archai/ai/script"
)

// Limits.
const (
	MaxFacts = 32 // facts in a State
	MaxPlan  = 32 // primitive tasks in a plan
	MaxMTR   = 32 // decompositions recorded in a plan's MTR
	MaxDepth = 32 // nested compound tasks while decomposing
	// MaxMethods is the most methods a compound task may have: a plan's MTR records
	// each method chosen in a byte.
	MaxMethods = 256
)

// State is a world state: fact i's value at index i.
type State [MaxFacts]int32

// Fact is the index of a fact in a [State].
type Fact uint8

// TaskID indexes a domain's tasks in the order they were declared.
type TaskID int16

// NoTask is the TaskID of no task.
const NoTask TaskID = -1

// Status is what an [Operator] returns.
type Status uint8

// Statuses.
const (
	Running Status = iota // not done: called again next think
	Success               // done: the task's effects apply, the next task starts
	Failure               // failed: the plan is dropped and the agent replans
)

// String returns "running", "success" or "failure".
func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Success:
		return "success"
	case Failure:
		return "failure"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Operator carries out a primitive task over one or more thinks. It may write the
// agent's components (through Context.Agent) and its believed State; it must not keep
// the Context.
type Operator func(c *Context) Status

// Context is what operators and a domain's sensor get.
type Context struct {
	Agent any     // the caller's view of the agent (systems.HTN passes a *systems.Agent)
	State *State  // the agent's believed world state
	DT    float64 // seconds of simulation time since the agent last thought
	Time  float64 // simulation time, seconds
	Start float64 // simulation time the current task started, seconds
	Step  int     // index of the current task in the plan
	Task  TaskID  // the current task; NoTask in the sensor
	// Memory is the current task's scratch memory, zeroed when it starts.
	Memory *[2]float64
	// Observe, if not nil, is called by Tick with every transition of the agent's Run
	// (see [Event]), in order, on the goroutine running Tick.
	Observe func(ev Event)
}

// Op is the comparison of an [Is] condition.
type Op uint8

// Comparisons.
const (
	Eq Op = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

// Condition is a test on the state: a comparison of one fact ([Is]), a Go function
// ([Func]) or a script ([Builder.Script]).
type Condition struct {
	fact  Fact
	op    Op
	value int32
	fn    func(s *State) bool
	prog  *script.Program
	reads uint64 // facts it reads, one bit each
}

// Is is the condition State[f] op v.
func Is(f Fact, op Op, v int32) Condition {
	return Condition{fact: f, op: op, value: v, reads: 1 << f}
}

// Func is the condition fn(state), which reads the facts listed (used to tell whether
// a plan depends on a change; none listed: every fact).
func Func(fn func(s *State) bool, reads ...Fact) Condition {
	return Condition{fn: fn, reads: maskOf(reads)}
}

// Effect changes the state: sets or adds to one fact ([Set], [Add]), runs a Go function
// ([Do]) or a script ([Builder.ScriptEffect]). An effect that derives a fact from
// others (a script "danger = noise > 5", a Do function) reads them: a plan whose
// decomposition applied it depends on them as on the facts its conditions read (see
// [Plan].Reads).
type Effect struct {
	fact  Fact
	value int32
	add   bool
	fn    func(s *State)
	prog  *script.Program
	reads uint64 // facts it reads, one bit each (Set and Add: none a later condition does not read)
}

// Set is the effect State[f] = v.
func Set(f Fact, v int32) Effect { return Effect{fact: f, value: v} }

// Add is the effect State[f] += v (saturating at the int32 range).
func Add(f Fact, v int32) Effect { return Effect{fact: f, value: v, add: true} }

// Do is the effect fn(state), which reads the facts listed (used to tell whether a plan
// depends on a change, as for [Func]; none listed: every fact, so a plan that applied it
// is planned again on every change of the state).
func Do(fn func(s *State), reads ...Fact) Effect { return Effect{fn: fn, reads: maskOf(reads)} }

func maskOf(fs []Fact) uint64 {
	if len(fs) == 0 {
		return ^uint64(0)
	}
	var m uint64
	for _, f := range fs {
		m |= 1 << min(f, 63) // a Fact of 64 or more (no fact: Build refuses it) keeps a bit
	}
	return m
}

// unknownReads reports whether mask, the facts a Func or Do lists, names a fact beyond
// the first n (none listed, every fact, is known).
func unknownReads(mask uint64, n int) bool {
	return mask != ^uint64(0) && mask>>n != 0
}

// Primitive is what [Builder.Primitive] declares: a task the agent carries out.
type Primitive struct {
	If []Condition // checked when the task is about to start (and while planning)
	// While is checked like If while planning and at the start, then on every think
	// while the task runs, before its operator (fluid-htn's executing conditions): if
	// one fails, the task fails (it is halted) and the agent replans.
	While   []Condition
	Effects []Effect
	Run     Operator // nil: the task succeeds at once
	// Halt, if not nil, is called when the task is abandoned while running.
	Halt func(c *Context)
}

// Method is one way to decompose a compound task: its conditions and subtasks, in order.
type Method struct {
	Name  string
	If    []Condition
	Tasks []TaskID
}

type task struct {
	name      string
	compound  bool
	primitive Primitive
	methods   []Method
	reads     uint64 // facts its conditions read (primitive)
}

// Errors of [Builder.Build] and the loaders.
var (
	ErrFact     = errors.New("unknown fact")
	ErrTask     = errors.New("unknown task")
	ErrName     = errors.New("name empty or used twice")
	ErrFacts    = errors.New("too many facts")
	ErrNoRoot   = errors.New("no root task")
	ErrNoMethod = errors.New("compound task without a method")
	// ErrMethods: a compound task with more than MaxMethods methods.
	ErrMethods = errors.New("more than 256 methods")
	ErrEffect  = errors.New("effect writes something that is not a fact")
	// ErrConditionWrites: a condition script that assigns a fact ("hunger = 60",
	// most often = written for ==): it would change the state it tests.
	ErrConditionWrites = errors.New("condition assigns a fact (== compares)")
	// ErrEffectNoWrite: an effect statement that assigns nothing ("hunger == 0",
	// a comparison written for an assignment): it would change nothing.
	ErrEffectNoWrite = errors.New("effect statement assigns nothing (= assigns)")
	// ErrEffectFloat: an effect that assigns a Float expression to a fact
	// ("wood += 0.5"): facts are integers, and the value fails to convert when
	// the effect runs unless it is whole.
	ErrEffectFloat = errors.New("effect assigns a fractional number to a fact (facts are integers)")
	// ErrCycle: a method whose first subtask leads back to its own task (directly,
	// "X": [{"tasks": ["X"]}], or through the first subtasks of other methods). Nothing
	// runs before that subtask, so the planner meets the task again in the same state,
	// takes the same method and recurses until MaxDepth: the method can never give a
	// plan, and a root with no other method never plans (ErrDepth on every think).
	ErrCycle = errors.New("method recurses into its own task before any effect (left recursion)")
	// ErrSyntax: a domain file [Registry.LoadJSON] (or LoadFile) refuses, for its JSON
	// (a syntax error, a value of the wrong type, an unknown field, a key written twice,
	// content after the document) or for what it says (a task named twice, an operator or
	// sensor not registered, a script that does not compile, ...). Every such error wraps
	// it, beside the sentinel of the problem where there is one (ErrName, ErrTask, ...);
	// as bt.ErrSyntax, it tells a bad file from one that cannot be read.
	ErrSyntax = errors.New("syntax error")
)

// Builder declares a domain's facts and tasks; [Builder.Build] freezes them into a
// [Domain].
type Builder struct {
	name   string
	facts  []string
	tasks  []task
	root   TaskID
	sense  func(c *Context)
	schema *blackboard.Schema
	errs   []error
}

// NewBuilder starts the domain called name.
func NewBuilder(name string) *Builder {
	return &Builder{name: name, root: NoTask, schema: blackboard.NewSchema()}
}

// Fact declares the fact called name (or returns it if declared). More than MaxFacts is
// an error reported by Build.
func (b *Builder) Fact(name string) Fact {
	for i, f := range b.facts {
		if f == name {
			return Fact(i)
		}
	}
	if len(b.facts) == MaxFacts {
		b.errs = append(b.errs, fmt.Errorf("htn: domain %s: fact %s: %w (at most %d)", plan.Quote(b.name), plan.Quote(name), ErrFacts, MaxFacts))
		return MaxFacts - 1
	}
	if _, err := blackboard.Declare[int64](b.schema, name); err != nil {
		b.errs = append(b.errs, fmt.Errorf("htn: domain %s: fact %s: %w", plan.Quote(b.name), plan.Quote(name), err))
	}
	b.facts = append(b.facts, name)
	return Fact(len(b.facts) - 1)
}

// Primitive declares a primitive task and returns its ID.
func (b *Builder) Primitive(name string, p Primitive) TaskID {
	b.tasks = append(b.tasks, task{name: name, primitive: p})
	return TaskID(len(b.tasks) - 1)
}

// Compound declares a compound task; add its methods with [Builder.Method].
func (b *Builder) Compound(name string) TaskID {
	b.tasks = append(b.tasks, task{name: name, compound: true})
	return TaskID(len(b.tasks) - 1)
}

// Method adds a method to compound task t: methods are tried in the order added.
func (b *Builder) Method(t TaskID, m Method) {
	if t < 0 || int(t) >= len(b.tasks) || !b.tasks[t].compound {
		b.errs = append(b.errs, fmt.Errorf("htn: domain %s: method %s: %w %d (not a compound task)", plan.Quote(b.name), plan.Quote(m.Name), ErrTask, t))
		return
	}
	b.tasks[t].methods = append(b.tasks[t].methods, m)
}

// Root sets the task planning starts from.
func (b *Builder) Root(t TaskID) { b.root = t }

// Sense sets the hook [Domain.Tick] calls first on every think, to write the facts the
// agent perceives into Context.State.
func (b *Builder) Sense(fn func(c *Context)) { b.sense = fn }

// Script compiles src, a script of package ai/script over the facts declared so far
// (each an integer entry), into a condition (true when the script's value is). where
// prefixes errors (a file and path). It reads the facts whose names appear in src. A
// script that assigns a fact anywhere ("hunger = 60") is an error wrapping
// ErrConditionWrites; one whose value is a string ("'seen'") an error wrapping
// script.ErrType. A name that is not a fact declared so far ("hungy" for "hungry") is an
// error wrapping ErrFact (and script.ErrUnknownEntry) that lists the domain's facts;
// so it is in ScriptEffect and in domain files.
func (b *Builder) Script(src, where string) (Condition, error) {
	p, err := b.compile(src, where)
	if err != nil {
		return Condition{}, err
	}
	if p.Kind() == script.String {
		return Condition{}, fmt.Errorf("%s: %w: the script's value is a string, not a condition: %s", where, script.ErrType, plan.Quote(src))
	}
	if p.Writes() {
		return Condition{}, fmt.Errorf("%s: %w: %s", where, ErrConditionWrites, plan.Quote(src))
	}
	return Condition{prog: p, reads: b.mentions(src)}, nil
}

// ScriptEffect compiles src, a script of package ai/script whose assignments change
// facts ("ammo -= 1; inCover = true"), into an effect. where prefixes errors. A script
// that creates an entry with := that is not a fact is an error wrapping ErrEffect; one
// with a statement that assigns nothing ("hunger == 0") wraps ErrEffectNoWrite, and
// one that assigns a Float expression to a fact ("wood += 0.5") ErrEffectFloat; one
// that assigns or reads a name that is not a fact declared so far ("carryng = 1") wraps
// ErrFact, listing the domain's facts.
func (b *Builder) ScriptEffect(src, where string) (Effect, error) {
	p, err := b.compile(src, where)
	if err != nil {
		return Effect{}, err
	}
	if !p.AssignsOnly() {
		return Effect{}, fmt.Errorf("%s: %w: %s", where, ErrEffectNoWrite, plan.Quote(src))
	}
	if p.StoresFloatInInt() {
		return Effect{}, fmt.Errorf("%s: %w: %s", where, ErrEffectFloat, plan.Quote(src))
	}
	return Effect{prog: p, reads: b.mentions(src)}, nil
}

func (b *Builder) compile(src, where string) (*script.Program, error) {
	n := b.schema.Len()
	p, err := script.Compile(src, &script.Env{Schema: b.schema, Where: where})
	if err != nil {
		return nil, b.unknownFact(src, err)
	}
	if b.schema.Len() != n {
		return nil, fmt.Errorf("%s: %w: %s declares %s", where, ErrEffect, plan.Quote(src), plan.Quote(b.schema.Name(n)))
	}
	return p, nil
}

// unknownFact rewrites a script's unknown-entry error as an unknown fact of the domain,
// naming the facts it has: the script package's advice for an assignment, "use := to
// create it", is wrong here (an effect's := of a name that is not a fact is ErrEffect).
// The error still wraps script.ErrUnknownEntry, and ErrFact too. Other errors pass.
func (b *Builder) unknownFact(src string, err error) error {
	var se *script.Error
	if !errors.As(err, &se) || !errors.Is(se.Err, script.ErrUnknownEntry) || se.Offset >= len(src) {
		return err
	}
	end := se.Offset
	if src[end] == '@' {
		end++
	}
	for end < len(src) && (src[end] == '_' || '0' <= src[end] && src[end] <= '9' || 'a' <= src[end]|0x20 && src[end]|0x20 <= 'z') {
		end++
	}
	name := src[se.Offset:end]
	if name == "" || slices.Contains(b.facts, strings.TrimPrefix(name, "@")) {
		return err
	}
	facts := "none"
	if len(b.facts) > 0 {
		q := make([]string, len(b.facts))
		for i, f := range b.facts {
			q[i] = plan.Quote(f)
		}
		facts = strings.Join(q, ", ")
	}
	e := *se
	e.Msg = fmt.Sprintf("unknown fact %s (the domain's facts: %s): declare it among the facts before the script uses it", plan.Quote(name), facts)
	e.Err = fmt.Errorf("%w: %w", script.ErrUnknownEntry, ErrFact)
	return &e
}

// mentions returns the facts whose names occur as identifiers in src.
func (b *Builder) mentions(src string) uint64 {
	var m uint64
	isIdent := func(c byte) bool {
		return c == '_' || c == '@' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
	}
	for i, f := range b.facts {
		for at := 0; ; {
			k := strings.Index(src[at:], f)
			if k < 0 {
				break
			}
			k += at
			end := k + len(f)
			if (k == 0 || !isIdent(src[k-1]) || src[k-1] == '@') && (end == len(src) || !isIdent(src[end])) {
				m |= 1 << i
				break
			}
			at = k + 1
		}
	}
	return m
}

// Build validates the domain: a root task, task names not empty nor used twice, every
// compound task with a method and at most MaxMethods, subtasks and facts declared (those
// a Func or Do lists as read included), and
// no method recursing into its own task through first subtasks. The errors wrap
// ErrNoRoot, ErrName (a task name, or the domain's name empty or only white space: the
// domain's key in a [Registry] and in saved worlds), ErrNoMethod, ErrMethods, ErrTask, ErrFact, ErrFacts or ErrCycle
// (naming the tasks of the cycle).
func (b *Builder) Build() (*Domain, error) {
	errs := append([]error(nil), b.errs...)
	if strings.TrimSpace(b.name) == "" {
		errs = append(errs, fmt.Errorf("htn: domain %s: %w: the domain needs a name, its key in registries and saves", plan.Quote(b.name), ErrName))
	}
	if b.root < 0 || int(b.root) >= len(b.tasks) {
		errs = append(errs, fmt.Errorf("htn: domain %s: %w", plan.Quote(b.name), ErrNoRoot))
	}
	names := map[string]bool{}
	checkConds := func(what string, cs []Condition) {
		for i, c := range cs {
			if c.fn == nil && c.prog == nil && int(c.fact) >= len(b.facts) {
				errs = append(errs, fmt.Errorf("htn: domain %s: %s: condition %d: %w %d", plan.Quote(b.name), what, i, ErrFact, c.fact))
			}
			if c.fn != nil && unknownReads(c.reads, len(b.facts)) {
				errs = append(errs, fmt.Errorf("htn: domain %s: %s: condition %d: Func reads an %w (the domain has %d)", plan.Quote(b.name), what, i, ErrFact, len(b.facts)))
			}
		}
	}
	d := &Domain{name: b.name, facts: append([]string(nil), b.facts...), root: b.root, sense: b.sense, schema: b.schema}
	for i, t := range b.tasks {
		what := fmt.Sprintf("task %d %s", i, plan.Quote(t.name))
		if t.name == "" || names[t.name] {
			errs = append(errs, fmt.Errorf("htn: domain %s: %s: %w", plan.Quote(b.name), what, ErrName))
		}
		names[t.name] = true
		if t.compound {
			if len(t.methods) == 0 {
				errs = append(errs, fmt.Errorf("htn: domain %s: %s: %w", plan.Quote(b.name), what, ErrNoMethod))
			}
			if len(t.methods) > MaxMethods {
				errs = append(errs, fmt.Errorf("htn: domain %s: %s: %w (%d)", plan.Quote(b.name), what, ErrMethods, len(t.methods)))
			}
			for j, m := range t.methods {
				mw := fmt.Sprintf("%s method %d %s", what, j, plan.Quote(m.Name))
				checkConds(mw, m.If)
				for _, st := range m.Tasks {
					if st < 0 || int(st) >= len(b.tasks) {
						errs = append(errs, fmt.Errorf("htn: domain %s: %s: %w %d", plan.Quote(b.name), mw, ErrTask, st))
					}
				}
				t.methods[j].If = append([]Condition(nil), m.If...)
				t.methods[j].Tasks = append([]TaskID(nil), m.Tasks...)
			}
		} else {
			checkConds(what, t.primitive.If)
			checkConds(what+" while", t.primitive.While)
			for j, e := range t.primitive.Effects {
				if e.fn == nil && e.prog == nil && int(e.fact) >= len(b.facts) {
					errs = append(errs, fmt.Errorf("htn: domain %s: %s: effect %d: %w %d", plan.Quote(b.name), what, j, ErrFact, e.fact))
				}
				if e.fn != nil && unknownReads(e.reads, len(b.facts)) {
					errs = append(errs, fmt.Errorf("htn: domain %s: %s: effect %d: Do reads an %w (the domain has %d)", plan.Quote(b.name), what, j, ErrFact, len(b.facts)))
				}
			}
			for _, c := range t.primitive.If {
				t.reads |= c.reads
			}
		}
		d.tasks = append(d.tasks, t)
	}
	if len(b.tasks) > math.MaxInt16 {
		errs = append(errs, fmt.Errorf("htn: domain %s: more than %d tasks", plan.Quote(b.name), math.MaxInt16))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := leftCycle(d); err != nil {
		return nil, err
	}
	d.keys = make([]blackboard.Scalar, len(d.facts))
	for i, f := range d.facts {
		k, _, err := b.schema.Scalar(f)
		if err != nil {
			return nil, fmt.Errorf("htn: domain %s: fact %s: %w", plan.Quote(b.name), plan.Quote(f), err)
		}
		d.keys[i] = k
	}
	return d, nil
}

// maxCycleNames is the most task names an ErrCycle message lists: a longer cycle is
// named by its first and last tasks around the count of those left out.
const maxCycleNames = 8

// leftCycle returns an error wrapping ErrCycle for the first method (in task order)
// whose first subtask leads back to its own task through first subtasks, naming the
// cycle ("X → Y → X"; see maxCycleNames); nil if there is none.
func leftCycle(d *Domain) error {
	const (
		unseen = iota
		open
		done
	)
	state := make([]uint8, len(d.tasks))
	var path []TaskID
	var visit func(t TaskID) []TaskID
	visit = func(t TaskID) []TaskID {
		state[t] = open
		path = append(path, t)
		for _, m := range d.tasks[t].methods {
			if len(m.Tasks) == 0 || !d.tasks[m.Tasks[0]].compound {
				continue
			}
			u := m.Tasks[0]
			switch state[u] {
			case open:
				i := slices.Index(path, u)
				return append(append([]TaskID(nil), path[i:]...), u)
			case unseen:
				if c := visit(u); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[t] = done
		return nil
	}
	for t := range d.tasks {
		if !d.tasks[t].compound || state[t] != unseen {
			continue
		}
		if c := visit(TaskID(t)); c != nil {
			names := make([]string, len(c))
			for i, u := range c {
				names[i] = plan.Quote(d.tasks[u].name)
			}
			if len(names) > maxCycleNames { // a cycle through thousands of tasks: its ends
				names = slices.Concat(names[:maxCycleNames/2], []string{fmt.Sprintf("…(%d more)", len(names)-maxCycleNames+1)},
					names[len(names)-maxCycleNames/2+1:])
			}
			return fmt.Errorf("htn: domain %s: task %s: %w: %s", plan.Quote(d.name), plan.Quote(d.tasks[c[0]].name), ErrCycle, strings.Join(names, " → "))
		}
	}
	return nil
}

// Domain is a validated, immutable HTN domain, shared by every agent that plans with it
// and safe for concurrent use.
type Domain struct {
	name   string
	facts  []string
	tasks  []task
	root   TaskID
	sense  func(c *Context)
	schema *blackboard.Schema
	keys   []blackboard.Scalar // fact i's entry in the schema
}

// Name returns the domain's name.
func (d *Domain) Name() string { return d.name }

// Facts returns the number of facts.
func (d *Domain) Facts() int { return len(d.facts) }

// FactName returns the name of fact f, or "".
func (d *Domain) FactName(f Fact) string {
	if int(f) < len(d.facts) {
		return d.facts[f]
	}
	return ""
}

// FactIndex returns the fact called name and true, or false.
func (d *Domain) FactIndex(name string) (Fact, bool) {
	for i, f := range d.facts {
		if f == name {
			return Fact(i), true
		}
	}
	return 0, false
}

// TaskName returns the name of task t, or "" (NoTask, out of range).
func (d *Domain) TaskName(t TaskID) string {
	if t >= 0 && int(t) < len(d.tasks) {
		return d.tasks[t].name
	}
	return ""
}

// TaskIndex returns the task called name and true, or false.
func (d *Domain) TaskIndex(name string) (TaskID, bool) {
	for i := range d.tasks {
		if d.tasks[i].name == name {
			return TaskID(i), true
		}
	}
	return NoTask, false
}

// Root returns the root task.
func (d *Domain) Root() TaskID { return d.root }

// Schema returns the blackboard schema of the domain's scripts: one int64 entry per fact.
func (d *Domain) Schema() *blackboard.Schema { return d.schema }
