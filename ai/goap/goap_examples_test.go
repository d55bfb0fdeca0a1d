package goap_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/goap"
)

// A cheapest plan: a coupon is the cheapest first action, but buying outright is the
// cheapest plan.
func ExamplePlanner_PlanBest() {
	b := goap.NewBuilder("shop")
	coupon, have := b.Fact("coupon"), b.Fact("have")
	b.Action(goap.Action{Name: "GetCoupon", Cost: 1, Effects: []goap.Effect{{Fact: coupon, Value: 1}}})
	b.Action(goap.Action{Name: "UseCoupon", Cost: 10, Pre: []goap.Cond{{Fact: coupon, Op: goap.Eq, Value: 1}},
		Effects: []goap.Effect{{Fact: have, Value: 1}}})
	b.Action(goap.Action{Name: "Buy", Cost: 5, Effects: []goap.Effect{{Fact: have, Value: 1}}})
	b.Goal(goap.Goal{Name: "Have", Priority: 1, Want: []goap.Cond{{Fact: have, Op: goap.Eq, Value: 1}}})
	d, err := b.Build()
	if err != nil {
		panic(err)
	}
	var p goap.Planner
	var plan goap.Plan
	var s goap.State
	if err := p.PlanBest(d, &s, &plan); err != nil {
		panic(err)
	}
	for _, a := range plan.Actions() {
		fmt.Println(d.ActionName(a))
	}
	fmt.Println("cost", plan.Cost, "for", d.GoalName(plan.Goal))
	// Output:
	// Buy
	// cost 5 for Have
}

// A goal the check before the search lets through (Craft adds to planks) that no
// plan ever reaches: Craft adds a plank only while there is none. The search ends in
// plain ErrNoPlan, WhyNoPlan has nothing to say, and WhyNeverReached explores every
// state the actions reach.
func ExampleDomain_WhyNeverReached() {
	b := goap.NewBuilder("stock")
	planks := b.Fact("planks")
	b.Action(goap.Action{Name: "Craft", Cost: 1, Pre: []goap.Cond{{Fact: planks, Op: goap.Eq, Value: 0}},
		Effects: []goap.Effect{{Fact: planks, Value: 1, Add: true}}})
	stock := b.Goal(goap.Goal{Name: "Stock", Priority: 1, Want: []goap.Cond{{Fact: planks, Op: goap.Ge, Value: 2}}})
	d, err := b.Build()
	if err != nil {
		panic(err)
	}
	var p goap.Planner
	var plan goap.Plan
	var s goap.State
	fmt.Println(p.Plan(d, &s, stock, &plan))
	fmt.Printf("WhyNoPlan: %q\n", d.WhyNoPlan(&s, stock))
	fmt.Println(d.WhyNeverReached(&s, stock))
	// Output:
	// goap: no plan reaches the goal
	// WhyNoPlan: ""
	// goal "Stock" is never reached: planks >= 2 holds in none of the 2 states the actions reach from the state (planks is 0), and no fact the goal depends on (planks) is sensed: an action that makes it true cannot start where it could, or no effect hits its value
}
