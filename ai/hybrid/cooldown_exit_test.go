package hybrid_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
)

// A Cooldown(10 s) inside a TreeState keeps cooling down when the state is left (Exit
// halts the tree; Tree.Halt keeps a cooldown): an FSM that flips Combat -> Search ->
// Combat throws one grenade in 1 s. Before, Tree.Halt reset the cooldown too, and the
// agent threw one on every entry (a reviewer).
func TestACooldownOutlastsItsStatesExit(t *testing.T) {
	throws := 0
	tree, err := bt.Compile("combat", bt.Cooldown(10, bt.Action("Grenade", func(*bt.Context) bt.Status { throws++; return bt.Success })))
	if err != nil {
		t.Fatal(err)
	}
	var run hybrid.TreeRun
	flip := false
	b := fsm.NewBuilder("m")
	combat := b.State("Combat", hybrid.TreeState(tree, func(*fsm.Context) *hybrid.TreeRun { return &run }, nil))
	search := b.State("Search", fsm.Hooks{})
	b.When(combat, func(*fsm.Context) bool { return flip }, search)
	b.When(search, func(*fsm.Context) bool { return !flip }, combat)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var mem fsm.Memory
	ctx := &fsm.Context{DT: 0.1}
	for i := 0; i < 10; i++ { // 1 s of simulation
		ctx.Time = float64(i) * 0.1
		flip = i%2 == 1
		m.Update(&mem, ctx)
	}
	if throws != 1 {
		t.Errorf("Cooldown(10 s) let the child run %d times in 1 s", throws)
	}
}
