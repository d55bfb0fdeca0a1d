package fsm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// On random hierarchical machines whose hooks, guards and observer panic now and then,
// driven by random Updates, Dispatches and Stops, the states whose Enter was called and
// whose Exit was not since are always exactly the Memory's active path (Active and its
// ancestors; none for a stopped machine) after every call, returned or panicked, but
// for the documented completion: Active may be a state with substates, entered by the
// next call before anything else. No state is entered twice without an Exit between,
// nor exited without being active.
func TestPanickingHooksKeepTheActivePathTrue(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		n := 2 + rng.IntN(9)
		entered := make([]bool, n+1)
		var fail error
		boom := func() {
			if rng.IntN(9) == 0 {
				panic("boom")
			}
		}
		b := NewBuilder("prop")
		st := func(i int) StateID { return b.tag | StateID(i) } // the StateID of index i
		for i := 1; i <= n; i++ {
			id := i
			h := Hooks{
				Enter: func(*Context) {
					if entered[id] && fail == nil {
						fail = fmt.Errorf("state %d entered twice", id)
					}
					entered[id] = true
					boom()
				},
				Exit: func(*Context) {
					if !entered[id] && fail == nil {
						fail = fmt.Errorf("state %d exited while not entered", id)
					}
					entered[id] = false
					boom()
				},
				Update: func(*Context) StateID {
					boom()
					if rng.IntN(4) == 0 {
						return st(1 + rng.IntN(n))
					}
					return None
				},
			}
			if i == 1 || rng.IntN(3) == 0 {
				b.State(fmt.Sprint(i), h)
			} else {
				b.Substate(st(1+rng.IntN(i-1)), fmt.Sprint(i), h)
			}
		}
		for range 2 * n {
			from := st(1 + rng.IntN(n))
			if rng.IntN(5) == 0 {
				from = Any
			}
			b.Transition(Transition{From: from, Event: Event(rng.IntN(3)), To: st(1 + rng.IntN(n)),
				Guard: func(*Context) bool { boom(); return rng.IntN(2) == 0 }})
		}
		b.Observe(func(*Context, StateID, StateID) { boom() })
		m, err := b.Build()
		require.NoError(t, err)

		var mem Memory
		ctx := &Context{DT: 0.1}
		for step := range 400 {
			func() {
				defer func() { _ = recover() }()
				switch r := rng.IntN(10); {
				case r < 6:
					m.Update(&mem, ctx)
				case r < 9:
					m.Dispatch(&mem, ctx, Event(1+rng.IntN(2)))
				default:
					m.Stop(&mem, ctx)
				}
			}()
			require.NoError(t, fail, "seed %d step %d", seed, step)
			for id := 1; id <= n; id++ {
				require.Equal(t, m.IsActive(&mem, st(id)), entered[id], "seed %d step %d: state %d (Active %d)", seed, step, id, mem.Active.Index())
			}
			require.Nil(t, ctx.Memory)
			require.False(t, ctx.f.busy)
		}
	}
}
