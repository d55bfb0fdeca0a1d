package bt_test

import (
	"fmt"
	"os"

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

// ExampleRegistry_LoadXML loads a BehaviorTree.CPP v4 tree with a registered leaf whose
// ports bind to the blackboard, ticks one agent and prints its transition log.
func ExampleRegistry_LoadXML() {
	const doc = `<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="reload">
      <Sleep msec="500"/>
      <SetAmmo count="{ammo}" value="6"/>
    </Sequence>
  </BehaviorTree>
</root>`
	reg := bt.NewRegistry(nil)
	_ = reg.RegisterAction("SetAmmo", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		out := bt.OutputPort[int](p, "count")
		v := bt.InputPort[int](p, "value")
		return func(c *bt.Context) bt.Status {
			n, _ := v.Get(c)
			out.Set(c, n)
			return bt.Success
		}, nil
	})
	main, err := reg.LoadXML("reload.xml", []byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := reg.Tree(main)
	if err != nil {
		fmt.Println(err)
		return
	}
	store := reg.Schema().NewStore()
	mem := tree.NewMemory()
	tracer := bt.NewTracer(tree, 0)
	ctx := &bt.Context{DT: 0.25, Blackboard: store}
	for tick := 1; tick <= 3; tick++ {
		ctx.Time = float64(tick) * ctx.DT
		tracer.Tick(&mem, ctx)
	}
	_ = tracer.WriteLog(os.Stdout)
	ammo, _ := store.Value("ammo")
	fmt.Println("ammo:", ammo)

	// Output:
	// t=0.250   [0]    Sequence "reload"              Idle → Running
	// t=0.250   [1]    Sleep                          Idle → Running
	// t=0.750   [0]    Sequence "reload"              Running → Success
	// t=0.750   [1]    Sleep                          Running → Success
	// t=0.750   [2]    SetAmmo                        Idle → Success
	// ammo: 6
}

// ExampleChoose lets a function (here a fixed score table, in a game a utility reasoner)
// pick the branch each tick; the branch it leaves is halted first.
func ExampleChoose() {
	scores := [][2]float64{{0.9, 0.2}, {0.1, 0.7}}
	tick := 0
	best := func(*bt.Context) int {
		s := scores[tick]
		if s[1] > s[0] {
			return 1
		}
		return 0
	}
	work := func(name string) *bt.Node {
		return bt.Action(name, func(*bt.Context) bt.Status { fmt.Println("tick", name); return bt.Running }).
			OnHalt(func(*bt.Context) { fmt.Println("halt", name) })
	}
	tree, _ := bt.Compile("hybrid", bt.Choose("utility", best, work("eat"), work("sleep")))
	mem := tree.NewMemory()
	for tick = 0; tick < 2; tick++ {
		tree.Tick(&mem, &bt.Context{})
	}
	// Output:
	// tick eat
	// halt eat
	// tick sleep
}

// ExampleRegistry_LoadDocument loads a project as Groot2 saves it: several trees and no
// main_tree_to_execute, an included file, a model of the user's leaf. Every tree is
// registered; the program builds the one it wants by ID.
func ExampleRegistry_LoadDocument() {
	reg := bt.NewRegistry(nil)
	_ = reg.RegisterAction("Patrol", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		bt.InputPort[float64](p, "speed")
		bt.InputPortDefault[string](p, "goal", "{@post}") // the agent's root blackboard
		return func(*bt.Context) bt.Status { return bt.Running }, nil
	})
	doc, err := reg.LoadDocument("testdata/project/guard.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("main %q, trees %v\n", doc.Main, doc.Trees)
	if _, err := doc.MainTree(); err != nil {
		fmt.Println(err)
	}
	tree, err := reg.Tree("Guard")
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = tree.Dump(os.Stdout, nil)

	// Output:
	// main "", trees [Flee Guard Rest]
	// bt: testdata/project/guard.xml: root: no main tree: no main_tree_to_execute and 3 trees ("Flee", "Guard", "Rest"): build one by ID with Registry.Tree
	// Fallback
	// ├── SubTree "flee"
	// │   └── Sequence
	// │       ├── Patrol
	// │       └── Sleep
	// └── RetryUntilSuccessful
	//     └── Patrol
}
