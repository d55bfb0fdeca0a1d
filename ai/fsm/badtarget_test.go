package fsm

import "testing"

// TestUpdateHookReturningNoStateIsCounted: an Update hook that returns a StateID
// that is no state of the machine (another machine's ID, Any, a number out of
// range) cannot transition anywhere: the machine stays where it is, the hooks
// below are skipped for that update, as before, and the Context now counts it
// (it used to be dropped without a trace: a typo in a hook left the agent in its
// state for good).
func TestUpdateHookReturningNoStateIsCounted(t *testing.T) {
	// 0: this machine's B; 3: a number written by hand (B's index, no tag); 999; Any;
	// another machine's state of index 3 (newbie18: it moved the machine to B).
	other := NewBuilder("other")
	other.State("X", Hooks{})
	other.State("Y", Hooks{})
	otherThird := other.State("Z", Hooks{})
	for _, ret := range []StateID{0, 3, 999, Any, otherThird} {
		b := NewBuilder("m")
		var below int
		var ret2 StateID = ret
		a := b.State("A", Hooks{Update: func(*Context) StateID { return ret2 }})
		b.Substate(a, "A1", Hooks{Update: func(*Context) StateID { below++; return None }})
		bID := b.State("B", Hooks{}) // indices 1 A, 2 A1, 3 B
		if ret == 0 {
			ret2 = bID
		}
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		var mem Memory
		ctx := &Context{DT: 0.1}
		m.Update(&mem, ctx)
		m.Update(&mem, ctx)
		if ret == 0 { // a real state: taken, and nothing counted
			if m.Name(mem.Active) != "B" || ctx.BadTargets() != 0 {
				t.Fatalf("return B: active %s, BadTargets %d; want B, 0", m.Name(mem.Active), ctx.BadTargets())
			}
			continue
		}
		if m.Name(mem.Active) != "A1" || below != 0 {
			t.Fatalf("return %d: active %s, hooks below ran %d times; want A1, 0", ret, m.Name(mem.Active), below)
		}
		if got := ctx.BadTargets(); got != 2 {
			t.Fatalf("return %d: BadTargets %d after two updates; want 2", ret, got)
		}
	}
}
