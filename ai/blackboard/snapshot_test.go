package blackboard_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pair struct{ A, B float64 }

func TestSlotsRoundTripEveryClassAndNaN(t *testing.T) {
	s := blackboard.NewSchema()
	f := blackboard.MustDeclare[float64](s, "f")
	p := blackboard.MustDeclare[pair](s, "p")
	str := blackboard.MustDeclare[string](s, "s")
	list := blackboard.MustDeclare[[]int](s, "list")
	gone := blackboard.MustDeclare[int](s, "gone")
	st := s.NewStore()
	blackboard.Set(st, f, math.NaN())
	blackboard.Set(st, p, pair{math.Inf(-1), 2})
	blackboard.Set(st, str, "hi")
	blackboard.Set(st, list, []int{1, 2})
	blackboard.Set(st, gone, 3)
	blackboard.Set(st, gone, 4)
	blackboard.Unset(st, gone)

	slots, err := st.Slots()
	require.NoError(t, err)
	back, err := s.StoreFromSlots(slots)
	require.NoError(t, err)
	v, ok := blackboard.Get(back, f)
	assert.True(t, ok && math.IsNaN(v))
	pv, _ := blackboard.Get(back, p)
	assert.Equal(t, pair{math.Inf(-1), 2}, pv)
	sv, _ := blackboard.Get(back, str)
	assert.Equal(t, "hi", sv)
	lv, _ := blackboard.Get(back, list)
	assert.Equal(t, []int{1, 2}, lv)
	_, ok = blackboard.Get(back, gone)
	assert.False(t, ok)
	seq, _ := blackboard.Seq(back, gone)
	assert.Equal(t, uint64(2), seq, "write counts survive")

	_, err = s.StoreFromSlots([]blackboard.Slot{{Key: "nope", Set: true}})
	assert.ErrorIs(t, err, blackboard.ErrUnknownKey)
	_, err = s.StoreFromSlots([]blackboard.Slot{{Key: "p", Set: true, Words: []uint64{1}}})
	assert.ErrorIs(t, err, blackboard.ErrBadSlot)
	assert.ErrorContains(t, err, `"p"`)
	_, err = s.StoreFromSlots([]blackboard.Slot{{Key: "list", Set: true, Value: []byte(`"x"`)}})
	assert.ErrorIs(t, err, blackboard.ErrBadSlot)
}
