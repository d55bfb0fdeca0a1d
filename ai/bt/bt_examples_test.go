package bt_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/bt"
)

// Example builds a guard tree once, compiles it, gives one agent its memory and ticks it.
func Example() {
	type guard struct {
		enemyVisible bool
		shots        int
	}
	root := bt.ReactiveSelector(
		bt.Sequence(
			bt.Condition("enemy visible", func(c *bt.Context) bool { return c.Agent.(*guard).enemyVisible }),
			bt.Action("shoot", func(c *bt.Context) bt.Status {
				c.Agent.(*guard).shots++
				return bt.Success
			}),
		),
		bt.Wait(0.5).Named("idle"),
	)
	tree, err := bt.Compile("guard", root)
	if err != nil {
		fmt.Println(err)
		return
	}

	g := &guard{}
	mem := tree.NewMemory() // once per agent, kept in its component
	ctx := &bt.Context{Agent: g, DT: 0.25}
	for tick := 1; tick <= 4; tick++ {
		ctx.Time = float64(tick) * ctx.DT
		g.enemyVisible = tick == 2 // preempts the running Wait
		fmt.Printf("tick %d: %v (idle %v)\n", tick, tree.Tick(&mem, ctx), mem.Status(4))
	}
	fmt.Println("shots:", g.shots)

	// Output:
	// tick 1: Running (idle Running)
	// tick 2: Success (idle Idle)
	// tick 3: Running (idle Running)
	// tick 4: Running (idle Running)
	// shots: 1
}

// ExampleCompile shows the error for a bad spec.
func ExampleCompile() {
	_, err := bt.Compile("broken", bt.Sequence(bt.Wait(1), bt.Wait(-2)))
	fmt.Println(err)
	// Output:
	// bt: tree "broken": root/Sequence[1]/Wait: duration must be finite and >= 0, got -2
}
