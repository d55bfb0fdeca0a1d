package bt

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guardAgent is the per-agent view the guard tree's leaves read and write.
type guardAgent struct {
	health, enemyDist float64
	ammo              int
	fleeing, shooting bool
	moved             float64
}

// guardTree is a typical guard: flee when hurt, shoot an enemy in range (with a
// cooldown), else patrol and pause.
func guardTree() *Node {
	agent := func(c *Context) *guardAgent { return c.Agent.(*guardAgent) }
	return ReactiveSelector(
		ReactiveSequence(
			Condition("hurt", func(c *Context) bool { return agent(c).health < 30 }),
			Action("flee", func(c *Context) Status {
				a := agent(c)
				a.fleeing = true
				a.health += 5 * c.DT
				return Running
			}).OnHalt(func(c *Context) { agent(c).fleeing = false }),
		),
		Sequence(
			Condition("enemy near", func(c *Context) bool { return agent(c).enemyDist < 10 }),
			Inverter(Condition("out of ammo", func(c *Context) bool { return agent(c).ammo == 0 })),
			Cooldown(0.5, Action("shoot", func(c *Context) Status {
				a := agent(c)
				a.ammo--
				a.shooting = true
				return Success
			})),
		),
		Sequence(
			Action("patrol", func(c *Context) Status {
				m := c.Node()
				m.Timer += c.DT
				agent(c).moved += c.DT
				if m.Timer >= 2 {
					return Success
				}
				return Running
			}).OnStart(func(c *Context) { agent(c).shooting = false }),
			Wait(1),
		),
	)
}

// guardAgents makes n agents in varied states and their memories.
func guardAgents(n int, tree *Tree) ([]guardAgent, []Memory) {
	agents := make([]guardAgent, n)
	mems := make([]Memory, n)
	for i := range agents {
		agents[i] = guardAgent{
			health:    float64(i*37%100) + 1,
			enemyDist: float64(i * 13 % 30),
			ammo:      1 << 30,
		}
		if tree != nil {
			mems[i] = tree.NewMemory()
		}
	}
	return agents, mems
}

func TestTickAllocatesNothing(t *testing.T) {
	tree, err := Compile("guard", guardTree())
	require.NoError(t, err)
	agents, mems := guardAgents(64, tree)
	ctx := &Context{DT: 0.25}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		k := i % len(agents)
		ctx.Agent = &agents[k]
		ctx.Time += ctx.DT / float64(len(agents))
		tree.Tick(&mems[k], ctx)
		if k == 0 {
			// Preempt some agents: hurt ones flee, healed ones stop fleeing.
			agents[i/len(agents)%len(agents)].health = 10
		}
		i++
	})
	assert.Zero(t, allocs)
	allocs = testing.AllocsPerRun(100, func() { tree.Halt(&mems[0], ctx) })
	assert.Zero(t, allocs)

	// Every branch was exercised.
	var flee, shoot, patrol, wait bool
	for k := range agents {
		flee = flee || mems[k].Nodes()[index(t, tree, "flee")].Status != Idle
		shoot = shoot || mems[k].Nodes()[index(t, tree, "shoot")].Status != Idle
		patrol = patrol || mems[k].Nodes()[index(t, tree, "patrol")].Status != Idle
		wait = wait || mems[k].Nodes()[index(t, tree, "Wait")].Status != Idle
	}
	assert.True(t, flee && shoot && patrol && wait, "flee %v shoot %v patrol %v wait %v", flee, shoot, patrol, wait)
}

// BenchmarkTickGuard reports ns per agent tick: each op ticks one of 10,000 agents.
func BenchmarkTickGuard(b *testing.B) {
	tree, err := Compile("guard", guardTree())
	if err != nil {
		b.Fatal(err)
	}
	const n = 10000
	agents, mems := guardAgents(n, tree)
	ctx := &Context{DT: 0.1}
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for b.Loop() {
		ctx.Agent = &agents[k]
		tree.Tick(&mems[k], ctx)
		k++
		if k == n {
			k = 0
			ctx.Time += 0.1
		}
	}
	b.ReportMetric(float64(tree.Len()), "nodes/tree")
}

func TestConcurrentTickOnDistinctMemory(t *testing.T) {
	tree, err := Compile("guard", guardTree())
	require.NoError(t, err)
	const workers, perWorker = 4, 256
	agents, mems := guardAgents(workers*perWorker, tree)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			ctx := &Context{DT: 0.25}
			for step := range 40 {
				ctx.Time = float64(step) * ctx.DT
				for k := w * perWorker; k < (w+1)*perWorker; k++ {
					ctx.Agent = &agents[k]
					tree.Tick(&mems[k], ctx)
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	// Sequential replay gives the same memories.
	agents2, mems2 := guardAgents(workers*perWorker, tree)
	ctx := &Context{DT: 0.25}
	for step := range 40 {
		ctx.Time = float64(step) * ctx.DT
		for k := range agents2 {
			ctx.Agent = &agents2[k]
			tree.Tick(&mems2[k], ctx)
		}
	}
	assert.Equal(t, agents2, agents)
	for k := range mems {
		assert.Equal(t, mems2[k].Nodes(), mems[k].Nodes())
	}
}

// BenchmarkFingerprint: a chain of Inverters fingerprinted by Tree.Fingerprint and by
// FNV-1a over its Dump's text (as save did before), side by side; ns per node.
func BenchmarkFingerprint(b *testing.B) {
	for _, depth := range []int{100, 1000, 10000} {
		n := AlwaysSuccess()
		for range depth {
			n = Inverter(n)
		}
		tree, err := Compile("deep", n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("depth=%d/Fingerprint", depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tree.Fingerprint()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tree.Len()), "ns/node")
		})
		b.Run(fmt.Sprintf("depth=%d/FNVofDump", depth), func(b *testing.B) {
			b.ReportAllocs()
			h := fnv.New64a()
			for b.Loop() {
				h.Reset()
				_ = tree.Dump(h, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tree.Len()), "ns/node")
		})
	}
}
