package utility

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/archai-go/archai/ai/blackboard"
)

// None is the choice of a decision in which no action scored above 0 (every action was
// vetoed), and the choice of a [State] before its first decision.
const None = -1

// NotEvaluated marks, in [State.Considerations], a consideration that an earlier zero
// score vetoed before it was evaluated.
const NotEvaluated = -1.0

// Source is a random source in [0, 1), such as an agent's seeded *steer.Rand, so that a
// run replays from its seed. Random policies without a Source fall back to [Argmax].
type Source interface {
	Float64() float64
}

// Fact adapts a typed input function to the agent-agnostic form a [Consideration]
// takes: the returned function calls f when the agent is an *A and returns NaN (which
// scores 0) for any other agent, so a wrongly wired agent vetoes instead of panicking.
// That NaN is marked: a [Reasoner] counts it in [State].Unread, so the veto is seen
// (systems.Diagnose reports the agents whose State has Unread > 0, in a
// components.UtilityBrain or in a component of the program's own). The Utility system
// of package systems passes a *systems.Agent: write Fact(func(a *systems.Agent)
// float64 {...}), not Fact(func(p *components.Position) float64 {...}), which never
// reads.
func Fact[A any](f func(*A) float64) func(agent any) float64 {
	return func(agent any) float64 {
		a, ok := agent.(*A)
		if !ok || a == nil {
			return unread
		}
		return f(a)
	}
}

// unread is the NaN an Input returns when it cannot read the agent at all (a [Fact] of
// another type, a [KeyInput] given an agent that is not a [BlackboardAgent]): a quiet
// NaN with a payload of its own, which [Reasoner.Score] counts in State.Unread. It
// scores 0 like any NaN.
var unread = math.Float64frombits(unreadBits)

const unreadBits = 0x7FF8_0000_0000_FAC7

// unset is the NaN a [KeyInput] returns for a key the agent's store holds no value
// for: a designer's veto, not counted in [State].NaNInputs. It scores 0 like any NaN.
var unset = math.Float64frombits(unsetBits)

const unsetBits = 0x7FF8_0000_0000_FAC9

// noStore is the NaN a [KeyInput] returns for an agent without a blackboard store of
// its key's schema, which [Reasoner.Score] counts in State.NoBlackboard. It scores 0
// like any NaN.
var noStore = math.Float64frombits(noStoreBits)

const noStoreBits = 0x7FF8_0000_0000_FAC8

// Consideration scores one concern of an action: a fact read from the agent, normalised
// by a [Range], then shaped by a response [Curve]:
//
//	score = Curve.Eval(Range.Normalize(Input(agent)))   in [0, 1]
//
// Important: an Input that returns NaN (0/0 from an empty stockpile, a NaN field,
// math.Log of a negative) scores 0, whatever its Range and Curve: a veto in a product
// ([Compensated], [Product]) and in a [WeightedSum] with Veto; without Veto it adds 0
// to the mean. Such inputs are counted in [State].NaNInputs at each scoring, and
// systems.Diagnose reports them (utility_input_nan), naming the reasoner, the action
// and the consideration: make the Input return a number in that case (if
// s.People == 0 { return 0 }), and to veto on purpose, return a value its Range and
// Curve score 0. An Input returning ±Inf is not broken: under a Range it clamps like
// any fact (+Inf to Max's end), under the zero Range it counts in [State].Clamped.
// Important: the zero Range means the fact is already normalised and is only clamped
// to [0, 1]; set Range to normalise a raw fact. An input outside [0, 1] under the zero
// Range is counted in [State].Clamped (a raw fact such as a hunger of 0–100 saturates
// at 1 and every decision sees the same score); Range [Unit] clamps without counting.
type Consideration struct {
	Name string
	// Input reads the raw fact from the agent, the value passed to [Reasoner.Decide]
	// (e.g. a *systems.Agent). It must not be nil; see [Fact] for a typed adapter.
	Input func(agent any) float64
	Range Range
	Curve Curve
	// Weight is the consideration's weight in a [WeightedSum]; 0 counts as 1. Product
	// combinations ignore it.
	Weight float64
	// Veto makes a zero score veto the action in a [WeightedSum] too (products always
	// veto on a zero score).
	Veto bool
}

