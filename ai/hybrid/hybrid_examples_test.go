package hybrid_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
)

// A behavior tree whose attack branch is chosen by a utility reasoner. When the choice
// changes, the abandoned branch is halted.
func ExampleUtilitySelector() {
	type fighter struct {
		dist   float64
		attack utility.State
	}
	dist := utility.Fact(func(f *fighter) float64 { return f.dist })
	r, _ := utility.New("attack", utility.Policy{Hysteresis: 0.1},
		utility.Action{Name: "melee", Considerations: []utility.Consideration{
			{Input: dist, Range: utility.Range{Min: 6, Max: 0}}}},
		utility.Action{Name: "ranged", Considerations: []utility.Consideration{
			{Input: dist, Range: utility.Range{Min: 0, Max: 6}}}},
	)
	attack := func(name string) *bt.Node {
		return bt.Action(name, func(*bt.Context) bt.Status { return bt.Running }).
			OnHalt(func(*bt.Context) { fmt.Println("  halt", name) })
	}
	tree, _ := bt.Compile("fighter", hybrid.UtilitySelector("attack", r,
		func(c *bt.Context) (*utility.State, utility.Source) { return &c.Agent.(*fighter).attack, nil },
		attack("swing"), attack("shoot")))

	f := &fighter{attack: r.NewState()}
	mem := tree.NewMemory()
	ctx := &bt.Context{Agent: f, DT: 0.1}
	// At 3.1 melee holds by hysteresis (0.48 × 1.1 > 0.52); at 4 ranged clearly wins.
	for _, d := range []float64{1, 2.8, 3.1, 4} {
		f.dist = d
		tree.Tick(&mem, ctx)
		fmt.Printf("dist %.1f: %s (melee %.2f, ranged %.2f)\n", d, r.ActionName(f.attack.Choice),
			f.attack.Scores[0], f.attack.Scores[1])
	}
	// Output:
	// dist 1.0: melee (melee 0.83, ranged 0.17)
	// dist 2.8: melee (melee 0.53, ranged 0.47)
	// dist 3.1: melee (melee 0.48, ranged 0.52)
	//   halt swing
	// dist 4.0: ranged (melee 0.33, ranged 0.67)
}

// A state machine whose Combat state runs a behavior tree, halted when Combat is left.
func ExampleTreeState() {
	type guard struct {
		enemy bool
		run   hybrid.TreeRun
	}
	tree, _ := bt.Compile("combat", bt.Action("chase", func(*bt.Context) bt.Status {
		fmt.Println("  chase")
		return bt.Running
	}).OnHalt(func(*bt.Context) { fmt.Println("  chase halted") }))

	b := fsm.NewBuilder("guard")
	idle := b.State("Idle", fsm.Hooks{})
	combat := b.State("Combat", hybrid.TreeState(tree,
		func(c *fsm.Context) *hybrid.TreeRun { return &c.Agent.(*guard).run }, nil))
	b.When(idle, func(c *fsm.Context) bool { return c.Agent.(*guard).enemy }, combat)
	b.When(combat, func(c *fsm.Context) bool { return !c.Agent.(*guard).enemy }, idle)
	m, _ := b.Build()

	g := &guard{}
	var mem fsm.Memory
	ctx := &fsm.Context{Agent: g, DT: 0.1}
	for _, enemy := range []bool{false, true, true, false} {
		g.enemy = enemy
		m.Update(&mem, ctx)
		fmt.Println(m.Name(mem.Active))
	}
	// Output:
	// Idle
	//   chase
	// Combat
	//   chase
	// Combat
	//   chase halted
	// Idle
}
