package goap

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/archai-go/archai/ai/internal/plan"
)

// MaxFacts is the number of facts a [State] holds.
const MaxFacts = 32

// MaxSteps is the longest plan, in actions.
const MaxSteps = 16

// MaxCost is the largest cost of an action: math.MaxFloat64 / MaxSteps, about 1.1e307,
// so the cost of a plan of at most MaxSteps actions never overflows to +Inf (with it,
// every dear plan cost +Inf alike and the planner could return a dearer one).
const MaxCost = math.MaxFloat64 / MaxSteps

// State is a world state: fact i's value at index i. Facts a domain does not declare
// stay 0.
type State [MaxFacts]int16

// Fact is the index of a fact in a [State].
type Fact uint8

// Op is a comparison of a [Cond].
type Op uint8

// Comparisons.
const (
	Eq Op = iota // fact == value
	Ne           // fact != value
	Lt           // fact < value
	Le           // fact <= value
	Gt           // fact > value
	Ge           // fact >= value
)

var opNames = [...]string{Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

// String returns the operator as written in Go ("==", ">=").
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Cond is a condition on one fact: State[Fact] Op Value.
type Cond struct {
	Fact  Fact
	Op    Op
	Value int16
}

// Holds reports whether c holds in s.
func (c Cond) Holds(s *State) bool { return c.holdsFor(s[c.Fact]) }

// holdsFor reports whether c holds when its fact has value v.
func (c Cond) holdsFor(v int16) bool {
	switch c.Op {
	case Eq:
		return v == c.Value
	case Ne:
		return v != c.Value
	case Lt:
		return v < c.Value
	case Le:
		return v <= c.Value
	case Gt:
		return v > c.Value
	case Ge:
		return v >= c.Value
	}
	return false
}

// Effect sets fact Fact to Value, or with Add adds Value to it (saturating at the
// int16 range).
type Effect struct {
	Fact  Fact
	Value int16
	Add   bool
}

// Apply applies e to s.
func (e Effect) Apply(s *State) {
	if !e.Add {
		s[e.Fact] = e.Value
		return
	}
	v := int32(s[e.Fact]) + int32(e.Value)
	s[e.Fact] = int16(min(max(v, math.MinInt16), math.MaxInt16))
}

// Status is what an [Operator] returns.
type Status uint8

// Statuses.
const (
	Running Status = iota // not done: called again next think
	Success               // done: the action's effects apply, the next step starts
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

// Operator carries out an action over one or more thinks. It may write the agent's
// components (through Context.Agent) and its believed State (a tool that breaks); it
// must not keep the Context.
type Operator func(c *Context) Status

// Context is what an [Operator] and a domain's Sense hook get.
type Context struct {
	Agent any     // the caller's view of the agent (systems.GOAP passes a *systems.Agent)
	State *State  // the agent's believed world state
	DT    float64 // seconds of simulation time since the agent last thought
	Time  float64 // simulation time, seconds
	Start float64 // simulation time the current step started, seconds
	Step  int     // index of the current step in the plan
	// Action is the current step's action; -1 in Sense.
	Action ActionID
	// Memory is the current step's scratch memory, zeroed when the step starts.
	Memory *[2]float64
	// Observe, if not nil, is called by Tick with every transition of the agent's Run
	// (see [Event]), in order, on the goroutine running Tick.
	Observe func(ev Event)
}

// ActionID indexes a domain's actions in the order they were added.
type ActionID int16

// GoalID indexes a domain's goals in the order they were added.
type GoalID int16

// NoGoal is the GoalID of no goal.
const NoGoal GoalID = -1

// Action is one thing an agent can do.
type Action struct {
	Name    string
	Cost    float64 // > 0 and at most MaxCost
	Pre     []Cond
	Effects []Effect
	Run     Operator // nil: the action succeeds at once
	// Halt, if not nil, is called when the action is abandoned while running (the plan
	// is replaced).
	Halt func(c *Context)
}

// Goal is a state an agent wants: every condition of Want holds.
type Goal struct {
	Name     string
	Priority float64 // higher first
	Want     []Cond
}

// Heuristic estimates the cost from s to a state where every condition of want holds.
// For the plan to be cheapest it must never overestimate.
type Heuristic func(d *Domain, s *State, want []Cond) float64

// ZeroHeuristic is h = 0: the search is Dijkstra's.
func ZeroHeuristic(*Domain, *State, []Cond) float64 { return 0 }

// Errors of [Builder.Build] (wrapped with the domain, action or goal name).
var (
	ErrFact   = errors.New("unknown fact")
	ErrCost   = errors.New("cost must be > 0 and at most MaxCost")
	ErrOp     = errors.New("unknown comparison")
	ErrName   = errors.New("name empty or used twice")
	ErrEmpty  = errors.New("nothing to plan with")
	ErrFacts  = errors.New("too many facts")
	ErrLength = errors.New("too many conditions or effects")
	// ErrNeverTrue: a goal's condition that no action's effect can make true (no
	// action writes its fact, or every action that does sets a value the condition
	// does not hold for and none adds to it). The planner could only ever find the
	// goal already holding: drop the condition or add an action that makes it true.
	ErrNeverTrue = errors.New("no action's effect can make it true")
	// ErrConflict: a goal's or an action's conditions on one fact that no value of the
	// fact meets together (y > 5 and y < 3, y == 4 and y != 4, y < -32768): the goal
	// can never hold, the action never start, and a search would only run out of steps.
	ErrConflict = errors.New("conditions that contradict each other")
	// ErrSensedUnread: a fact declared sensed ([Builder.Sensed]) that no goal's or
	// action's condition reads, named like one that a condition reads and that is not
	// declared sensed ("enemy_visbile" beside "enemy_visible"): a misspelling, in the
	// declaration or in the conditions. The declaration changes nothing (sensed facts
	// matter only to conditions), and the fact the conditions read is not sensed.
	ErrSensedUnread = errors.New("no goal's or action's condition reads it, so declaring it sensed changes nothing")
)

// conflict returns the first fact (in the order of cs) whose conditions in cs no int16
// value meets together, and true; or false. The ops and facts of cs must be valid.
func conflict(cs []Cond) (Fact, bool) {
	for i, c := range cs {
		lo, hi := int32(math.MinInt16), int32(math.MaxInt16)
		for _, o := range cs {
			if o.Fact != c.Fact {
				continue
			}
			v := int32(o.Value)
			switch o.Op {
			case Eq:
				lo, hi = max(lo, v), min(hi, v)
			case Lt:
				hi = min(hi, v-1)
			case Le:
				hi = min(hi, v)
			case Gt:
				lo = max(lo, v+1)
			case Ge:
				lo = max(lo, v)
			}
		}
		free := false // some value of lo..hi that no Ne excludes
		for v := lo; v <= hi && !free; v++ {
			free = true
			for _, o := range cs {
				if o.Fact == c.Fact && o.Op == Ne && int32(o.Value) == v {
					free = false
					break
				}
			}
		}
		if !free {
			return cs[i].Fact, true
		}
	}
	return 0, false
}

// canMake reports whether effect e can leave its fact at a value for which c
// holds: a set to such a value, or any add of a nonzero value (an add is not
// followed further: the answer errs towards true).
func (e Effect) canMake(c Cond) bool {
	if e.Add {
		return e.Value != 0
	}
	return c.holdsFor(e.Value)
}

// Builder declares a domain's facts, actions and goals; [Builder.Build] freezes them
// into a [Domain].
type Builder struct {
	name    string
	facts   []string
	actions []Action
	goals   []Goal
	h       Heuristic
	sense   func(c *Context)
	sensed  []Fact
	errs    []error
}

// NewBuilder starts the domain called name.
func NewBuilder(name string) *Builder { return &Builder{name: name} }

// Fact declares the fact called name (or returns it if declared) and returns its index.
// Declaring more than MaxFacts facts is an error reported by Build.
func (b *Builder) Fact(name string) Fact {
	for i, f := range b.facts {
		if f == name {
			return Fact(i)
		}
	}
	if len(b.facts) == MaxFacts {
		b.errs = append(b.errs, fmt.Errorf("goap: domain %s: fact %s: %w (at most %d)", plan.Quote(b.name), plan.Quote(name), ErrFacts, MaxFacts))
		return MaxFacts - 1
	}
	b.facts = append(b.facts, name)
	return Fact(len(b.facts) - 1)
}

// Action adds an action and returns its ID.
func (b *Builder) Action(a Action) ActionID {
	b.actions = append(b.actions, a)
	return ActionID(len(b.actions) - 1)
}

// Goal adds a goal and returns its ID.
func (b *Builder) Goal(g Goal) GoalID {
	b.goals = append(b.goals, g)
	return GoalID(len(b.goals) - 1)
}

// Heuristic sets the search's heuristic (nil: the default, see the package doc).
func (b *Builder) Heuristic(h Heuristic) { b.h = h }

// Sense sets the hook [Domain.Tick] calls first on every think, to write the facts the
// agent perceives into Context.State. It overwrites what the actions' effects wrote:
// an effect on a fact the hook writes lasts only until the next think's Sense. So the
// action's operator must change what the hook reads, not only the plan's copy: an Eat
// whose effect sets hungry to 0 must lower the agent's hunger (the component or value
// the hook turns into hungry), or the next Sense sets hungry to 1 again and the agent
// eats forever.
func (b *Builder) Sense(fn func(c *Context)) { b.sense = fn }

// Sensed declares facts as sensed: written by perception (the domain's Sense hook, or
// a system that writes the agent's state, such as components.GOAPPlanner.State)
// rather than, or besides, by the actions' effects, as F.E.A.R.'s sensors write the
// facts of its working memory: "enemy visible", "under fire". It changes no plan:
// from a state that lacks such a fact the planner still finds no plan
// ([ErrUnreachable]). It changes the diagnosis: a goal that can come to have a plan
// once sensed facts change waits for perception ([Domain.AwaitsPerception];
// [Domain.WhyNoPlan] says so), and systems.Diagnose does not count its agent as
// misconfigured, while a fact that no action's effect makes true and that is not
// declared sensed stays a fault of the domain. A goal condition still needs an action's
// effect that can make it true (Build's ErrNeverTrue): a plan is made of actions. So a
// goal on a sensed fact ("hungry == 0") does not wait for perception when none of the
// actions that could make it true can ever start: perception may make it hold, but no
// plan can.
// An action's effect on a sensed fact lasts only until the next Sense (see
// [Builder.Sense]): its operator must change what perception reads.
// Declaring a fact twice is harmless; a fact not declared with [Builder.Fact] is an
// error reported by Build (ErrFact). A sensed fact that no goal's or action's condition
// reads changes nothing; Build refuses one named like a fact that a condition reads and
// that is not declared sensed ("enemy_visbile" beside "enemy_visible", "Visible" beside
// "visible": one edit apart, ignoring case and separators), a misspelling in the
// declaration or in the conditions (ErrSensedUnread, naming both facts).
func (b *Builder) Sensed(facts ...Fact) { b.sensed = append(b.sensed, facts...) }

// Build validates the domain: at least one action and one goal, names not empty nor used twice,
// costs > 0 and at most MaxCost, facts declared, comparisons known, at most 255 conditions and
// effects per action, and no goal condition that no action's effect can make true (a
// fact no action writes, or one only set to values the condition does not hold for: the
// goal could never be planned for), and no goal or action whose conditions on one fact
// contradict each other (y > 5 and y < 3: ErrConflict); the domain's name, its key in a [Registry] and in
// saved worlds, must not be empty or only white space (ErrName). The errors wrap ErrEmpty, ErrName, ErrCost, ErrFact,
// ErrOp, ErrFacts, ErrLength, ErrConflict or ErrNeverTrue and name the action or goal (and for
// ErrNeverTrue the condition and its fact); a fact given to [Builder.Sensed] must be
// declared (ErrFact, naming it by index) and must not be a misspelling of a fact the
// conditions read (ErrSensedUnread: see [Builder.Sensed]).
func (b *Builder) Build() (*Domain, error) {
	errs := append([]error(nil), b.errs...)
	if strings.TrimSpace(b.name) == "" {
		errs = append(errs, fmt.Errorf("goap: domain %s: %w: the domain needs a name, its key in registries and saves", plan.Quote(b.name), ErrName))
	}
	if len(b.actions) == 0 {
		errs = append(errs, fmt.Errorf("goap: domain %s: %w: no action", plan.Quote(b.name), ErrEmpty))
	}
	if len(b.goals) == 0 {
		// nothing to plan for: Tick would find no plan at every think
		errs = append(errs, fmt.Errorf("goap: domain %s: %w: no goal", plan.Quote(b.name), ErrEmpty))
	}
	if len(b.actions) > math.MaxInt16 || len(b.goals) > math.MaxInt16 {
		errs = append(errs, fmt.Errorf("goap: domain %s: %w: more than %d actions or goals", plan.Quote(b.name), ErrLength, math.MaxInt16))
	}
	names := map[string]bool{}
	checkConds := func(what string, cs []Cond) {
		before := len(errs)
		if len(cs) > 255 {
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: %w", plan.Quote(b.name), what, ErrLength))
		}
		for i, c := range cs {
			if int(c.Fact) >= len(b.facts) {
				errs = append(errs, fmt.Errorf("goap: domain %s: %s: condition %d: %w %d", plan.Quote(b.name), what, i, ErrFact, c.Fact))
			}
			if int(c.Op) >= len(opNames) {
				errs = append(errs, fmt.Errorf("goap: domain %s: %s: condition %d: %w %d", plan.Quote(b.name), what, i, ErrOp, c.Op))
			}
		}
		if len(cs) > 255 || len(errs) > before {
			return // a condition out of range: checked once fixed
		}
		if f, ok := conflict(cs); ok {
			var list []string
			for _, c := range cs {
				if c.Fact == f {
					list = append(list, fmt.Sprintf("%s %s %d", b.facts[f], c.Op, c.Value))
				}
			}
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: conditions on %s cannot all hold: %s: %w",
				plan.Quote(b.name), what, b.facts[f], strings.Join(list, ", "), ErrConflict))
		}
	}
	d := &Domain{name: b.name, facts: append([]string(nil), b.facts...), h: b.h, sense: b.sense, minCost: math.Inf(1), maxEffects: 1}
	for _, f := range b.sensed {
		if int(f) >= len(b.facts) {
			errs = append(errs, fmt.Errorf("goap: domain %s: sensed fact %d: %w", plan.Quote(b.name), f, ErrFact))
			continue
		}
		d.sensed |= 1 << f
	}
	for i, a := range b.actions {
		what := fmt.Sprintf("action %d %s", i, plan.Quote(a.Name))
		if a.Name == "" || names["a:"+a.Name] {
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: %w", plan.Quote(b.name), what, ErrName))
		}
		names["a:"+a.Name] = true
		if !(a.Cost > 0) || a.Cost > MaxCost {
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: %w, not %v", plan.Quote(b.name), what, ErrCost, a.Cost))
		}
		checkConds(what, a.Pre)
		if len(a.Effects) > 255 {
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: %w", plan.Quote(b.name), what, ErrLength))
		}
		for j, e := range a.Effects {
			if int(e.Fact) >= len(b.facts) {
				errs = append(errs, fmt.Errorf("goap: domain %s: %s: effect %d: %w %d", plan.Quote(b.name), what, j, ErrFact, e.Fact))
			}
		}
		a.Pre = append([]Cond(nil), a.Pre...)
		a.Effects = append([]Effect(nil), a.Effects...)
		d.actions = append(d.actions, a)
		d.minCost = min(d.minCost, a.Cost)
		var writes uint32 // the facts a's effects write (MaxFacts <= 32), each once
		for _, e := range a.Effects {
			if int(e.Fact) < len(b.facts) {
				d.writers[e.Fact] = append(d.writers[e.Fact], writer{ActionID(i), e})
				writes |= 1 << e.Fact
				if c := d.factCost[e.Fact]; c == 0 || a.Cost < c {
					d.factCost[e.Fact] = a.Cost
				}
			}
		}
		d.maxEffects = max(d.maxEffects, bits.OnesCount32(writes))
	}
	for i, g := range b.goals {
		what := fmt.Sprintf("goal %d %s", i, plan.Quote(g.Name))
		if g.Name == "" || names["g:"+g.Name] {
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: %w", plan.Quote(b.name), what, ErrName))
		}
		names["g:"+g.Name] = true
		if math.IsNaN(g.Priority) {
			errs = append(errs, fmt.Errorf("goap: domain %s: %s: priority is NaN", plan.Quote(b.name), what))
		}
		checkConds(what, g.Want)
		for j, c := range g.Want {
			if int(c.Fact) >= len(b.facts) || int(c.Op) >= len(opNames) {
				continue // reported above
			}
			if !d.canMake(c) {
				errs = append(errs, fmt.Errorf("goap: domain %s: %s: condition %d (%s %s %d): %w: add an action with an effect that makes it true, or drop the condition",
					plan.Quote(b.name), what, j, b.facts[c.Fact], c.Op, c.Value, ErrNeverTrue))
			}
		}
		g.Want = append([]Cond(nil), g.Want...)
		d.goals = append(d.goals, g)
	}
	errs = append(errs, b.misspeltSensed(d)...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	// goals by priority, highest first; ties in the order added
	d.byPriority = make([]GoalID, len(d.goals))
	for i := range d.byPriority {
		d.byPriority[i] = GoalID(i)
	}
	for i := 1; i < len(d.byPriority); i++ { // insertion sort: stable
		for j := i; j > 0 && d.goals[d.byPriority[j]].Priority > d.goals[d.byPriority[j-1]].Priority; j-- {
			d.byPriority[j], d.byPriority[j-1] = d.byPriority[j-1], d.byPriority[j]
		}
	}
	return d, nil
}

// Domain is a validated, immutable set of facts, actions and goals, shared by every
// agent that plans with it and safe for concurrent use.
type Domain struct {
	name       string
	facts      []string
	actions    []Action
	goals      []Goal
	byPriority []GoalID
	h          Heuristic
	sense      func(c *Context)
	sensed     uint32 // bit f: fact f is sensed (Builder.Sensed)
	minCost    float64
	maxEffects int // the most distinct facts one action's effects write (at least 1)
	// factCost[f] is the cost of the cheapest action with an effect on fact f; 0 if no
	// action writes f.
	factCost [MaxFacts]float64
	// writers[f] are the effects on fact f, with their actions, in the order added
	// (reach.go).
	writers [MaxFacts][]writer
}

// The default heuristic keeps a set of facts in a uint32.
var _ [32 - MaxFacts]struct{}

// Name returns the domain's name.
func (d *Domain) Name() string { return d.name }

// Facts returns the number of facts declared.
func (d *Domain) Facts() int { return len(d.facts) }

// FactName returns the name of fact f, or "" if f is not declared.
func (d *Domain) FactName(f Fact) string {
	if int(f) < len(d.facts) {
		return d.facts[f]
	}
	return ""
}

// FactIndex returns the fact called name and true, or false if there is none.
func (d *Domain) FactIndex(name string) (Fact, bool) {
	for i, f := range d.facts {
		if f == name {
			return Fact(i), true
		}
	}
	return 0, false
}

// Sensed reports whether fact f was declared sensed ([Builder.Sensed]); false for a
// fact not declared.
func (d *Domain) Sensed(f Fact) bool { return f < MaxFacts && d.sensed>>f&1 != 0 }

// Actions returns the number of actions.
func (d *Domain) Actions() int { return len(d.actions) }

// Action returns action id (do not modify it).
func (d *Domain) Action(id ActionID) *Action { return &d.actions[id] }

// ActionName returns the name of action id, or "" if out of range.
func (d *Domain) ActionName(id ActionID) string {
	if id >= 0 && int(id) < len(d.actions) {
		return d.actions[id].Name
	}
	return ""
}

// Goals returns the number of goals.
func (d *Domain) Goals() int { return len(d.goals) }

// Goal returns goal id (do not modify it).
func (d *Domain) Goal(id GoalID) *Goal { return &d.goals[id] }

// GoalName returns the name of goal id, or "" if out of range (NoGoal).
func (d *Domain) GoalName(id GoalID) string {
	if id >= 0 && int(id) < len(d.goals) {
		return d.goals[id].Name
	}
	return ""
}

// Satisfied reports whether every condition of want holds in s.
func Satisfied(s *State, want []Cond) bool {
	for _, c := range want {
		if !c.Holds(s) {
			return false
		}
	}
	return true
}

// applicable reports whether action a's preconditions hold in s.
func (a *Action) applicable(s *State) bool { return Satisfied(s, a.Pre) }

// apply applies a's effects to s and reports whether s changed.
func (a *Action) apply(s *State) bool {
	changed := false
	for _, e := range a.Effects {
		before := s[e.Fact]
		e.Apply(s)
		changed = changed || s[e.Fact] != before
	}
	return changed
}

// heuristic returns the domain's estimate from s to want: the user's heuristic, or the
// default one (see the package doc).
func (d *Domain) heuristic(s *State, want []Cond) float64 {
	if d.h != nil {
		return d.h(d, s, want)
	}
	return d.defaultHeuristic(s, want)
}

// defaultHeuristic is h = max(minCost·⌈|F| / maxEffects⌉, max over f in F of
// factCost[f]), F the set of facts with a condition of want that does not hold in s.
// Every fact of F must be written by some action of any plan from s (a fact that no
// action writes keeps its value), so a plan holds at least ⌈|F| / maxEffects⌉ actions,
// each costing at least minCost, and one action writing f, costing at least
// factCost[f]. Both bounds are lower bounds of every plan's cost (admissible), and
// consistent: an action of cost c takes at most maxEffects facts out of F, and takes f
// out of F only if it writes f (so c >= factCost[f]). Conditions are counted by fact,
// not one by one: one effect can satisfy several conditions on its fact (weapon != 0
// and weapon >= 2), and counting them apart overestimates.
func (d *Domain) defaultHeuristic(s *State, want []Cond) float64 {
	var unsat uint32 // F
	dearest := 0.0
	for _, c := range want {
		if bit := uint32(1) << c.Fact; unsat&bit == 0 && !c.Holds(s) {
			unsat |= bit
			dearest = max(dearest, d.factCost[c.Fact])
		}
	}
	n := bits.OnesCount32(unsat)
	return max(d.minCost*float64((n+d.maxEffects-1)/d.maxEffects), dearest)
}

// ID names a domain in a [Registry]; 0 is no domain.
type ID uint16

// Registry holds domains by ID (from 1, in the order added) and name. Agents' components
// store the name (the truth, saved) and cache the ID; systems look the domain up here
// ([Registry.Resolve]). Add domains before agents use them; a
// Registry is safe for concurrent reads.
type Registry struct {
	domains plan.Registry[*Domain]
}

// Add adds d and returns its ID. It returns an error if d is nil, a domain of that name
// is already registered, or the registry is full.
func (r *Registry) Add(d *Domain) (ID, error) {
	id, err := r.domains.Add("goap", d)
	return ID(id), err
}

// Replace puts d in the place of the registered domain of d's name, keeping its ID, and
// returns the ID; a name not registered is added, as by [Registry.Add]. It returns an
// error if d is nil or, adding, the registry is full. This is a hot reload of a domain
// rebuilt from edited data: at an agent's next think, systems.GOAP halts a plan made by
// the replaced domain with that domain (its running action's Halt runs) and plans
// afresh with d, as when an agent's domain is swapped by name; action IDs of the old
// plan never index d.
//
// Important: the replaced domain stays referenced by r for r's life (agents' components
// may cache it until they think again), so each replacement keeps one more domain in
// memory. Not safe during concurrent reads: call it between frames.
func (r *Registry) Replace(d *Domain) (ID, error) {
	id, _, err := r.domains.Replace("goap", d)
	return ID(id), err
}

// Domain returns the domain of id, or nil if there is none.
func (r *Registry) Domain(id ID) *Domain {
	return r.shared().Domain(uint16(id))
}

// Lookup returns the ID of the domain called name, or 0 and false.
func (r *Registry) Lookup(name string) (ID, bool) {
	id, ok := r.shared().Lookup(name)
	return ID(id), ok
}

// shared returns r's domains, nil for a nil r.
func (r *Registry) shared() *plan.Registry[*Domain] {
	if r == nil {
		return nil
	}
	return &r.domains
}
