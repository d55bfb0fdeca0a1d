package compare

import (
	"github.com/archai-go/archai/ai/bt"
)

// compareAgents is the number of agents each design ticks, round-robin.
const compareAgents = 10000

// epsilon is the tolerance of the hand-written timers' comparisons, the same as archai's
// Wait and Cooldown use, so that sums of dt reach whole seconds on the same tick.
const epsilon = 1e-9

// guardAgent is the per-agent view the guard tree's leaves read and write.
type guardAgent struct {
	health, enemyDist float64
	ammo              int
	fleeing, shooting bool
	moved             float64
}

// guardTree is the guard on archai: flee when hurt, shoot an enemy in range (with a
// cooldown), else patrol for 2 s and pause for 1 s.
func guardTree() *bt.Node {
	agent := func(c *bt.Context) *guardAgent { return c.Agent.(*guardAgent) }
	return bt.ReactiveSelector(
		bt.ReactiveSequence(
			bt.Condition("hurt", func(c *bt.Context) bool { return agent(c).health < 30 }),
			bt.Action("flee", func(c *bt.Context) bt.Status {
				a := agent(c)
				a.fleeing = true
				a.health += 5 * c.DT
				return bt.Running
			}).OnHalt(func(c *bt.Context) { agent(c).fleeing = false }),
		),
		bt.Sequence(
			bt.Condition("enemy near", func(c *bt.Context) bool { return agent(c).enemyDist < 10 }),
			bt.Inverter(bt.Condition("out of ammo", func(c *bt.Context) bool { return agent(c).ammo == 0 })),
			bt.Cooldown(0.5, bt.Action("shoot", func(c *bt.Context) bt.Status {
				a := agent(c)
				a.ammo--
				a.shooting = true
				return bt.Success
			})),
		),
		bt.Sequence(
			bt.Action("patrol", func(c *bt.Context) bt.Status {
				m := c.Node()
				m.Timer += c.DT
				agent(c).moved += c.DT
				if m.Timer >= 2 {
					return bt.Success
				}
				return bt.Running
			}).OnStart(func(c *bt.Context) { agent(c).shooting = false }),
			bt.Wait(1),
		),
	)
}

// guardAgents makes n agents in varied states: some hurt, some with an enemy in range.
func guardAgents(n int) []guardAgent {
	agents := make([]guardAgent, n)
	for i := range agents {
		agents[i] = guardAgent{
			health:    float64(i*37%100) + 1,
			enemyDist: float64(i * 13 % 30),
			ammo:      1 << 30,
		}
	}
	return agents
}

// clock is the simulation clock the per-agent designs read.
type clock struct{ dt, now float64 }

// step advances agent index k round-robin and the clock after each full round.
func step(k *int, c *clock) {
	*k++
	if *k == compareAgents {
		*k = 0
		c.now += c.dt
	}
}