// Score returns the consideration's score for agent, in [0, 1]; 0 without an Input.
func (c *Consideration) Score(agent any) float64 {
	var n inputCounts
	s, _ := c.score(agent, &n, 0)
	return s
}

// inputCounts are a [State]'s counts of faulty inputs: Unread, NoBlackboard and
// Clamped since the State was made, and NaNInputs and NaNInput of one scoring.
type inputCounts struct {
	unread, noStore, clamped uint64
	nan                      uint32 // NaN inputs of the program's own
	nanAt                    int    // the first one's index in State.Considerations
}

// clampSlack is how far outside [0, 1] an input under the zero Range may fall, by
// rounding, before it counts in State.Clamped.
const clampSlack = 1e-9

// score is Score, adding 1 to n.unread if the input could not read the agent, to
// n.noStore if a KeyInput found no store of its schema, to n.nan for any other NaN
// but a KeyInput's unset key (noting k, the consideration's index in
// State.Considerations, if it is the scoring's first), and to n.clamped if the zero
// Range got a finite or infinite input outside [0, 1] (by more than clampSlack); raw
// is the input it read (NaN without an Input), for a [Trace].
func (c *Consideration) score(agent any, n *inputCounts, k int) (s, raw float64) {
	if c.Input == nil {
		return 0, math.NaN()
	}
	x := c.Input(agent)
	raw = x
	if x != x {
		switch math.Float64bits(x) {
		case unreadBits:
			n.unread++
		case noStoreBits:
			n.noStore++
		case unsetBits:
		default:
			if n.nan == 0 {
				n.nanAt = k
			}
			n.nan++
		}
	}
	if c.Range != (Range{}) {
		x = c.Range.Normalize(x)
	} else if x < -clampSlack || x > 1+clampSlack {
		n.clamped++
	}
	return c.Curve.Eval(x), raw
}

// Combine is how an action combines its considerations' scores.
type Combine uint8

// Combinations.
const (
	// Compensated is the product of the scores, each first raised by the compensation
	// factor for n considerations (the zero Combine, and the usual choice):
	//
	//	s' = s + s·(1 − s)·(1 − 1/n)        score = s'₁ · s'₂ · … · s'ₙ
	//
	// A plain product sinks as considerations are added (eight scores of 0.9 multiply
	// to 0.43), so an action with many concerns loses to one with few. The factor makes
	// up part of each score's shortfall in proportion to how many there are. This is the
	// per-consideration "make-up value" form of Dave Mark's compensation factor (Mark &
	// Dill, "Improving AI Decision Modeling Through Utility Theory", GDC AI Summit 2010;
	// Mark, "Building a Better Centaur", GDC 2015; discussed by Lewis, Game AI Pro 3
	// ch. 13). We use it rather than the geometric mean (ⁿ√∏s, which would make any n
	// equal scores s score exactly s) because it leaves one consideration and the
	// scores 0 and 1 unchanged, keeps the result in [0, 1], and still lets many
	// middling concerns count against an action. A zero score vetoes: the remaining
	// considerations are not evaluated.
	Compensated Combine = iota
	// Product is the plain product of the scores; a zero score vetoes.
	Product
	// WeightedSum is the weighted mean Σ wᵢ·sᵢ / Σ wᵢ, in [0, 1]; a zero score vetoes
	// only if its consideration has Veto set.
	WeightedSum
	numCombines
)

var combineNames = [numCombines]string{"Compensated", "Product", "WeightedSum"}

// String returns the combination's name.
func (c Combine) String() string {
	if c < numCombines {
		return combineNames[c]
	}
	return "Combine(" + strconv.Itoa(int(c)) + ")"
}

// Compensate returns score s of one of n considerations raised by the compensation
// factor (see [Compensated]): s + s·(1 − s)·(1 − 1/n). n ≤ 1 returns s.
func Compensate(s float64, n int) float64 {
	if n <= 1 {
		return s
	}
	return s + float64(s*(1-s)*(1-1/float64(n))) // rounded: no multiply-add on any build
}

