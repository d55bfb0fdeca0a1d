package compare

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	gobt "github.com/joeycumines/go-behaviortree"
)

// runDesigns ticks n guards for rounds rounds of dt = 0.1 s on each design and returns
// the agents of each: archai, go-behaviortree, oop.
func runDesigns(t *testing.T, n, rounds int) (ours, gob, oop []guardAgent) {
	t.Helper()
	tree, err := bt.Compile("guard", guardTree())
	if err != nil {
		t.Fatal(err)
	}
	ours, gob, oop = guardAgents(n), guardAgents(n), guardAgents(n)
	mems := make([]bt.Memory, n)
	c := &clock{dt: 0.1}
	gtrees := make([]gobt.Node, n)
	otrees := make([]oNode, n)
	for i := range n {
		mems[i] = tree.NewMemory()
		gtrees[i] = gobtGuard(&gob[i], c)
		otrees[i] = oopGuard(&oop[i], c)
	}
	ctx := &bt.Context{DT: c.dt}
	for range rounds {
		ctx.Time = c.now
		for i := range n {
			ctx.Agent = &ours[i]
			tree.Tick(&mems[i], ctx)
			if _, err := gtrees[i].Tick(); err != nil {
				t.Fatal(err)
			}
			otrees[i].Tick()
		}
		c.now += c.dt
	}
	return ours, gob, oop
}

// TestDesignsAgree checks that the three designs do the same work, so that the benchmark
// compares like with like: after 10 s of simulation, the tutorial-style objects leave every
// agent exactly as archai does; go-behaviortree, which has no halt (a preempted flee or
// patrol is not told, so fleeing, shooting and the patrol's progress differ), agrees on
// what the tree decided: the health healed while fleeing and the shots fired.
func TestDesignsAgree(t *testing.T) {
	ours, gob, oop := runDesigns(t, 200, 100)
	fled, shot, neither := 0, 0, 0
	for i := range ours {
		if ours[i] != oop[i] {
			t.Errorf("agent %d: archai %+v, oop %+v", i, ours[i], oop[i])
		}
		if ours[i].health != gob[i].health || ours[i].ammo != gob[i].ammo {
			t.Errorf("agent %d: archai health %v ammo %d, go-behaviortree health %v ammo %d",
				i, ours[i].health, ours[i].ammo, gob[i].health, gob[i].ammo)
		}
		start := guardAgents(i + 1)[i]
		if ours[i].health > start.health {
			fled++
		}
		if ours[i].ammo < start.ammo {
			shot++
		}
		if ours[i].health == start.health && ours[i].ammo == start.ammo {
			neither++
		}
	}
	// the agents are varied enough that every branch matters
	if fled == 0 || shot == 0 || neither == 0 {
		t.Errorf("of %d agents %d fled, %d shot, %d did neither: every branch should run", len(ours), fled, shot, neither)
	}
}
