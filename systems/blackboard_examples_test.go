package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/system"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Groot2-style XML tree with ports, SetBlackboard, CheckBlackboard and a SubTree runs
// in an arche-model world under systems.Decision, on agents spawned from the public
// Thinker bundle (whose Blackboard store has the registry's schema); each agent's writes
// land in its own Blackboard component.
func Example_blackboardTree() {
	const patrol = `<root BTCPP_format="4" main_tree_to_execute="Patrol">
  <BehaviorTree ID="Patrol">
    <ReactiveFallback>
      <CheckBlackboard value_A="{laps}" op="&gt;=" value_B="3"/>
      <ReactiveSequence>
        <SetBlackboard value="2" output_key="step"/>
        <SubTree ID="Lap" by="{step}" count="{laps}"/>
        <SetBlackboard value="{post}" output_key="goal"/>
        <GoTo goal="{goal}"/>
      </ReactiveSequence>
    </ReactiveFallback>
  </BehaviorTree>
  <BehaviorTree ID="Lap">
    <Add a="{count}" b="{by}" out="{count}"/>
  </BehaviorTree>
</root>`
	reg := bt.NewRegistry(nil)
	_ = reg.RegisterAction("Add", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		a, b, out := bt.InputPort[int](p, "a"), bt.InputPort[int](p, "b"), bt.OutputPort[int](p, "out")
		return func(c *bt.Context) bt.Status {
			x, _ := a.Get(c) // not set yet: 0
			y, _ := b.Get(c)
			out.Set(c, x+y)
			return bt.Success
		}, nil
	})
	_ = reg.RegisterAction("GoTo", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		goal := bt.InputPort[r2.Vec](p, "goal")
		return func(c *bt.Context) bt.Status {
			g, ok := goal.Get(c)
			if !ok {
				return bt.Failure
			}
			in := systems.AgentOf(c).Intent
			in.Move, in.Goal = true, g
			return bt.Running
		}, nil
	})
	main, err := reg.LoadXML("patrol.xml", []byte(patrol))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := reg.Tree(main)
	if err != nil {
		fmt.Println(err)
		return
	}
	post, _ := blackboard.Lookup[r2.Vec](reg.Schema(), "post")

	m := model.New()
	guards, err := systems.NewSpawner(&m.World, systems.Thinker{Tree: tree, Registry: reg, Interval: 0.1})
	if err != nil {
		fmt.Println(err)
		return
	}
	var ids []arche.Entity
	for i := range 2 {
		ids = append(ids, guards.Spawn(r2.Vec{X: 1.5, Y: 1.5}, func(a *systems.Spawned) {
			blackboard.Set(a.Blackboard.Store, post, r2.Vec{X: float64(4 * i), Y: 1})
		}))
	}
	m.AddSystem(ecs.NewClockSystem(0.05))
	m.AddSystem(&systems.Decision{})
	m.AddSystem(&system.FixedTermination{Steps: 6}) // 0.3 s: each guard thinks three times (staggered)
	m.Run()

	boards := generic.NewMap[components.Blackboard](&m.World)
	brains := generic.NewMap[components.Brain](&m.World)
	for i, e := range ids {
		st := boards.Get(e).Store
		laps, _ := st.Value("laps")
		goal, _ := st.Value("goal")
		fmt.Printf("guard %d: laps=%v goal=%v tree %v\n", i, laps, goal, brains.Get(e).Memory.Status(0))
	}
	// Output:
	// guard 0: laps=4 goal={0 1} tree Success
	// guard 1: laps=4 goal={4 1} tree Success
}