// Action is one option a [Reasoner] may choose:
//
//	score = Weight × Combine(considerations)
//
// An action without considerations scores Weight: a constant default (idle) option.
type Action struct {
	Name string
	// Weight scales the action's score; it must be finite and >= 0. Mark's Infinite Axis
	// Utility System uses weights 1, 2, 3… as priority tiers. The zero Weight counts
	// as 1; use a Consideration to switch an action off.
	Weight         float64
	Combine        Combine
	Considerations []Consideration
	// Act is optional: the caller of the decision (e.g. systems.Utility) calls it for the
	// chosen action after each decision, to write the agent's intent. Under
	// systems.Utility, agent is a *systems.Agent (systems.UtilityAgent), whose DT is
	// the seconds since the agent's last decision: an action that changes a need at
	// a rate multiplies by it.
	Act func(agent any)
}

// PolicyKind selects how a [Reasoner] picks among the scored actions.
type PolicyKind uint8

// Policies.
const (
	// Argmax picks the highest score; ties go to the current choice, then to the
	// lowest index. The zero PolicyKind.
	Argmax PolicyKind = iota
	// Softmax picks action i with probability e^(vᵢ/T) / Σⱼ e^(vⱼ/T), among the actions
	// scoring above 0, with temperature T: small T is nearly Argmax, large T nearly
	// uniform. T = 0 is Argmax.
	Softmax
	// TopN picks among the N best actions (scoring above 0; ties by lower index) with
	// probability proportional to score: Mark's weighted random selection (Behavioral
	// Mathematics for Game AI), cut to the best N. Dual-utility reasoning (K. Dill, Game
	// AI Pro 2, ch. 3, 2015) draws the same way, but among the options of the highest
	// rank, a second number per option this package does not have. N = 0 means all.
	TopN
	numPolicies
)

var policyNames = [numPolicies]string{"Argmax", "Softmax", "TopN"}

// String returns the policy kind's name.
func (k PolicyKind) String() string {
	if k < numPolicies {
		return policyNames[k]
	}
	return "PolicyKind(" + strconv.Itoa(int(k)) + ")"
}

// Policy is how a [Reasoner] selects an action from the scores. The zero Policy is
// Argmax without hysteresis.
//
// Important: without hysteresis a choice between two actions whose scores cross and
// cross again (eat until hunger falls just below work's score, walk off, get hungry
// again) goes back and forth within a second: counted in [State].Flips and
// [State].FlipFlops, reported by systems.Diagnose as utility_flip_flop. Give such a
// reasoner a hysteresis of 0.1 to 0.2 (Policy{}.WithHysteresis(0.15)). The zero
// Policy keeps none, so that a zero value means 0, as everywhere.
//
// Hysteresis (momentum, commitment) multiplies the current choice's score by
// (1 + Hysteresis) during selection only, so a challenger must beat it by that margin to
// take over: with 0.1, a current action scoring 0.50 holds against 0.54 and yields to
// 0.56. The bonus is a factor, not an addend, so a vetoed (0) current action never
// holds. It applies to every kind.
//
// Hysteresis is a fraction, in [0, [MaxHysteresis]] (0 to 1): 0.15 is a 15% margin. [New]
// refuses a value above 1, most often a percentage (15 for 15%, which let the current
// choice hold against any challenger scoring up to 16 times as much: every agent kept
// its first action for good), with an error naming the field, the value and the
// fraction it may have meant.
type Policy struct {
	Kind        PolicyKind
	Hysteresis  float64 // in [0, MaxHysteresis]; fraction of the current choice's score added during selection
	Temperature float64 // Softmax: >= 0, in score units
	N           int     // TopN: >= 0
}

// MaxHysteresis is the largest [Policy].Hysteresis [New] accepts: 1, a challenger must
// score twice the current choice to take over. Hysteresis is a fraction, not a
// percentage: 0.15 for 15%.
const MaxHysteresis = 1.0

// WithHysteresis returns p with Hysteresis set to h, a fraction in [0, [MaxHysteresis]]
// (0.15 for a 15% margin, not 15); [New] refuses any other value.
func (p Policy) WithHysteresis(h float64) Policy { p.Hysteresis = h; return p }

// SoftmaxPolicy returns a Softmax policy with temperature t.
func SoftmaxPolicy(t float64) Policy { return Policy{Kind: Softmax, Temperature: t} }

