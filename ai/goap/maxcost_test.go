package goap

import (
	"errors"
	"math"
	"testing"
)

// Costs whose sum overflowed made every plan cost +Inf, so the planner could not tell a
// dear plan from a cheap one: X1+X2 (2e308) was chosen over Y1+Y2 (1.8e308) and
// reported at cost +Inf. Build now refuses a cost above MaxCost, so no plan of at most
// MaxSteps actions can overflow.
func TestCostsAboveMaxCostAreRefused(t *testing.T) {
	b := NewBuilder("huge")
	a, bb, c := b.Fact("a"), b.Fact("b"), b.Fact("c")
	b.Action(Action{Name: "X1", Cost: 1e308, Effects: []Effect{{Fact: a, Value: 1}}})
	b.Action(Action{Name: "X2", Cost: 1e308, Pre: []Cond{{Fact: a, Op: Eq, Value: 1}}, Effects: []Effect{{Fact: c, Value: 1}}})
	b.Action(Action{Name: "Y1", Cost: 1.7e308, Effects: []Effect{{Fact: bb, Value: 1}}})
	b.Action(Action{Name: "Y2", Cost: 1e307, Pre: []Cond{{Fact: bb, Op: Eq, Value: 1}}, Effects: []Effect{{Fact: c, Value: 1}}})
	b.Goal(Goal{Name: "G", Want: []Cond{{Fact: c, Op: Eq, Value: 1}}})
	if _, err := b.Build(); !errors.Is(err, ErrCost) {
		t.Fatalf("Build of costs 1e308 and 1.7e308: %v, want ErrCost", err)
	}

	// At MaxCost every step, a plan of MaxSteps actions still has a finite cost and the
	// cheaper of two plans is found.
	b = NewBuilder("max")
	var prev Fact
	for i := 0; i < MaxSteps; i++ {
		f := b.Fact("f" + string(rune('a'+i)))
		act := Action{Name: "s" + string(rune('a'+i)), Cost: MaxCost, Effects: []Effect{{Fact: f, Value: 1}}}
		if i > 0 {
			act.Pre = []Cond{{Fact: prev, Op: Eq, Value: 1}}
		}
		b.Action(act)
		prev = f
	}
	b.Goal(Goal{Name: "G", Want: []Cond{{Fact: prev, Op: Eq, Value: 1}}})
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var p Planner
	var s State
	var out Plan
	if err := p.Plan(d, &s, 0, &out); err != nil {
		t.Fatal(err)
	}
	if out.Len != MaxSteps || math.IsInf(out.Cost, 0) || out.Cost != math.MaxFloat64 {
		t.Errorf("plan of %d steps at cost %v, want %d steps at cost %v", out.Len, out.Cost, MaxSteps, math.MaxFloat64)
	}

	b = NewBuilder("pick")
	a, bb, c = b.Fact("a"), b.Fact("b"), b.Fact("c")
	b.Action(Action{Name: "X1", Cost: MaxCost, Effects: []Effect{{Fact: a, Value: 1}}})
	b.Action(Action{Name: "X2", Cost: MaxCost, Pre: []Cond{{Fact: a, Op: Eq, Value: 1}}, Effects: []Effect{{Fact: c, Value: 1}}})
	b.Action(Action{Name: "Y1", Cost: MaxCost, Effects: []Effect{{Fact: bb, Value: 1}}})
	b.Action(Action{Name: "Y2", Cost: MaxCost / 2, Pre: []Cond{{Fact: bb, Op: Eq, Value: 1}}, Effects: []Effect{{Fact: c, Value: 1}}})
	b.Goal(Goal{Name: "G", Want: []Cond{{Fact: c, Op: Eq, Value: 1}}})
	if d, err = b.Build(); err != nil {
		t.Fatal(err)
	}
	if err := p.Plan(d, &s, 0, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.Actions(); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("plan %v at cost %v, want [2 3] (Y1, Y2) at %v", got, out.Cost, 1.5*MaxCost)
	}
}
