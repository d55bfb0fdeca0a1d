package goap

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// GOAP has no file format: a domain is data a program builds (often from a designer's
// table). The fuzz test decodes bytes into such data, anything a program could pass,
// builds it, and plans and runs whatever builds. Build must refuse bad data with an
// error; a plan found must be one (its steps applicable in turn, reaching its goal, at
// most MaxSteps long, its cost their sum); no input may panic, hang or allocate beyond
// the planner's budget. Run with:
//
//	go test -run XXX -fuzz FuzzDomain -fuzztime 3m -parallel 1 ./ai/goap

// fuzzReader reads the fuzz input a byte at a time; past its end it reads zeros.
type fuzzReader struct {
	data []byte
	i    int
}

func (r *fuzzReader) byte() byte {
	if r.i >= len(r.data) {
		return 0
	}
	r.i++
	return r.data[r.i-1]
}

func (r *fuzzReader) int16() int16 { return int16(uint16(r.byte())<<8 | uint16(r.byte())) }

// pick returns one of values, chosen by the next byte.
func pick[T any](r *fuzzReader, values ...T) T { return values[int(r.byte())%len(values)] }

// value reads a fact value: 0, 1, 2 or -1 by the next byte, else the int16 of the two
// bytes after it.
func (r *fuzzReader) value() int16 {
	if b := r.byte() % 5; b < 4 {
		return []int16{0, 1, 2, -1}[b]
	}
	return r.int16()
}

// longName is a name from a designer's table gone wrong: errors quote it cut.
var longName = strings.Repeat("N", 5000)

// Awkward numbers for costs, priorities and heuristic values.
var fuzzFloats = []float64{1, 2, 0.5, 3, 1e-300, 5e-324, 1e308, math.MaxFloat64, 0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 7}

func (r *fuzzReader) conds() []Cond {
	cs := make([]Cond, int(r.byte())%5)
	for i := range cs {
		cs[i] = Cond{Fact: Fact(r.byte() % 36), Op: Op(r.byte() % 8), Value: r.value()}
	}
	return cs
}

// fuzzDomain decodes data into a builder: the number of facts (up to a few past
// MaxFacts), actions with conditions on facts that may not be declared, comparisons
// that may not exist, costs and priorities among fuzzFloats, and the heuristic (the
// default, ZeroHeuristic, or one returning one of fuzzFloats or a value growing with
// the unsatisfied conditions), then the planner's budget.
func fuzzDomain(data []byte) (*Builder, *Planner, *State) {
	r := &fuzzReader{data: data}
	b := NewBuilder(pick(r, "d", "", longName))
	for i := range int(r.byte()) % (MaxFacts + 4) {
		b.Fact("f" + strconv.Itoa(i%(MaxFacts+2))) // a name again now and then
	}
	actions, goals := int(r.byte())%12, int(r.byte())%6
	switch h := r.byte() % 4; h {
	case 1:
		b.Heuristic(ZeroHeuristic)
	case 2:
		v := pick(r, fuzzFloats...)
		b.Heuristic(func(*Domain, *State, []Cond) float64 { return v })
	case 3:
		b.Heuristic(func(_ *Domain, s *State, want []Cond) float64 {
			n := 0.0
			for _, c := range want {
				if !c.Holds(s) {
					n += 1e300
				}
			}
			return n
		})
	}
	names := []string{"a", "b", "c", "", "a"}
	for i := range actions {
		a := Action{Name: names[i%len(names)] + strconv.Itoa(i/len(names)), Cost: pick(r, fuzzFloats...), Pre: r.conds()}
		if r.byte()%7 == 6 {
			a.Name = pick(r, "", "a0", longName)
		}
		a.Effects = make([]Effect, int(r.byte())%4)
		for j := range a.Effects {
			a.Effects[j] = Effect{Fact: Fact(r.byte() % 36), Value: r.value(), Add: r.byte()%2 == 0}
		}
		switch r.byte() % 4 {
		case 1:
			a.Run = func(c *Context) Status { return Status(int(c.Time*10) % 4) } // Running, Success, Failure, and a status Tick does not know
		case 2:
			a.Run = func(c *Context) Status { c.State[0]++; return Success } // a world that drifts
		}
		b.Action(a)
	}
	for i := range goals {
		b.Goal(Goal{Name: "g" + strconv.Itoa(i%4), Priority: pick(r, fuzzFloats...), Want: r.conds()})
	}
	p := &Planner{MaxNodes: pick(r, 0, 1, 2, 64, -5, 1<<14)}
	var s State
	for i := range s {
		s[i] = []int16{0, 1, -1}[r.byte()%3]
	}
	return b, p, &s
}

