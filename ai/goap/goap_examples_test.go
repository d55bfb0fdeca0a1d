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