// TopNPolicy returns a TopN policy over the n best actions.
func TopNPolicy(n int) Policy { return Policy{Kind: TopN, N: n} }

// State is one agent's utility state: its current choice and every score of the last
// decision, for debugging. It is plain data, kept in the agent's component; make it with
// [Reasoner.NewState]. The zero State also works: the first decision sizes it (one
// allocation).
type State struct {
	// Choice is the index of the chosen action, or None.
	Choice int
	// Previous is Choice before the last decision; Choice != Previous means it changed.
	Previous int
	// Scores holds each action's score in the last decision (Weight × combined
	// considerations, in declaration order), before any hysteresis bonus.
	Scores []float64
	// Considerations holds each consideration's score in the last decision, action after
	// action in declaration order, or NotEvaluated where a veto skipped it. See
	// [Reasoner.ConsiderationScores].
	Considerations []float64
	// Decisions counts the decisions made.
	Decisions uint64
	// Unread counts the consideration inputs, since the State was made, that could not
	// read the agent: a [Fact] given an agent that is not an *A (a consideration wired
	// to the wrong type), a [KeyInput] given one that is not a [BlackboardAgent]. Each
	// scored 0, a veto in a product, like any NaN input; a correct setup keeps Unread at
	// 0. It is a diagnostic, not state: not saved (json "-") nor hashed.
	Unread uint64 `json:"-"`
	// NoBlackboard counts the [KeyInput] inputs, since the State was made, given an
	// agent without a blackboard store of the key's schema (no store, or another
	// schema's: the agent lacks the Blackboard the reasoner reads). Each scored 0, a
	// veto in a product; systems.Diagnose counts such agents (CauseBlackboardMissing),
	// whether the State is a UtilityBrain's or kept in a component of the program's
	// own (a field, not behind a pointer: see systems.CauseUtilityFactWrongType).
	// A diagnostic like Unread: not saved (json "-") nor hashed.
	NoBlackboard uint64 `json:"-"`
	// Clamped counts the consideration inputs, since the State was made, that fell
	// outside [0, 1] (by more than 1e-9, ±Inf included, NaN not) under the zero
	// [Range], which takes its fact as normalised already: most often a raw fact (a
	// hunger of 0–100, a distance in cells) whose Range was forgotten, so it saturates
	// and the consideration scores the same whatever the fact. Set the Range that
	// normalises it, or Range [Unit] to clamp knowingly (not counted). A diagnostic
	// like Unread: not saved (json "-") nor hashed.
	Clamped uint64 `json:"-"`
	// Flips counts the last changes of Choice in a row that each went back to the
	// action the change before it left, within [FlipWindow] seconds of simulation time
	// of it: a choice going back and forth between two actions (A→B→A→B→A: 3). A
	// change to a third action, a change back more than FlipWindow after the last
	// change, a decision FlipWindow after it without a change, or a decision at a
	// time before the last change's (a clock set back) or at a NaN time set it to 0.
	// A diagnostic like Unread: not saved (json "-") nor hashed, so a loaded State
	// counts from 0, and so are FlipFlops, FlipActions and FlipTime.
	Flips uint32 `json:"-"`
	// FlipFlops counts the changes of Choice, since the State was made, that were
	// flip-flops: a change that brings Flips to [FlipLimit] or more, made within
	// FlipWindow seconds of the change FlipLimit changes before it. That is
	// FlipLimit+1 (5) changes back and forth between the same two actions within
	// FlipWindow (2 s) of simulation time: a choice turning back every 0.5 s or
	// faster, as when two actions' scores cross and cross again, or a consideration
	// jumps at a threshold its input hovers about. A defender that kills a target,
	// guards and shoots the next one every second or more slowly makes no
	// flip-flop. FlipActions holds the two actions of the last flip-flop (the action
	// left and the action chosen) and FlipTime its simulation time in seconds (the
	// time given to [Reasoner.DecideAt]; see [Reasoner.Decide] without one).
	// systems.Diagnose reports a State that is flip-flopping now ([State.FlipFlopping]),
	// not one that did once: FlipFlops is a count for debugging.
	FlipFlops   uint64  `json:"-"`
	FlipActions [2]int  `json:"-"`
	FlipTime    float64 `json:"-"`
	// NaNInputs counts the consideration inputs of the last scoring (Decide, Score) that
	// were NaN: an Input of the program's own returning NaN (0/0 from an empty
	// stockpile, a NaN field), which scores 0 and vetoes its action in a product (see
	// [Consideration]). Not counted here: the NaNs counted in Unread and NoBlackboard,
	// and a [KeyInput] of a key not set (a designer's veto). A consideration a veto
	// skipped was not evaluated, so is not counted. NaNInput is the index, in
	// Considerations, of the first of them ([Reasoner.Locate] names its action and
	// consideration), meaningful while NaNInputs > 0. systems.Diagnose reports a State
	// with NaNInputs > 0 (utility_input_nan). Counted per scoring, not since the State
	// was made: a NaN of a moment (a store empty for one think) is reported while it
	// lasts. A diagnostic like Unread: not saved (json "-") nor hashed.
	NaNInputs uint32 `json:"-"`
	NaNInput  int    `json:"-"`
	// Trace, when not nil, asks the reasoner to record the raw input of every
	// consideration it evaluates for this State (see [Trace]): a debugger (the debug
	// viewer) sets it for the one agent it shows. No decision reads it; nil (the
	// usual case) costs one test per consideration. Not saved (json "-") nor hashed.
	Trace *Trace `json:"-"`

	// left is the action the last change of Choice left, plus 1 (0: None), and
	// changes[at] the time of that change, changes the times of the last
	// FlipLimit+1 changes (a ring): what Flips and FlipFlops are counted from.
	// decided is the time of the last decision.
	left    int                    `json:"-"`
	at      int                    `json:"-"`
	changes [FlipLimit + 1]float64 `json:"-"`
	decided float64                `json:"-"`

	// reasoner is the Reasoner of the last scoring (nil for a State made with
	// NewState, by hand or loaded from a file, which the first reasoner to score it
	// adopts): one of another Reasoner starts afresh (see [Reasoner.Score]).
	reasoner *Reasoner `json:"-"`
}