// checkPlan fails unless plan, found from start, is a plan of d: at most MaxSteps
// actions, each applicable in turn, reaching its goal, with its cost their sum.
func checkPlan(t *testing.T, d *Domain, start *State, plan *Plan) {
	t.Helper()
	if plan.Len < 0 || plan.Len > MaxSteps || plan.Goal < 0 || int(plan.Goal) >= d.Goals() {
		t.Fatalf("plan of %d steps for goal %d of %d", plan.Len, plan.Goal, d.Goals())
	}
	s, cost := *start, 0.0
	for i, id := range plan.Actions() {
		if id < 0 || int(id) >= d.Actions() {
			t.Fatalf("step %d: action %d of %d", i, id, d.Actions())
		}
		a := d.Action(id)
		if !a.applicable(&s) {
			t.Fatalf("step %d: %s's preconditions do not hold in %v", i, a.Name, s)
		}
		a.apply(&s)
		cost += a.Cost
	}
	if !Satisfied(&s, d.Goal(plan.Goal).Want) {
		t.Fatalf("the plan %v ends in %v, where goal %q does not hold", plan.Actions(), s, d.GoalName(plan.Goal))
	}
	if cost != plan.Cost && !(math.IsInf(cost, 1) && math.IsInf(plan.Cost, 1)) {
		t.Fatalf("plan cost %v, its actions cost %v", plan.Cost, cost)
	}
}

func fuzzOne(t *testing.T, data []byte) {
	b, p, start := fuzzDomain(data)
	d, err := b.Build()
	if err != nil {
		errs := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		for _, e := range errs {
			if len(e.Error()) > 512 {
				t.Fatalf("error of %d bytes: %.300q", len(e.Error()), e.Error())
			}
		}
		return
	}
	var plan Plan
	for g := range d.Goals() {
		err := p.Plan(d, start, GoalID(g), &plan)
		switch {
		case err == nil:
			checkPlan(t, d, start, &plan)
		case !errors.Is(err, ErrNoPlan) && !errors.Is(err, ErrBudget):
			t.Fatalf("goal %d: %v", g, err)
		}
		if p.Generated > p.budget() {
			t.Fatalf("generated %d states over the budget %d", p.Generated, p.budget())
		}
	}
	if err := p.PlanBest(d, start, &plan); err == nil {
		checkPlan(t, d, start, &plan)
		if Satisfied(start, d.Goal(plan.Goal).Want) {
			t.Fatalf("PlanBest chose goal %q, which holds already", d.GoalName(plan.Goal))
		}
	} else if !errors.Is(err, ErrNoPlan) && !errors.Is(err, ErrBudget) {
		t.Fatal(err)
	}
	var run Run
	s := *start
	ctx := Context{DT: 0.1}
	for k := range 12 {
		ctx.Time = float64(k) * ctx.DT
		st := d.Tick(&run, &s, p, &ctx)
		if st > Failure {
			t.Fatalf("think %d: status %v", k, st)
		}
		if run.Step < 0 || run.Step > run.Plan.Len || run.Plan.Len > MaxSteps {
			t.Fatalf("think %d: step %d of a plan of %d", k, run.Step, run.Plan.Len)
		}
	}
}

// fuzzSeed is a seed of FuzzDomain and what Build makes of it: err nil for a domain
// that builds, else the error it wraps.
type fuzzSeed struct {
	what string
	data []byte
	err  error
}

