package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
)

// benchAgent is one agent of BenchmarkTickHybridTree: the State of its
// UtilitySelector and the plan of its HTNAction, as a program keeps them in a
// component of its own.
type benchAgent struct {
	jobs  utility.State
	run   htn.Run
	state htn.State
	mem   bt.Memory
}

// BenchmarkTickHybridTree reports ns and allocations per agent tick of a tree
// UtilitySelector("Job": work, rest) whose work child is an HTNAction on a domain whose
// root never decomposes (so every tick plans and fails: the path Diagnose's
// planner_domain_error watches); each op ticks one of 1,000 agents.
func BenchmarkTickHybridTree(b *testing.B) {
	hb := htn.NewBuilder("guard")
	enemy := hb.Fact("enemy")
	root := hb.Compound("Guard")
	hb.Method(root, htn.Method{Name: "Attack", If: []htn.Condition{htn.Is(enemy, htn.Eq, 1)},
		Tasks: []htn.TaskID{hb.Primitive("Shoot", htn.Primitive{})}})
	hb.Root(root)
	d, err := hb.Build()
	if err != nil {
		b.Fatal(err)
	}
	r, err := utility.New("jobs", utility.Policy{},
		utility.Action{Name: "work", Considerations: []utility.Consideration{{Name: "eager", Input: func(any) float64 { return 0.8 }}}},
		utility.Action{Name: "rest", Weight: 0.5})
	if err != nil {
		b.Fatal(err)
	}
	tree, err := bt.Compile("work", UtilitySelector("Job", r,
		func(c *bt.Context) (*utility.State, utility.Source) { return &c.Agent.(*benchAgent).jobs, nil },
		HTNAction("Guard", d, func(c *bt.Context) (*htn.Run, *htn.State) { a := c.Agent.(*benchAgent); return &a.run, &a.state }),
		bt.Action("Rest", func(*bt.Context) bt.Status { return bt.Running })))
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	agents := make([]benchAgent, n)
	for k := range agents {
		agents[k].jobs = r.NewState()
		agents[k].mem = tree.NewMemory()
	}
	ctx := &bt.Context{DT: 0.1, Time: 0.1}
	for k := range agents { // warm: the pool holds a planner, the States their scores
		ctx.Agent = &agents[k]
		tree.Tick(&agents[k].mem, ctx)
	}
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for b.Loop() {
		ctx.Agent = &agents[k]
		tree.Tick(&agents[k].mem, ctx)
		k++
		if k == n {
			k = 0
			ctx.Time += 0.1
		}
	}
	if agents[0].run.NoPlans == 0 {
		b.Fatal("the HTNAction never planned")
	}
}
