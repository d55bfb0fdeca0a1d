package goap

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// optimum is the exhaustive reference: it enumerates every state reachable from start
// and relaxes every edge until nothing changes (Bellman-Ford over the whole state
// space), returning the cheapest cost to a state where want holds, or +Inf.
func optimum(d *Domain, start State, want []Cond) float64 {
	index := map[State]int{start: 0}
	order := []State{start}
	type edge struct {
		from, to int
		cost     float64
	}
	var edges []edge                  // in the order of the states, then of the actions
	for i := 0; i < len(order); i++ { // reachable states
		if len(order) > 100000 {
			panic("optimum: state space too large for the reference")
		}
		for ai := range d.actions {
			a := &d.actions[ai]
			if !a.applicable(&order[i]) {
				continue
			}
			next := order[i]
			a.apply(&next)
			k, ok := index[next]
			if !ok {
				k = len(order)
				index[next] = k
				order = append(order, next)
			}
			edges = append(edges, edge{i, k, a.Cost})
		}
	}
	cost := make([]float64, len(order))
	for i := range cost {
		cost[i] = math.Inf(1)
	}
	cost[0] = 0
	for changed := true; changed; {
		changed = false
		for _, e := range edges {
			if c := cost[e.from] + e.cost; c < cost[e.to] {
				cost[e.to] = c
				changed = true
			}
		}
	}
	best := math.Inf(1)
	for i := range order {
		if Satisfied(&order[i], want) {
			best = min(best, cost[i])
		}
	}
	return best
}

// replay checks that plan reaches want from start, and returns its cost.
func replay(t *testing.T, d *Domain, start State, plan *Plan, want []Cond) float64 {
	t.Helper()
	s := start
	cost := 0.0
	for _, id := range plan.Actions() {
		a := d.Action(id)
		require.True(t, a.applicable(&s), "step %s applicable", a.Name)
		a.apply(&s)
		cost += a.Cost
	}
	require.True(t, Satisfied(&s, want), "the plan reaches the goal")
	return cost
}

func names(d *Domain, p *Plan) []string {
	var out []string
	for _, id := range p.Actions() {
		out = append(out, d.ActionName(id))
	}
	return out
}

