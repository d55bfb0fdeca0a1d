package fsm

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A machine of MaxStates states in a ring, two rows each (an event row and a guard row,
// added in reverse order of states), builds and runs: each state's rows in the order
// added, the last state's too. Build grouped the rows with a loop over the rows for each
// state: 7.7 s for 60,000 states and 60,000 rows (quadratic); linear now.
func TestMachineOfMaxStatesBuildsAndRuns(t *testing.T) {
	const evNext, evBack Event = 1, 2
	b := NewBuilder("ring")
	for i := range MaxStates {
		b.State("s"+strconv.Itoa(i), Hooks{}) // siblings need distinct names
	}
	n := b.tag | StateID(MaxStates)
	next := func(s StateID) StateID { return b.tag | (s&0xffff)%StateID(MaxStates) + 1 }
	for s := n; s > b.tag; s-- {
		b.On(s, evNext, next(s))
		b.On(s, evNext, s) // never taken: the row above comes first
		b.On(s, evBack, max(s-1, b.tag|1))
	}
	m, err := b.Build()
	require.NoError(t, err)
	assert.Equal(t, MaxStates, m.Len())

	var mem Memory
	ctx := &Context{}
	m.Update(&mem, ctx)
	assert.Equal(t, m.State(1), mem.Active)
	require.True(t, m.Dispatch(&mem, ctx, evNext))
	assert.Equal(t, m.State(2), mem.Active)
	mem = Memory{Active: n, Transitions: 1}
	require.True(t, m.Dispatch(&mem, ctx, evNext))
	assert.Equal(t, m.State(1), mem.Active, "the last state's row wraps round")
	mem = Memory{Active: n, Transitions: 1}
	require.True(t, m.Dispatch(&mem, ctx, evBack))
	assert.Equal(t, n-1, mem.Active)
}
