package bt_test

import (
	"fmt"
	"os"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/script"
)

// A tree from Groot2 with scripts and pre- and post-conditions: the guard reloads when its
// magazine is empty, shoots while it has ammo, and counts its shots. The scripts compile
// once, when the tree is built; a tick allocates nothing.
func ExampleRegistry_scripts() {
	const doc = `<root BTCPP_format="4" main_tree_to_execute="Guard">
	  <BehaviorTree ID="Guard">
	    <Sequence>
	      <Script code="shots := 0; ammo := 2" _skipIf="started"/>
	      <Fallback>
	        <ScriptCondition code="ammo &gt; 0" _onSuccess="ammo -= 1; shots += 1"/>
	        <Script code="ammo := 3" _onSuccess="reloads += 1"/>
	      </Fallback>
	    </Sequence>
	  </BehaviorTree>
	</root>`
	reg := bt.NewRegistry(nil)
	started := blackboard.MustDeclare[bool](reg.Schema(), "started")
	reloads := blackboard.MustDeclare[int](reg.Schema(), "reloads")
	main, err := reg.LoadXML("guard.xml", []byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := reg.Tree(main)
	if err != nil {
		fmt.Println(err)
		return
	}
	agent := reg.Schema().NewStore()
	blackboard.Set(agent, reloads, 0)
	blackboard.Set(agent, started, false)
	mem := tree.NewMemory()
	ctx := &bt.Context{Blackboard: agent}
	for range 4 {
		tree.Tick(&mem, ctx)
		blackboard.Set(agent, started, true)
	}
	for _, name := range []string{"shots", "ammo", "reloads"} {
		v, _ := agent.Value(name)
		fmt.Println(name, v)
	}
	_ = tree.Dump(os.Stdout, &mem)

	// A mistake is a load error with file, line and column.
	_, err = reg.LoadXML("bad.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="Bad">
	  <AlwaysSuccess _skipIf="amo == 0"/>
	</BehaviorTree></root>`))
	if err == nil {
		_, err = reg.Tree("Bad")
	}
	fmt.Println(err)

	// Output:
	// shots 3
	// ammo 2
	// reloads 1
	// Sequence                                     Success
	// ├── Script _skipIf="started"                 Skipped
	// └── Fallback                                 Success
	//     ├── ScriptCondition _onSuccess="ammo -= 1; shots += 1" Success
	//     └── Script _onSuccess="reloads += 1"     Success
	// bt: bad.xml:2: AlwaysSuccess: script error: _skipIf: script col 1: unknown entry "amo" in `amo == 0`
}

// Conditions in Go: a node skipped while the agent is not alerted, with a post-condition.
func ExampleNode_SkipIf() {
	schema := blackboard.NewSchema()
	alert := blackboard.MustDeclare[bool](schema, "alert")
	patrols := blackboard.MustDeclare[int](schema, "patrols")
	env := &script.Env{Schema: schema}
	tree, err := bt.Compile("patrol", bt.Sequence(
		bt.AlwaysSuccess().Named("look around").SkipIf(script.MustCompile("!alert", env)),
		bt.AlwaysSuccess().Named("patrol").Post(script.MustCompile("patrols += 1", env)),
	))
	if err != nil {
		fmt.Println(err)
		return
	}
	agent := schema.NewStore()
	blackboard.Set(agent, patrols, 0)
	mem := tree.NewMemory()
	ctx := &bt.Context{Blackboard: agent}
	for _, a := range []bool{false, true} {
		blackboard.Set(agent, alert, a)
		tree.Tick(&mem, ctx)
		n, _ := blackboard.Get(agent, patrols)
		fmt.Printf("alert %v: look around %v, patrols %d\n", a, mem.Status(1), n)
	}
	// Output:
	// alert false: look around Skipped, patrols 1
	// alert true: look around Success, patrols 2
}
