package fsm

import "testing"

// BenchmarkGuardUpdate measures one agent's update of a three-mode machine with a
// nested state, an any-state row and guard rows: one op is one agent.
func BenchmarkGuardUpdate(b *testing.B) {
	type agent struct{ hp, enemy float64 }
	bl := NewBuilder("guard")
	idle := bl.State("Idle", Hooks{})
	combat := bl.State("Combat", Hooks{})
	bl.Substate(combat, "Engage", Hooks{Update: func(c *Context) StateID {
		c.Agent.(*agent).enemy--
		return None
	}})
	dead := bl.State("Dead", Hooks{})
	bl.When(idle, func(c *Context) bool { return c.Agent.(*agent).enemy > 0 }, combat)
	bl.When(combat, func(c *Context) bool { return c.Agent.(*agent).enemy <= 0 }, idle)
	bl.When(Any, func(c *Context) bool { return c.Agent.(*agent).hp <= 0 }, dead)
	m, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	agents := make([]agent, 1024)
	mems := make([]Memory, 1024)
	for i := range agents {
		agents[i] = agent{hp: 100, enemy: float64(i % 5)}
	}
	ctx := &Context{DT: 0.1}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i & 1023
		a := &agents[k]
		if i&63 == 0 {
			a.enemy = 3
		}
		ctx.Agent = a
		m.Update(&mems[k], ctx)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/agent")
}
