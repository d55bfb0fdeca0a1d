package blackboard_test

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memo holds pointers (so a Store boxes it and saves it as JSON) and an unexported field.
type memo struct {
	Targets []int
	count   int
}

type shape interface{ Area() float64 }

type square struct{ Side float64 }

func (s square) Area() float64 { return s.Side * s.Side }

// A boxed value that JSON cannot carry whole is an error of Slots (so of a save), naming
// the key and what would be lost. It used to save in silence what JSON kept: memo's
// unexported count was written as nothing and loaded as 0; a shape (an interface type)
// was written as {"Side":2} and could not be loaded at all, so the save was lost.
func TestSlotsRefuseValuesJSONCannotCarry(t *testing.T) {
	s := blackboard.NewSchema()
	m := blackboard.MustDeclare[memo](s, "memo")
	sh := blackboard.MustDeclare[shape](s, "shape")
	st := s.NewStore()

	blackboard.Set(st, m, memo{Targets: []int{4}, count: 7})
	_, err := st.Slots()
	require.Error(t, err)
	assert.ErrorIs(t, err, blackboard.ErrNotSavable)
	assert.ErrorContains(t, err, `"memo"`)
	assert.ErrorContains(t, err, "unexported field count")

	blackboard.Unset(st, m)
	blackboard.Set(st, sh, shape(square{2}))
	_, err = st.Slots()
	assert.ErrorIs(t, err, blackboard.ErrNotSavable)
	assert.ErrorContains(t, err, `"shape"`)

	// a nil interface value saves (as null) and loads back
	blackboard.Set(st, sh, nil)
	slots, err := st.Slots()
	require.NoError(t, err)
	back, err := s.StoreFromSlots(slots)
	require.NoError(t, err)
	v, ok := blackboard.Get(back, sh)
	assert.True(t, ok)
	assert.Nil(t, v)
}

// exported is every other boxed shape a program uses: exported fields, pointers, maps,
// types with their own JSON (time.Time), fields tagged "-" (the program's choice).
type exported struct {
	Name  string
	Next  *exported
	Tags  map[string][]float64
	When  time.Time
	Cache []byte `json:"-"`
}

type withEmbedded struct {
	inner // unexported embedded struct: its exported fields are promoted and saved
	List  []int
}

type inner struct{ X, Y int }

func TestSlotsSaveValuesJSONCarries(t *testing.T) {
	s := blackboard.NewSchema()
	e := blackboard.MustDeclare[exported](s, "e")
	w := blackboard.MustDeclare[withEmbedded](s, "w")
	when := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	st := s.NewStore()
	blackboard.Set(st, e, exported{Name: "a", Next: &exported{Name: "b", When: when}, Tags: map[string][]float64{"t": {1}}, When: when})
	blackboard.Set(st, w, withEmbedded{inner: inner{1, 2}, List: []int{3}})
	slots, err := st.Slots()
	require.NoError(t, err, fmt.Sprint(slots))
	back, err := s.StoreFromSlots(slots)
	require.NoError(t, err)
	ev, _ := blackboard.Get(back, e)
	assert.Equal(t, "b", ev.Next.Name)
	assert.True(t, ev.When.Equal(when))
	wv, _ := blackboard.Get(back, w)
	assert.Equal(t, withEmbedded{inner: inner{1, 2}, List: []int{3}}, wv)
}

type flags struct {
	Speed float64
	Armed bool
	Seen  [2]bool
}

// A saved word holding a byte other than 0 or 1 where the type has a bool is an error
// naming the key, at any depth (it was caught only for a bool key itself): a bool field
// loaded as 2 was both true (== true) and false (!b), as the compiler assumes 0 or 1.
func TestStoreFromSlotsRefusesABadBoolInAStruct(t *testing.T) {
	s := blackboard.NewSchema()
	k := blackboard.MustDeclare[flags](s, "flags")
	// Speed in word 0; Armed, Seen[0] and Seen[1] in the first three bytes of word 1
	word := func(b ...byte) uint64 {
		var w [8]byte
		copy(w[:], b)
		return binary.NativeEndian.Uint64(w[:])
	}
	for _, w1 := range []uint64{word(2), word(0, 2), word(1, 1, 255)} {
		_, err := s.StoreFromSlots([]blackboard.Slot{{Key: "flags", Set: true, Words: []uint64{0, w1}}})
		assert.ErrorIs(t, err, blackboard.ErrBadSlot, "%#x", w1)
		assert.ErrorContains(t, err, `"flags"`)
	}
	st, err := s.StoreFromSlots([]blackboard.Slot{{Key: "flags", Set: true, Words: []uint64{0, word(1, 0, 1)}}})
	require.NoError(t, err)
	v, _ := blackboard.Get(st, k)
	assert.Equal(t, flags{Armed: true, Seen: [2]bool{false, true}}, v)
}