// Trace is what a [Reasoner] records, when asked through [State].Trace, of the
// inputs of one agent's last scoring: the values it actually used, which the State
// alone does not keep (it keeps each consideration's curve output in
// State.Considerations). Recording allocates once, when Inputs does not fit the
// reasoner.
//
// Important: a Trace belongs to one State. A State copied with its Trace (a
// template agent's component copied to others) makes every copy record into it; with
// several workers that is a data race on the Trace (never on the decisions, which do
// not read it): set Trace to nil in copies.
type Trace struct {
	// Inputs holds each consideration's raw input (what its Input function returned,
	// before its Range) in the last scoring, in the order of State.Considerations:
	// NaN where a veto skipped the consideration (State.Considerations holds
	// NotEvaluated there) or the input was NaN.
	Inputs []float64
	// Scorings counts the scorings recorded (Decide, Score) since the Trace was set;
	// 0 means Inputs holds nothing yet.
	Scorings uint64
	// Reasoner is the reasoner of the last scoring recorded (nil before the first):
	// it tells a debugger which reasoner a State belongs to where nothing else does
	// (a State that a hybrid.UtilitySelector node reaches through its state function).
	Reasoner *Reasoner
}

// Reasoner chooses among actions by utility. It is built once with [New], immutable
// and shared by every agent that uses it; each agent keeps a [State]. A Reasoner is safe
// for concurrent Decide calls on distinct States and Sources (inputs must be too).
type Reasoner struct {
	name    string
	policy  Policy
	actions []Action
	offsets []int // first consideration of each action in State.Considerations
	ncons   int

	keysOnce sync.Once          // Keys
	keys     []blackboard.Entry // the keys its KeyInputs read, learnt by Keys
}

// Errors returned (wrapped, with the reasoner, action and consideration) by [New].
var (
	ErrNoActions   = errors.New("no actions")
	ErrNilInput    = errors.New("consideration without Input")
	ErrBadWeight   = errors.New("weight must be finite and >= 0")
	ErrBadCombine  = errors.New("unknown Combine")
	ErrBadCurve    = errors.New("unknown curve kind")
	ErrBadParam    = errors.New("curve and range parameters must be finite")
	ErrCurveZero   = errors.New("curve scores 0 at every input in [0, 1]")
	ErrBadPolicy   = errors.New("bad policy")
	ErrTooManyOpts = errors.New("too many actions")
	ErrName        = errors.New("reasoner name empty or blank")
)

