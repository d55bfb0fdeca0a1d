package goap

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// boundedOptimum is the reference within the MaxSteps bound: best[s] after k rounds is
// the cheapest cost of reaching s in at most k actions (Bellman-Ford cut at k = MaxSteps
// rounds). It returns the cheapest cost to a state where want holds (+Inf if none is
// reachable in MaxSteps actions) and whether some state is first reached after exactly
// MaxSteps actions (the search cannot expand it: a longer plan might go on from it).
func boundedOptimum(d *Domain, start State, want []Cond) (float64, bool) {
	best := map[State]float64{start: 0}
	frontier := map[State]bool{start: true} // first reached in the last round
	for range MaxSteps {
		next := make(map[State]float64, len(best))
		for s, c := range best {
			next[s] = c
		}
		newly := map[State]bool{}
		for s, c := range best {
			for ai := range d.actions {
				a := &d.actions[ai]
				if !a.applicable(&s) {
					continue
				}
				t := s
				a.apply(&t)
				old, seen := next[t]
				if !seen {
					newly[t] = true
				}
				if !seen || c+a.Cost < old {
					next[t] = c + a.Cost
				}
			}
		}
		if len(next) > 200000 {
			panic("boundedOptimum: state space too large for the reference")
		}
		best, frontier = next, newly
	}
	opt := math.Inf(1)
	for s, c := range best {
		if Satisfied(&s, want) {
			opt = min(opt, c)
		}
	}
	return opt, len(frontier) > 0
}

// The default heuristic counted unsatisfied goal conditions, so a goal of two
// conditions on one fact (weapon != 0, weapon >= 2), which one effect satisfies both
// of, was estimated at 2 actions where 1 does: h = 2 > 1 (inadmissible) made A* return
// BuyRifle (2.5) before it had looked at GetKey, OpenLocker (2). It counts facts now.
func TestHeuristicCountsFactsNotConditionsAndFindsTheCheapestPlan(t *testing.T) {
	b := NewBuilder("armory")
	weapon, key := b.Fact("weapon"), b.Fact("key")
	b.Action(Action{Name: "GetKey", Cost: 1, Effects: []Effect{{Fact: key, Value: 1}}})
	b.Action(Action{Name: "OpenLocker", Cost: 1, Pre: []Cond{{key, Eq, 1}}, Effects: []Effect{{Fact: weapon, Value: 2}}})
	b.Action(Action{Name: "BuyRifle", Cost: 2.5, Effects: []Effect{{Fact: weapon, Value: 2}}})
	g := b.Goal(Goal{Name: "Armed", Priority: 1, Want: []Cond{{weapon, Ne, 0}, {weapon, Ge, 2}}})
	d, err := b.Build()
	require.NoError(t, err)

	var start State
	want := d.Goal(g).Want
	assert.Equal(t, 1.0, d.heuristic(&start, want), "one fact to change, by one action costing at least 1")

	var p Planner
	var plan Plan
	require.NoError(t, p.PlanBest(d, &start, &plan))
	assert.Equal(t, []string{"GetKey", "OpenLocker"}, names(d, &plan))
	assert.Equal(t, 2.0, plan.Cost)
	assert.Equal(t, g, plan.Goal)
	assert.Equal(t, optimum(d, start, want), plan.Cost)

	d0 := *d
	d0.h = ZeroHeuristic
	var plan0 Plan
	require.NoError(t, p.PlanBest(&d0, &start, &plan0))
	assert.Equal(t, names(d, &plan0), names(d, &plan), "Dijkstra's plan")
}