// fuzzSeeds are the seeds, in fuzzDomain's order: name, facts, actions, goals,
// heuristic; per action cost, conditions (count, then fact, comparison, value each),
// name change, effects (count, then fact, value, add each), operator; per goal priority
// and conditions; the budget; the start state (zeros past the end).
func fuzzSeeds() []fuzzSeed {
	// a woodcutter: take the axe (f0 = 1, cost 1), chop wood (f1 += 1, cost 3, an
	// operator that runs, succeeds or fails by the time), deliver it when there are 2
	// (f2 = 1, cost 1)
	axe := []byte{0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0}
	chop := []byte{3, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1}
	deliver := []byte{0, 1, 1, 5, 2, 0, 1, 2, 1, 1, 2}
	wood := func(head []byte, actions ...[]byte) []byte {
		out := append([]byte(nil), head...)
		for _, a := range actions {
			out = append(out, a...)
		}
		return append(out, 0, 1, 2, 0, 1) // goal: f2 == 1
	}
	head := []byte{0, 3, 3, 1, 0} // 3 facts, 3 actions, 1 goal, the default heuristic
	return []fuzzSeed{
		{"woodcutter", wood(head, axe, chop, deliver), nil},
		{"ZeroHeuristic", wood([]byte{0, 3, 3, 1, 1}, axe, chop, deliver), nil},
		{"a heuristic of NaN", wood([]byte{0, 3, 3, 1, 2, 10}, axe, chop, deliver), nil},
		{"an inadmissible heuristic", wood([]byte{0, 3, 3, 1, 3}, axe, chop, deliver), nil},
		{"costs of 1e308 and MaxFloat64", wood(head, []byte{6, 0, 0, 0, 0}, []byte{7, 0, 0, 0, 0}, deliver), ErrCost},
		{"64 wood: no plan within MaxSteps", wood(head, axe, chop, []byte{0, 1, 1, 5, 4, 0, 64, 0, 1, 2, 1, 1, 2}), nil},
		{"a NaN cost", wood(head, []byte{10, 0, 0, 0, 0}, chop, deliver), ErrCost},
		{"a condition on an undeclared fact", wood(head, axe, []byte{3, 1, 9, 0, 1, 0, 1, 1, 1, 0, 1}, deliver), ErrFact},
		{"a comparison that does not exist", wood(head, axe, []byte{3, 1, 0, 7, 1, 0, 1, 1, 1, 0, 1}, deliver), ErrOp},
		{"more facts than MaxFacts", wood([]byte{0, 35, 3, 1, 0}, axe, chop, deliver), ErrFacts},
		{"an action's name used twice", wood(head, axe, []byte{0, 0, 6, 1, 0, 0}, deliver), ErrName},
		{"names of 5000 bytes, one empty", wood([]byte{2, 3, 3, 1, 0}, axe, []byte{0, 0, 6, 2, 0, 0}, []byte{0, 0, 6, 0, 0, 0}), ErrName},
		{"no action", []byte{0, 3, 0, 1, 0, 0, 1, 2, 0, 1}, ErrEmpty},
		{"nothing", nil, ErrEmpty},
	}
}

// The seeds decode to what they say (a name quoted in an error is cut: see fuzzOne).
func TestFuzzSeeds(t *testing.T) {
	for _, seed := range fuzzSeeds() {
		b, p, start := fuzzDomain(seed.data)
		d, err := b.Build()
		if seed.err != nil {
			if !errors.Is(err, seed.err) {
				t.Errorf("%s: Build returned %v, want an error wrapping %v", seed.what, err, seed.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", seed.what, err)
			continue
		}
		var plan Plan
		err = p.Plan(d, start, 0, &plan)
		switch seed.what {
		case "64 wood: no plan within MaxSteps":
			if !errors.Is(err, ErrPlanTooLong) {
				t.Errorf("%s: %v, want ErrPlanTooLong", seed.what, err)
			}
		case "woodcutter", "ZeroHeuristic":
			if err != nil || plan.Cost != 8 || len(plan.Actions()) != 4 {
				t.Errorf("%s: plan %v of cost %v (%v), want axe, chop, chop, deliver (8)", seed.what, plan.Actions(), plan.Cost, err)
			}
		}
		fuzzOne(t, seed.data)
	}
}

func FuzzDomain(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed.data)
	}
	f.Fuzz(fuzzOne)
}