// MaxActions is the largest number of actions a Reasoner may have.
const MaxActions = 1 << 16

// New validates the actions and builds a Reasoner; it copies the actions. It returns an
// error wrapping ErrName (name empty or only white space: it is the reasoner's key in
// saved worlds, where components.UtilityBrain.ID "" means no reasoner, and in
// diagnostics), ErrNoActions, ErrNilInput, ErrBadWeight (an action's or
// consideration's weight NaN, ±Inf or negative; the consideration weights of a
// WeightedSum adding up to more than math.MaxFloat64; for Softmax and TopN, the actions'
// weights × (1 + Hysteresis) adding up to more than math.MaxFloat64, as those policies
// sum them), ErrBadCombine, ErrBadCurve, ErrBadParam (a consideration's Curve
// parameter M, K, B or C, or a bound of its Range, NaN or ±Inf, for every curve kind:
// see [Curve]), ErrCurveZero (a consideration whose zero score vetoes its action, in a
// Compensated or Product action or with Veto in a WeightedSum, and whose Curve scores 0
// at every input in [0, 1], as Linear(1, -2) does: the action could never be chosen;
// a Sine curve is not checked), ErrBadPolicy (unknown kind; Hysteresis NaN,
// negative or above [MaxHysteresis], as 15 meant as 15%; Temperature NaN, Inf or negative;
// N < 0: the message names the field, its value and the values allowed), ErrActionName
// (an action's Name empty or blank, or an earlier action's, as [Registry.LoadJSON]
// refuses them) or ErrTooManyOpts. It never panics.
func New(name string, policy Policy, actions ...Action) (*Reasoner, error) {
	r, _, err := build(name, policy, actions)
	return r, err
}

// place is where an error of [New] is: the index of the action and of its
// consideration it names, -1 for none, and for an error of the policy the JSON key of
// its field ("hysteresis"); a file loader turns it into a line and column.
type place struct {
	action, consideration int
	policy                string
}

// build is [New], also returning the place of its error.
func build(name string, policy Policy, actions []Action) (_ *Reasoner, where place, _ error) {
	where = place{-1, -1, ""}
	fail := func(err error) (*Reasoner, place, error) {
		return nil, where, fmt.Errorf("utility: reasoner %q: %w", name, err)
	}
	if strings.TrimSpace(name) == "" {
		return fail(ErrName)
	}
	if len(actions) == 0 {
		return fail(ErrNoActions)
	}
	if len(actions) > MaxActions {
		return fail(ErrTooManyOpts)
	}
	if field, err := policy.check(); err != nil {
		where.policy = field
		return fail(err)
	}
	r := &Reasoner{name: name, policy: policy, actions: make([]Action, len(actions)),
		offsets: make([]int, len(actions))}
	var values float64 // Σ Weight·(1 + Hysteresis): what Softmax and TopN may sum
	names := make(map[string]int, len(actions))
	for i, a := range actions {
		at := func(err error) (*Reasoner, place, error) {
			where.action = i
			return fail(fmt.Errorf("action %d (%q): %w", i, a.Name, err))
		}
		if strings.TrimSpace(a.Name) == "" {
			return at(fmt.Errorf("%w: give each action a name (ActionName, diagnostics, the debug view and saves tell actions apart by it)", ErrActionName))
		}
		if j, ok := names[a.Name]; ok {
			return at(fmt.Errorf("%w: action %d has the same name", ErrActionName, j))
		}
		names[a.Name] = i
		if !nonNegative(a.Weight) {
			return at(fmt.Errorf("%w, got %v", ErrBadWeight, a.Weight))
		}
		if a.Combine >= numCombines {
			return at(ErrBadCombine)
		}
		if policy.Kind != Argmax {
			values += float64(orOne(a.Weight) * (1 + policy.Hysteresis))
			if math.IsInf(values, 1) {
				return at(fmt.Errorf("%w: the actions' weights × (1 + Hysteresis) add up to more than %g, "+
					"which %v cannot sum", ErrBadWeight, math.MaxFloat64, policy.Kind))
			}
		}
		a.Considerations = append([]Consideration(nil), a.Considerations...)
		var weights float64
		for j, c := range a.Considerations {
			var err error
			switch {
			case c.Input == nil:
				err = ErrNilInput
			case !nonNegative(c.Weight):
				err = fmt.Errorf("%w, got %v", ErrBadWeight, c.Weight)
			case c.Curve.Kind >= numCurveKinds:
				err = ErrBadCurve
			default:
				err = c.checkParams()
				if err == nil && (a.Combine != WeightedSum || c.Veto) {
					err = c.Curve.checkScores()
				}
			}
			if err != nil {
				where.consideration = j
				return at(fmt.Errorf("consideration %d (%q): %w", j, c.Name, err))
			}
			if weights += orOne(c.Weight); a.Combine == WeightedSum && math.IsInf(weights, 1) {
				where.consideration = j
				return at(fmt.Errorf("consideration %d (%q): %w: the weights of a WeightedSum add up to more than %g",
					j, c.Name, ErrBadWeight, math.MaxFloat64))
			}
		}
		r.actions[i] = a
		r.offsets[i] = r.ncons
		r.ncons += len(a.Considerations)
	}
	return r, where, nil
}

