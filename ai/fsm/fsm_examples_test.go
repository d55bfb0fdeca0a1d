package fsm_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/fsm"
)

// Example builds a guard's top-level modes once — Idle, Combat (with substates Approach
// and Attack) and Dead — and runs one guard through a fight.
func Example() {
	type guard struct {
		hp, enemyDist float64
		seen          bool
	}
	g := func(c *fsm.Context) *guard { return c.Agent.(*guard) }
	say := func(s string) func(*fsm.Context) { return func(*fsm.Context) { fmt.Println(" ", s) } }

	b := fsm.NewBuilder("guard")
	idle := b.State("Idle", fsm.Hooks{Enter: say("enter Idle"), Exit: say("exit Idle")})
	combat := b.State("Combat", fsm.Hooks{Enter: say("enter Combat"), Exit: say("exit Combat")})
	approach := b.Substate(combat, "Approach", fsm.Hooks{Enter: say("enter Approach"), Exit: say("exit Approach")})
	attack := b.Substate(combat, "Attack", fsm.Hooks{Enter: say("enter Attack"), Exit: say("exit Attack")})
	dead := b.State("Dead", fsm.Hooks{Enter: say("enter Dead")})

	b.When(idle, func(c *fsm.Context) bool { return g(c).seen }, combat)
	b.When(combat, func(c *fsm.Context) bool { return !g(c).seen }, idle)
	b.When(approach, func(c *fsm.Context) bool { return g(c).enemyDist < 2 }, attack)
	b.When(fsm.Any, func(c *fsm.Context) bool { return g(c).hp <= 0 }, dead)
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}

	agent := &guard{hp: 100, enemyDist: 9}
	var mem fsm.Memory // per agent, in a component
	ctx := &fsm.Context{Agent: agent, DT: 0.5}
	for tick := 1; tick <= 5; tick++ {
		agent.seen = tick >= 2
		agent.enemyDist -= 2
		if tick == 5 {
			agent.hp = 0
		}
		fmt.Printf("tick %d\n", tick)
		m.Update(&mem, ctx)
		fmt.Printf("  → %s\n", m.Name(mem.Active))
	}
	// Output:
	// tick 1
	//   enter Idle
	//   → Idle
	// tick 2
	//   exit Idle
	//   enter Combat
	//   enter Approach
	//   → Approach
	// tick 3
	//   → Approach
	// tick 4
	//   exit Approach
	//   enter Attack
	//   → Attack
	// tick 5
	//   exit Attack
	//   exit Combat
	//   enter Dead
	//   → Dead
}

// Example_timeInParent leaves Night after 8 s in Night while Night's substates change
// every 3 s. Memory.Elapsed is the time in the active leaf (Sleep or Snore) and never
// reaches 8; the time Night was entered, kept by its Enter hook in the agent's data,
// measures the time in Night.
func Example_timeInParent() {
	type villager struct{ nightSince float64 }
	v := func(c *fsm.Context) *villager { return c.Agent.(*villager) }

	b := fsm.NewBuilder("villager")
	night := b.State("Night", fsm.Hooks{Enter: func(c *fsm.Context) { v(c).nightSince = c.Time }})
	day := b.State("Day", fsm.Hooks{})
	sleep := b.Substate(night, "Sleep", fsm.Hooks{})
	snore := b.Substate(night, "Snore", fsm.Hooks{})
	b.When(sleep, func(c *fsm.Context) bool { return c.Memory.Elapsed >= 3 }, snore)
	b.When(snore, func(c *fsm.Context) bool { return c.Memory.Elapsed >= 3 }, sleep)
	b.When(night, func(c *fsm.Context) bool { return c.Time-v(c).nightSince >= 8 }, day)
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	var mem fsm.Memory
	ctx := &fsm.Context{Agent: &villager{}, DT: 1}
	for t := 0; t <= 9; t++ {
		ctx.Time = float64(t)
		m.Update(&mem, ctx)
		fmt.Printf("t=%d %s (Elapsed %g)\n", t, m.FullName(mem.Active), mem.Elapsed)
	}
	// Output:
	// t=0 Night/Sleep (Elapsed 0)
	// t=1 Night/Sleep (Elapsed 1)
	// t=2 Night/Sleep (Elapsed 2)
	// t=3 Night/Snore (Elapsed 0)
	// t=4 Night/Snore (Elapsed 1)
	// t=5 Night/Snore (Elapsed 2)
	// t=6 Night/Sleep (Elapsed 0)
	// t=7 Night/Sleep (Elapsed 1)
	// t=8 Day (Elapsed 0)
	// t=9 Day (Elapsed 1)
}