// greedyTrap: the cheapest first action (a coupon for 1) leads to a costly plan (11);
// buying outright (5) is the optimum.
func greedyTrap(t *testing.T) (*Domain, GoalID) {
	b := NewBuilder("trap")
	coupon, have := b.Fact("coupon"), b.Fact("have")
	b.Action(Action{Name: "GetCoupon", Cost: 1, Effects: []Effect{{Fact: coupon, Value: 1}}})
	b.Action(Action{Name: "UseCoupon", Cost: 10, Pre: []Cond{{coupon, Eq, 1}}, Effects: []Effect{{Fact: have, Value: 1}}})
	b.Action(Action{Name: "Buy", Cost: 5, Effects: []Effect{{Fact: have, Value: 1}}})
	g := b.Goal(Goal{Name: "Have", Want: []Cond{{have, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d, g
}

// crafting: gather wood (with or without an axe), craft planks, deliver 2 planks.
func crafting(t *testing.T) (*Domain, GoalID) {
	b := NewBuilder("craft")
	axe, wood, planks, delivered, ore := b.Fact("axe"), b.Fact("wood"), b.Fact("planks"), b.Fact("delivered"), b.Fact("ore")
	b.Action(Action{Name: "MineOre", Cost: 3, Pre: []Cond{{ore, Lt, 1}}, Effects: []Effect{{Fact: ore, Value: 1, Add: true}}})
	b.Action(Action{Name: "ForgeAxe", Cost: 2, Pre: []Cond{{ore, Ge, 1}, {axe, Eq, 0}}, Effects: []Effect{{Fact: ore, Value: -1, Add: true}, {Fact: axe, Value: 1}}})
	b.Action(Action{Name: "ChopWithAxe", Cost: 1, Pre: []Cond{{axe, Eq, 1}, {wood, Lt, 4}}, Effects: []Effect{{Fact: wood, Value: 2, Add: true}}})
	b.Action(Action{Name: "GatherByHand", Cost: 4, Pre: []Cond{{wood, Lt, 4}}, Effects: []Effect{{Fact: wood, Value: 1, Add: true}}})
	b.Action(Action{Name: "CraftPlank", Cost: 1, Pre: []Cond{{wood, Ge, 2}, {planks, Lt, 2}}, Effects: []Effect{{Fact: wood, Value: -2, Add: true}, {Fact: planks, Value: 1, Add: true}}})
	b.Action(Action{Name: "Deliver", Cost: 1, Pre: []Cond{{planks, Ge, 2}}, Effects: []Effect{{Fact: planks, Value: -2, Add: true}, {Fact: delivered, Value: 1}}})
	g := b.Goal(Goal{Name: "Deliver", Want: []Cond{{delivered, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d, g
}

func TestGreedyFirstActionIsWrong(t *testing.T) {
	d, g := greedyTrap(t)
	var p Planner
	var plan Plan
	require.NoError(t, p.Plan(d, &State{}, g, &plan))
	assert.Equal(t, []string{"Buy"}, names(d, &plan))
	assert.Equal(t, 5.0, plan.Cost)
	assert.Equal(t, optimum(d, State{}, d.Goal(g).Want), plan.Cost)
}

func TestCraftingPlanIsCheapest(t *testing.T) {
	d, g := crafting(t)
	var p Planner
	var plan Plan
	require.NoError(t, p.Plan(d, &State{}, g, &plan))
	// 4 wood by hand costs 16; an axe (3+2) and two chops (2) cost 7.
	assert.Equal(t, []string{"MineOre", "ForgeAxe", "ChopWithAxe", "ChopWithAxe", "CraftPlank", "CraftPlank", "Deliver"}, names(d, &plan))
	assert.Equal(t, 10.0, plan.Cost)
	assert.Equal(t, optimum(d, State{}, d.Goal(g).Want), plan.Cost)
	assert.Equal(t, plan.Cost, replay(t, d, State{}, &plan, d.Goal(g).Want))

	// Holding an axe already: the plan skips the forge.
	start := State{}
	start[0] = 1
	require.NoError(t, p.Plan(d, &start, g, &plan))
	assert.Equal(t, 5.0, plan.Cost)
	assert.Equal(t, optimum(d, start, d.Goal(g).Want), plan.Cost)
}

// randomDomain makes a domain of nf facts in 0..2 and na actions with random
// preconditions, effects and costs, drawing again while Build refuses the goal as one
// no action can make true (ErrNeverTrue) or conditions that contradict (ErrConflict).
func randomDomain(t *testing.T, r *rand.Rand, nf, na int) (*Domain, GoalID) {
	for {
		if d, g, ok := tryRandomDomain(t, r, nf, na); ok {
			return d, g
		}
	}
}

func tryRandomDomain(t *testing.T, r *rand.Rand, nf, na int) (*Domain, GoalID, bool) {
	b := NewBuilder("random")
	for i := range nf {
		b.Fact(string(rune('a' + i)))
	}
	for i := range na {
		var a Action
		a.Name = string(rune('A' + i))
		a.Cost = float64(1 + r.IntN(9))
		for range r.IntN(3) {
			a.Pre = append(a.Pre, Cond{Fact: Fact(r.IntN(nf)), Op: Op(r.IntN(6)), Value: int16(r.IntN(3))})
		}
		for range 1 + r.IntN(2) {
			// Set effects only: the state space stays finite (3^nf states) for the
			// exhaustive reference; Add is covered by the crafting domain.
			a.Effects = append(a.Effects, Effect{Fact: Fact(r.IntN(nf)), Value: int16(r.IntN(3))})
		}
		b.Action(a)
	}
	var want []Cond
	for range 1 + r.IntN(3) {
		want = append(want, Cond{Fact: Fact(r.IntN(nf)), Op: Eq, Value: int16(1 + r.IntN(2))})
	}
	g := b.Goal(Goal{Name: "G", Want: want})
	d, err := b.Build()
	if errors.Is(err, ErrNeverTrue) || errors.Is(err, ErrConflict) {
		return nil, 0, false
	}
	require.NoError(t, err)
	return d, g, true
}

func TestRandomDomainsMatchExhaustiveSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var p Planner
	found, none := 0, 0
	for range 300 {
		d, g := randomDomain(t, r, 5, 8)
		want := d.Goal(g).Want
		best := optimum(d, State{}, want)
		var plan Plan
		err := p.Plan(d, &State{}, g, &plan)
		if math.IsInf(best, 1) {
			assert.ErrorIs(t, err, ErrNoPlan)
			none++
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, best, plan.Cost, "plan %v", names(d, &plan))
		assert.Equal(t, best, replay(t, d, State{}, &plan, want))
		found++
	}
	assert.Greater(t, found, 50, "enough solvable domains")
	assert.Greater(t, none, 5, "and some unsolvable")
}

func TestZeroHeuristicGivesTheSameCost(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		d, g := randomDomain(t, r, 5, 8)
		d0 := *d
		d0.h = ZeroHeuristic
		var p Planner
		var a, b Plan
		ea, eb := p.Plan(d, &State{}, g, &a), p.Plan(&d0, &State{}, g, &b)
		assert.Equal(t, ea, eb)
		assert.Equal(t, a.Cost, b.Cost)
	}
}

func TestBudget(t *testing.T) {
	d, g := crafting(t)
	p := Planner{MaxNodes: 5}
	var plan Plan
	assert.ErrorIs(t, p.Plan(d, &State{}, g, &plan), ErrBudget)
	assert.Equal(t, 0, plan.Len)
	assert.Equal(t, NoGoal, plan.Goal)
	assert.LessOrEqual(t, p.Generated, 5)
}

func TestGoalsByPriority(t *testing.T) {
	b := NewBuilder("prio")
	x, y := b.Fact("x"), b.Fact("y")
	b.Action(Action{Name: "SetX", Cost: 1, Effects: []Effect{{Fact: x, Value: 1}}})
	b.Action(Action{Name: "SetY", Cost: 1, Pre: []Cond{{x, Eq, 2}}, Effects: []Effect{{Fact: y, Value: 1}}})
	b.Goal(Goal{Name: "X", Priority: 1, Want: []Cond{{x, Eq, 1}}})
	b.Goal(Goal{Name: "Y", Priority: 5, Want: []Cond{{y, Eq, 1}}}) // unreachable
	d, err := b.Build()
	require.NoError(t, err)
	var p Planner
	var plan Plan
	require.NoError(t, p.PlanBest(d, &State{}, &plan))
	assert.Equal(t, "X", d.GoalName(plan.Goal), "Y first, but it has no plan")
	s := State{}
	s[x] = 1
	assert.ErrorIs(t, p.PlanBest(d, &s, &plan), ErrNoPlan, "X holds and Y is out of reach")
}

func TestBuildErrors(t *testing.T) {
	b := NewBuilder("bad")
	f := b.Fact("f")
	b.Action(Action{Name: "A", Cost: 0})
	b.Action(Action{Name: "A", Cost: 1, Pre: []Cond{{Fact: 7}}})
	b.Action(Action{Name: "B", Cost: math.NaN(), Pre: []Cond{{Fact: f, Op: 9}}})
	_, err := b.Build()
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrCost)
	assert.ErrorIs(t, err, ErrName)
	assert.ErrorIs(t, err, ErrFact)
	assert.ErrorIs(t, err, ErrOp)
	_, err = NewBuilder("empty").Build()
	assert.ErrorIs(t, err, ErrEmpty)
	// actions but no goal: nothing to plan for, so every think would find
	// no plan and the agent would idle with nothing reported
	noGoal := NewBuilder("idle")
	noGoal.Fact("wood")
	noGoal.Action(Action{Name: "chop", Cost: 1})
	_, err = noGoal.Build()
	require.ErrorIs(t, err, ErrEmpty)
	assert.EqualError(t, err, `goap: domain "idle": nothing to plan with: no goal`)
	many := NewBuilder("many")
	for i := range MaxFacts + 1 {
		many.Fact(string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	many.Action(Action{Name: "A", Cost: 1})
	_, err = many.Build()
	assert.True(t, errors.Is(err, ErrFacts))
}

func TestPlanAllocatesNothing(t *testing.T) {
	d, g := crafting(t)
	var p Planner
	var plan Plan
	require.NoError(t, p.Plan(d, &State{}, g, &plan))
	var start State
	allocs := testing.AllocsPerRun(100, func() { _ = p.Plan(d, &start, g, &plan) })
	assert.Zero(t, allocs)
}

// TestRunReplansWhenAStepFails: the axe breaks on the first chop; the agent replans
// and gathers with a new axe.
func TestRunReplansWhenAStepFails(t *testing.T) {
	b := NewBuilder("run")
	axe, wood := b.Fact("axe"), b.Fact("wood")
	chops := 0
	b.Action(Action{Name: "MakeAxe", Cost: 2, Pre: []Cond{{axe, Eq, 0}}, Effects: []Effect{{Fact: axe, Value: 1}}})
	b.Action(Action{Name: "Chop", Cost: 1, Pre: []Cond{{axe, Eq, 1}}, Effects: []Effect{{Fact: wood, Value: 1, Add: true}},
		Run: func(c *Context) Status {
			if c.Time-c.Start < 0.2 {
				return Running
			}
			chops++
			if chops == 1 {
				c.State[axe] = 0 // the axe breaks
				return Failure
			}
			return Success
		}})
	b.Action(Action{Name: "ByHand", Cost: 10, Effects: []Effect{{Fact: wood, Value: 1, Add: true}}})
	b.Goal(Goal{Name: "Wood", Want: []Cond{{wood, Ge, 2}}})
	d, err := b.Build()
	require.NoError(t, err)
	var p Planner
	var r Run
	var s State
	var log []string
	for i := range 30 {
		ctx := Context{Time: float64(i) * 0.1, DT: 0.1}
		st := d.Tick(&r, &s, &p, &ctx)
		log = append(log, d.ActionName(r.Current())+":"+st.String())
		if st == Success {
			break
		}
	}
	assert.Equal(t, []string{
		"Chop:running", "Chop:running", // MakeAxe succeeds at once; the chop takes 0.2 s
		"Chop:running",                 // 0.2 s: the axe breaks, the chop fails; replanned: MakeAxe, Chop, Chop
		"Chop:running", "Chop:running", // 0.4 s: one wood, the second chop starts
		"Chop:running", ":success", // 0.6 s: two wood
	}, log)
	assert.Equal(t, int16(2), s[wood])
	assert.Equal(t, uint32(2), r.Plans)
	assert.Equal(t, uint32(1), r.Failures)
}

// TestRunReplansForAHigherGoal: a sensed change makes a higher-priority goal reachable.
func TestRunReplansForAHigherGoal(t *testing.T) {
	b := NewBuilder("alarm")
	alarm, safe, work := b.Fact("alarm"), b.Fact("safe"), b.Fact("work")
	b.Action(Action{Name: "Work", Cost: 1, Effects: []Effect{{Fact: work, Value: 1, Add: true}},
		Run: func(c *Context) Status { return Running }})
	b.Action(Action{Name: "Hide", Cost: 1, Pre: []Cond{{alarm, Eq, 1}}, Effects: []Effect{{Fact: safe, Value: 1}}})
	b.Goal(Goal{Name: "Work", Priority: 1, Want: []Cond{{work, Ge, 1}}})
	b.Goal(Goal{Name: "Safe", Priority: 9, Want: []Cond{{safe, Eq, 1}}})
	halted := 0
	d, err := b.Build()
	require.NoError(t, err)
	d.actions[0].Halt = func(c *Context) { halted++ }
	var p Planner
	var r Run
	var s State
	var log []string
	ctx := Context{Observe: func(ev Event) {
		e := ev.Kind.String()
		if ev.Action >= 0 {
			e += " " + d.ActionName(ev.Action)
		}
		log = append(log, e)
	}}
	assert.Equal(t, Running, d.Tick(&r, &s, &p, &ctx))
	assert.Equal(t, "Work", d.GoalName(r.Plan.Goal))
	s[alarm] = 1
	assert.Equal(t, Success, d.Tick(&r, &s, &p, &ctx))
	assert.Equal(t, "Safe", d.GoalName(r.Plan.Goal))
	assert.Equal(t, 1, halted)
	assert.Equal(t, []string{"plan", "start Work", "halt Work", "replace", "start Hide", "success Hide", "done"}, log)
}

func TestRegistry(t *testing.T) {
	d, _ := greedyTrap(t)
	var r Registry
	id, err := r.Add(d)
	require.NoError(t, err)
	assert.Equal(t, ID(1), id)
	assert.Same(t, d, r.Domain(id))
	assert.Nil(t, r.Domain(0))
	assert.Nil(t, r.Domain(2))
	_, err = r.Add(d)
	assert.Error(t, err)
	got, ok := r.Lookup("trap")
	assert.True(t, ok)
	assert.Equal(t, id, got)
}

func TestTickDropsAPlanItCannotRun(t *testing.T) {
	d, _ := greedyTrap(t)
	var p Planner
	for _, r := range []Run{
		{Plan: Plan{Len: 99}},
		{Plan: Plan{Len: 1, Steps: [MaxSteps]ActionID{40}}},
		{Plan: Plan{Len: 1, Goal: 7}},
		{Plan: Plan{Len: 1}, Step: -3},
	} {
		var s State
		ctx := Context{}
		assert.NotPanics(t, func() { d.Tick(&r, &s, &p, &ctx) })
		assert.Equal(t, Success, r.Status, "replanned: Buy")
		assert.Equal(t, int16(1), s[1])
	}
}

func TestTickAllocatesNothing(t *testing.T) {
	b := NewBuilder("alarm")
	alarm, safe, work := b.Fact("alarm"), b.Fact("safe"), b.Fact("work")
	b.Action(Action{Name: "Work", Cost: 1, Effects: []Effect{{Fact: work, Value: 1, Add: true}},
		Run: func(c *Context) Status { return Running }})
	b.Action(Action{Name: "Hide", Cost: 1, Pre: []Cond{{alarm, Eq, 1}}, Effects: []Effect{{Fact: safe, Value: 1}}})
	b.Goal(Goal{Name: "Work", Priority: 1, Want: []Cond{{work, Ge, 1}}})
	b.Goal(Goal{Name: "Safe", Priority: 9, Want: []Cond{{safe, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	var p Planner
	var r Run
	var s State
	ctx := Context{}
	d.Tick(&r, &s, &p, &ctx)
	allocs := testing.AllocsPerRun(100, func() {
		s[alarm] ^= 1 // a change: Safe replaces Work, or Work is planned again
		s[safe] = 0
		d.Tick(&r, &s, &p, &ctx)
	})
	assert.Zero(t, allocs)
	assert.Greater(t, r.Plans, uint32(50))
}