// Name returns the name given to [New].
func (r *Reasoner) Name() string { return r.name }

// Policy returns the selection policy.
func (r *Reasoner) Policy() Policy { return r.policy }

// Len returns the number of actions.
func (r *Reasoner) Len() int { return len(r.actions) }

// ActionName returns the name of action i, "None" for [None], or "" out of range.
func (r *Reasoner) ActionName(i int) string {
	if i == None {
		return "None"
	}
	if i < 0 || i >= len(r.actions) {
		return ""
	}
	return r.actions[i].Name
}

// Action returns a copy of action i (its Considerations slice is shared: do not change
// it), and false if i is out of range.
func (r *Reasoner) Action(i int) (Action, bool) {
	if i < 0 || i >= len(r.actions) {
		return Action{}, false
	}
	return r.actions[i], true
}

// Locate returns the action, and the consideration within it, of the k-th consideration
// in [State].Considerations (as [State].NaNInput numbers them), and false if k is out
// of range.
func (r *Reasoner) Locate(k int) (action, consideration int, ok bool) {
	if k < 0 || k >= r.ncons {
		return None, -1, false
	}
	for i := len(r.offsets) - 1; i >= 0; i-- { // the last action starting at or before k (an action may have none)
		if r.offsets[i] <= k && k < r.offsets[i]+len(r.actions[i].Considerations) {
			return i, k - r.offsets[i], true
		}
	}
	return None, -1, false // (unreachable)
}

// Reasoner returns the reasoner that last scored s (Score or Decide), or nil if none
// has since s was made (NewState, by hand, loaded from a file): the reasoner whose
// Choice, Scores and Considerations s holds. It tells a debugger which reasoner a
// State belongs to where nothing else does (a State that a hybrid.UtilitySelector
// node reaches through its state function), before any [Trace] was set.
func (s *State) Reasoner() *Reasoner { return s.reasoner }

// NewState allocates one agent's state for r, with Choice and Previous None.
func (r *Reasoner) NewState() State {
	return State{Choice: None, Previous: None, Scores: make([]float64, len(r.actions)),
		Considerations: make([]float64, r.ncons)}
}

// ConsiderationScores returns the scores of action i's considerations in s's last
// decision, aliasing s (nil if i is out of range or s is not sized for r).
func (r *Reasoner) ConsiderationScores(s *State, i int) []float64 {
	if i < 0 || i >= len(r.actions) || len(s.Considerations) != r.ncons {
		return nil
	}
	off := r.offsets[i]
	return s.Considerations[off : off+len(r.actions[i].Considerations)]
}

