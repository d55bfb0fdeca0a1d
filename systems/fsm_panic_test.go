package systems_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An Update hook that panics on one agent's third update, the program recovering from
// FSM's Update and running on: that agent's Memory.Elapsed already held the update's DT,
// but its Think.Last stayed, so its next update added the same 0.05 s again (0.65 s in
// state against its neighbour's 0.60 s, for 1 and 2 workers). It counts as having
// thought now: both agents agree, and the system runs on.
func TestFSMHookPanicCountsNoSecondTwice(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			const victim = 20
			var mu sync.Mutex
			updates := make([]int, 64)
			armed := true
			b := fsm.NewBuilder("p")
			b.State("a", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
				id := systems.StateAgent(c).Entity.ID()
				mu.Lock()
				defer mu.Unlock()
				if updates[id]++; armed && id == victim && updates[id] == 3 {
					armed = false
					panic("boom")
				}
				return fsm.None
			}})
			m, err := b.Build()
			require.NoError(t, err)
			world := arche.NewWorld()
			w := &world
			mp := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
			for range 50 {
				sm, th, _, _ := mp.Get(mp.New())
				*sm, *th = components.StateMachine{Machine: m}, components.Think{Interval: 0.05}
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), &systems.FSM{Workers: workers})
			s.Initialize(w)
			defer s.Finalize(w)
			func() {
				defer func() { assert.Equal(t, "boom", recover()) }()
				s.Run(w, 5)
			}()
			s.Run(w, 10)
			sms := generic.NewMap[components.StateMachine](w)
			var before, at arche.Entity
			q := generic.NewFilter1[components.StateMachine]().Query(w)
			for q.Next() {
				switch q.Entity().ID() {
				case victim - 1:
					before = q.Entity()
				case victim:
					at = q.Entity()
				}
			}
			require.False(t, before.IsZero() || at.IsZero())
			assert.InDelta(t, 0.6, sms.Get(before).Memory.Elapsed, 1e-9)
			assert.Equal(t, sms.Get(before).Memory.Elapsed, sms.Get(at).Memory.Elapsed, "the panicked update's seconds counted once")
		})
	}
}