// Two effects of one action on one fact write one fact: maxEffects counts facts, so
// the estimate is not divided by effects that cannot satisfy two facts' conditions.
func TestMaxEffectsCountsDistinctFacts(t *testing.T) {
	b := NewBuilder("twice")
	x, y := b.Fact("x"), b.Fact("y")
	b.Action(Action{Name: "X", Cost: 2, Effects: []Effect{{Fact: x, Value: 1, Add: true}, {Fact: x, Value: 1, Add: true}}})
	b.Action(Action{Name: "Y", Cost: 3, Effects: []Effect{{Fact: y, Value: 1}}})
	g := b.Goal(Goal{Name: "G", Want: []Cond{{x, Ge, 2}, {y, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	assert.Equal(t, 1, d.maxEffects)
	var s State
	// two facts, one action each at >= 2; y alone needs Y (3)
	assert.Equal(t, 4.0, d.heuristic(&s, d.Goal(g).Want))
	s[x] = 2
	assert.Equal(t, 3.0, d.heuristic(&s, d.Goal(g).Want), "the cheapest action writing y")
	s[y] = 1
	assert.Equal(t, 0.0, d.heuristic(&s, d.Goal(g).Want))
}

// The default heuristic is consistent (h(s) <= cost(a) + h(a(s)) on every edge) and 0
// at the goal, hence admissible, on random domains whose goals put several conditions
// on one fact and whose actions write several facts.
func TestDefaultHeuristicIsConsistent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	edges := 0
	for range 200 {
		b := NewBuilder("h")
		const nf = 4
		for i := range nf {
			b.Fact(string(rune('a' + i)))
		}
		for i := range 6 {
			a := Action{Name: string(rune('A' + i)), Cost: []float64{0.5, 1, 2, 3.5}[r.IntN(4)]}
			for range r.IntN(3) {
				a.Pre = append(a.Pre, Cond{Fact: Fact(r.IntN(nf)), Op: Op(r.IntN(6)), Value: int16(r.IntN(3))})
			}
			for range 1 + r.IntN(3) {
				a.Effects = append(a.Effects, Effect{Fact: Fact(r.IntN(nf)), Value: int16(r.IntN(3))})
			}
			b.Action(a)
		}
		var want []Cond
		for range 1 + r.IntN(4) {
			want = append(want, Cond{Fact: Fact(r.IntN(2)), Op: Op(r.IntN(6)), Value: int16(r.IntN(3))})
		}
		b.Goal(Goal{Name: "G", Want: want})
		d, err := b.Build()
		if errors.Is(err, ErrNeverTrue) || errors.Is(err, ErrConflict) {
			continue // a goal no action can make true, or conditions that contradict: refused
		}
		require.NoError(t, err)
		seen := map[State]bool{{}: true}
		order := []State{{}}
		for i := 0; i < len(order); i++ {
			s := order[i]
			hs := d.heuristic(&s, want)
			if Satisfied(&s, want) {
				require.Zero(t, hs, "h at a goal state")
			}
			for ai := range d.actions {
				a := &d.actions[ai]
				if !a.applicable(&s) {
					continue
				}
				next := s
				a.apply(&next)
				require.LessOrEqual(t, hs, a.Cost+d.heuristic(&next, want), "h(%v) <= %s (%v) + h(%v), want %v", s, a.Name, a.Cost, next, want)
				edges++
				if !seen[next] {
					seen[next] = true
					order = append(order, next)
				}
			}
		}
	}
	assert.Greater(t, edges, 1000)
}

// chain: 16 cheap Steps (0.1 each) raise c to MaxSteps; Jump (5) sets it at once; Finish
// (1) needs c == MaxSteps. Step's path reaches c = MaxSteps cheaper (1.6) but at depth
// MaxSteps, where it cannot be expanded; the search dropped Jump's dearer path to the
// same state as "not cheaper" and so missed Jump, Finish. teleport adds a direct but
// dear way (cost 100) to the goal.
func chain(t *testing.T, teleport bool) *Domain {
	b := NewBuilder("chain")
	c, done := b.Fact("c"), b.Fact("done")
	b.Action(Action{Name: "Step", Cost: 0.1, Pre: []Cond{{c, Lt, MaxSteps}}, Effects: []Effect{{Fact: c, Value: 1, Add: true}}})
	b.Action(Action{Name: "Jump", Cost: 5, Effects: []Effect{{Fact: c, Value: MaxSteps}}})
	b.Action(Action{Name: "Finish", Cost: 1, Pre: []Cond{{c, Eq, MaxSteps}}, Effects: []Effect{{Fact: done, Value: 1}}})
	if teleport {
		b.Action(Action{Name: "Teleport", Cost: 100, Effects: []Effect{{Fact: done, Value: 1}}})
	}
	b.Goal(Goal{Name: "Done", Priority: 1, Want: []Cond{{done, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d
}

// A dearer but shorter path to a state reached cheaply at the MaxSteps bound is kept:
// without it PlanBest said ErrPlanTooLong (no plan of at most MaxSteps actions) although
// Jump, Finish (2 actions, cost 6) is one.
func TestMaxStepsKeepsAShorterDearerPath(t *testing.T) {
	for _, h := range []struct {
		name string
		h    Heuristic
	}{{"default", nil}, {"zero", ZeroHeuristic}} {
		d := chain(t, false)
		d.h = h.h
		var p Planner
		var plan Plan
		require.NoError(t, p.PlanBest(d, &State{}, &plan), h.name)
		assert.Equal(t, []string{"Jump", "Finish"}, names(d, &plan), h.name)
		assert.Equal(t, 6.0, plan.Cost, h.name)
		opt, _ := boundedOptimum(d, State{}, d.Goal(0).Want)
		assert.Equal(t, opt, plan.Cost, h.name)
	}
}

// With another way to the goal, the same fault returned a dearer plan (Teleport, 100)
// instead of no plan: the search was not exact within the bound.
func TestMaxStepsDoesNotMakeThePlanDearer(t *testing.T) {
	d := chain(t, true)
	var p Planner
	var plan Plan
	require.NoError(t, p.PlanBest(d, &State{}, &plan))
	assert.Equal(t, []string{"Jump", "Finish"}, names(d, &plan))
	assert.Equal(t, 6.0, plan.Cost)
}

// counters is a random domain of three counters (0..24) that actions raise, set or
// lower under preconditions (raising cheap, setting dear), with costs from 1/4 to 5 (sums
// exact in float64), and a goal wanting mostly some counters high: cheap long paths and dear short ones to the same states,
// many plans near or past MaxSteps.
func counters(t *testing.T, r *rand.Rand) (*Domain, GoalID) {
	for {
		if d, g, ok := tryCounters(t, r); ok {
			return d, g
		}
	}
}

// tryCounters is counters, or false when Build refuses the goal as one no action can
// make true (ErrNeverTrue) or conditions that contradict (ErrConflict).
func tryCounters(t *testing.T, r *rand.Rand) (*Domain, GoalID, bool) {
	const nf, limit = 3, 24
	b := NewBuilder("counters")
	for i := range nf {
		b.Fact(string(rune('a' + i)))
	}
	for i := range 5 + r.IntN(4) {
		a := Action{Name: string(rune('A' + i))}
		f := Fact(r.IntN(nf))
		switch r.IntN(3) {
		case 0: // raise by 1 or 2, up to the limit: cheap
			a.Cost = []float64{0.25, 0.5, 1}[r.IntN(3)]
			v := int16(1 + r.IntN(2))
			a.Pre = append(a.Pre, Cond{f, Le, limit - v})
			a.Effects = append(a.Effects, Effect{Fact: f, Value: v, Add: true})
		case 1: // set: dear
			a.Cost = []float64{2, 5}[r.IntN(2)]
			a.Effects = append(a.Effects, Effect{Fact: f, Value: int16(r.IntN(limit + 1))})
		case 2: // lower by 1, not below 0
			a.Cost = []float64{0.25, 1, 2}[r.IntN(3)]
			a.Pre = append(a.Pre, Cond{f, Ge, 1})
			a.Effects = append(a.Effects, Effect{Fact: f, Value: -1, Add: true})
		}
		if r.IntN(2) == 0 {
			a.Pre = append(a.Pre, Cond{Fact: Fact(r.IntN(nf)), Op: Op(r.IntN(6)), Value: int16(r.IntN(limit + 1))})
		}
		if r.IntN(3) == 0 {
			a.Effects = append(a.Effects, Effect{Fact: Fact(r.IntN(nf)), Value: int16(r.IntN(limit + 1))})
		}
		b.Action(a)
	}
	var want []Cond
	for range 1 + r.IntN(3) {
		if r.IntN(3) == 0 {
			want = append(want, Cond{Fact: Fact(r.IntN(nf)), Op: Op(r.IntN(6)), Value: int16(r.IntN(limit + 1))})
		} else {
			want = append(want, Cond{Fact: Fact(r.IntN(nf)), Op: Ge, Value: int16(8 + r.IntN(limit-7))})
		}
	}
	g := b.Goal(Goal{Name: "G", Want: want})
	d, err := b.Build()
	if errors.Is(err, ErrNeverTrue) || errors.Is(err, ErrConflict) {
		return nil, 0, false
	}
	require.NoError(t, err)
	return d, g, true
}

// Plan is exact within MaxSteps: on random counter domains, with the default heuristic
// and with Dijkstra's, the plan's cost is the bounded reference's (the cheapest of at
// most MaxSteps actions), and with no such plan the error is ErrPlanTooLong exactly
// when some state is first reached at MaxSteps actions, else ErrNoPlan.
func TestPlanIsExactWithinMaxSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := Planner{MaxNodes: MaxNodesLimit}
	found, tooLong, none, boundBinds, unreachable := 0, 0, 0, 0, 0
	for range 400 {
		d, g := counters(t, r)
		want := d.Goal(g).Want
		start := State{}
		if Satisfied(&start, want) {
			continue
		}
		opt, cut := boundedOptimum(d, start, want)
		unbounded := optimum(d, start, want)
		if unbounded < opt {
			boundBinds++ // the cheapest plan is longer than MaxSteps
		}
		for _, h := range []Heuristic{nil, ZeroHeuristic} {
			dh := *d
			dh.h = h
			var plan Plan
			err := p.Plan(&dh, &start, g, &plan)
			switch {
			case !math.IsInf(opt, 1):
				require.NoError(t, err)
				assert.Equal(t, opt, plan.Cost, "plan %v", names(d, &plan))
				assert.Equal(t, opt, replay(t, d, start, &plan, want))
				assert.LessOrEqual(t, plan.Len, MaxSteps)
				found++
			case errors.Is(err, ErrUnreachable):
				// found before searching: no plan of any length (more precise than
				// ErrPlanTooLong where the bound was reached too)
				assert.True(t, math.IsInf(unbounded, 1), "ErrUnreachable with a plan")
				assert.Zero(t, p.Expanded)
				none++
				unreachable++
			case cut:
				assert.Equal(t, ErrPlanTooLong, err)
				tooLong++
			default:
				assert.Equal(t, ErrNoPlan, err)
				none++
			}
		}
	}
	t.Logf("found %d, too long %d, none %d (%d found before searching); the bound binds in %d domains", found, tooLong, none, unreachable, boundBinds)
	assert.Greater(t, found, 200)
	assert.Greater(t, tooLong, 5)
	assert.Greater(t, none, 5)
	assert.Greater(t, boundBinds, 5)
}