// Score evaluates every action for agent and stores the scores in s (see [State])
// without choosing. A State not sized for r (the zero State) is resized and its choice
// reset to None; so is a State last scored by another Reasoner, even one of the same
// shape (UtilityBrain.Reasoner swapped, one State handed to two reasoners), so the old
// reasoner's choice never gets the hysteresis bonus under the new reasoner nor counts
// as its Previous. Its Decisions and input counts start from 0 again; its Trace is
// kept. A State sized for r that no reasoner has scored since it was made (NewState,
// by hand, loaded from a file) is r's: its Choice holds, so a loaded run goes on as the
// saved one would have.
func (r *Reasoner) Score(agent any, s *State) {
	r.fit(s)
	if t := s.Trace; t != nil {
		r.scoreTraced(agent, s, t)
		return
	}
	cnt := inputCounts{s.Unread, s.NoBlackboard, s.Clamped, 0, 0}
	for i := range r.actions {
		s.Scores[i] = r.scoreAction(i, agent, s.Considerations[r.offsets[i]:], nil, &cnt)
	}
	s.Unread, s.NoBlackboard, s.Clamped = cnt.unread, cnt.noStore, cnt.clamped
	s.NaNInputs, s.NaNInput = cnt.nan, cnt.nanAt
}

// Decide scores every action for agent (see [Reasoner.Score]), selects one by the
// policy, records it in s and returns its index, or [None] if no action scored above 0.
// src is the agent's random source for Softmax and TopN; with a nil src they pick like
// Argmax. Decide allocates nothing (inputs aside) once s is sized.
//
// Decide is [Reasoner.DecideAt] without a clock: for counting flip-flops
// ([State].FlipFlops) it takes the State's n-th decision (counted in s.Decisions) to
// be at n × 0.1 s, the default think interval. A caller with a simulation clock (the
// systems.Utility system) calls DecideAt.
func (r *Reasoner) Decide(agent any, s *State, src Source) int {
	r.Score(agent, s)
	return r.choose(s, src, float64(s.Decisions+1)*decideStep)
}

// DecideAt is [Reasoner.Decide] at simulation time now, in seconds: the time of the
// decision for counting flip-flops ([State].Flips, FlipFlops, FlipTime). now should
// not decrease from one decision of s to the next; a decision at a time before the
// State's last change of choice, or at a NaN time, ends the run of flips (see
// [State].Flips). The choice itself does not depend on now.
func (r *Reasoner) DecideAt(agent any, s *State, src Source, now float64) int {
	r.Score(agent, s)
	return r.choose(s, src, now)
}

// FlipWindow is the span of simulation time, in seconds, within which FlipLimit+1
// changes of choice back and forth between the same two actions make a flip-flop
// ([State].FlipFlops), and for which a State is reported as flip-flopping after its
// last flip-flop ([State.FlipFlopping]): 2 s, twenty decisions at the default 10 Hz
// think rate. A change back to the action left more than FlipWindow after the last
// change is no flip ([State].Flips).
const FlipWindow float64 = 2

// FlipLimit is the number of flips in a row ([State].Flips) from which a change of
// choice counts as a flip-flop ([State].FlipFlops), when the FlipLimit+1 changes
// (A→B→A→B→A→B) were made within [FlipWindow]: 4. A choice that turns back now and
// then, or every second as the world changes, stays below it.
const FlipLimit = 4

// decideStep is the simulation time, in seconds, Decide takes each decision to last.
const decideStep = 0.1

// FlipFlopping reports whether s made a flip-flop ([State].FlipFlops) at most
// [FlipWindow] seconds before now (simulation time, seconds, as given to
// [Reasoner.DecideAt]) and not after it: whether the choice is flip-flopping now. It
// turns false once the choice has gone FlipWindow without a flip-flop. A NaN now
// means the time of s's last decision (for a State decided without a clock).
func (s *State) FlipFlopping(now float64) bool {
	if s.FlipFlops == 0 {
		return false
	}
	if math.IsNaN(now) {
		now = s.decided
	}
	d := now - s.FlipTime
	return d >= 0 && d <= FlipWindow
}

// Act calls the Act function of s's current choice, if it has one.
func (r *Reasoner) Act(agent any, s *State) {
	if s.Choice >= 0 && s.Choice < len(r.actions) {
		if act := r.actions[s.Choice].Act; act != nil {
			act(agent)
		}
	}
}
