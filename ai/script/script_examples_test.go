package script_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"
)

type weapon int

const (
	pistol weapon = iota + 1
	rifle
)

// A guard's blackboard, a condition and a script compiled once, then run on an agent.
func Example() {
	schema := blackboard.NewSchema()
	hp := blackboard.MustDeclare[int](schema, "hp")
	ammo := blackboard.MustDeclare[int](schema, "ammo")
	gun := blackboard.MustDeclare[weapon](schema, "weapon")
	env := &script.Env{
		Schema: schema,
		Enums:  map[string]int{"PISTOL": int(pistol), "RIFLE": int(rifle)},
		Where:  "guard.xml:7",
	}
	canShoot := script.MustCompile("hp > 10 && ammo >= 1 && weapon == RIFLE", env)
	shoot := script.MustCompile("ammo -= 1; shots := 3 - ammo; 'shots fired: ' .. shots", env)

	agent := schema.NewStore()
	blackboard.Set(agent, hp, 80)
	blackboard.Set(agent, ammo, 2)
	blackboard.Set(agent, gun, rifle)
	for range 3 {
		ok, err := canShoot.Bool(agent)
		if err != nil || !ok {
			fmt.Println("cannot shoot", err)
			break
		}
		v, err := shoot.Run(agent)
		fmt.Println(v, err)
	}

	_, err := script.Compile("hp > 10 && amo >= 1", env)
	fmt.Println(err)
	// Output:
	// shots fired: 2 <nil>
	// shots fired: 3 <nil>
	// cannot shoot <nil>
	// guard.xml:7: script col 12: unknown entry "amo" in `hp > 10 && amo >= 1`
}

// Env.Resolve maps a SubTree's names to the keys of the agent's store, and @names to the
// root blackboard.
func ExampleEnv_resolve() {
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[int](schema, "alarm")
	env := &script.Env{
		Schema: schema,
		Resolve: func(name string, root bool) (script.Binding, error) {
			if root {
				return script.Binding{Key: name}, nil
			}
			if name == "threshold" { // a port remapped to a literal
				return script.Binding{Const: script.IntValue(2), IsConst: true}, nil
			}
			return script.Binding{Key: "Patrol#1." + name}, nil
		},
	}
	p := script.MustCompile("seen := @alarm + 1; seen > threshold", env)
	st := schema.NewStore()
	blackboard.Set(st, blackboard.MustDeclare[int](schema, "alarm"), 2)
	v, err := p.Run(st)
	fmt.Println(v, err, schema.Type("Patrol#1.seen"))
	// Output: true <nil> int
}
