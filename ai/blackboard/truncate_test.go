package blackboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Truncate never gives a removed key's slot to a later key: a store made while the
// removed key was declared (found by a reviewer: Get of the later key read past the
// store's words and panicked, or found the removed key's "set" flag), and one made
// before, read the later key as unset, Slots leaves the removed key out, and Len only
// grows.
func TestTruncateNeverReusesASlot(t *testing.T) {
	s := NewSchema()
	keep := MustDeclare[string](s, "keep")
	before := s.NewStore()
	require.True(t, Set(before, keep, "k"))
	n := s.Len()
	a := MustDeclare[int](s, "a")
	mid := s.NewStore()
	require.True(t, Set(mid, a, 7))
	require.True(t, Set(before, a, 8)) // grows the store made before
	s.Truncate(n)
	assert.Equal(t, 2, s.Len(), "the removed slot stays counted")
	assert.Equal(t, "", s.Name(1))
	assert.Nil(t, s.Type("a"))

	b := MustDeclare[int](s, "b")
	assert.Equal(t, 3, s.Len())
	for name, st := range map[string]*Store{"made while a was declared": mid, "made before": before} {
		v, ok := Get(st, b)
		assert.False(t, ok, name)
		assert.Zero(t, v, name)
		_, ok = st.Value("a")
		assert.False(t, ok, name)
		slots, err := st.Slots()
		require.NoError(t, err, name)
		for _, sl := range slots {
			assert.NotEqual(t, "", sl.Key, name)
			assert.NotEqual(t, "a", sl.Key, name)
		}
		require.True(t, Set(st, b, 9), name)
		v, ok = Get(st, b)
		assert.True(t, ok, name)
		assert.Equal(t, 9, v, name)
	}
	// "a" again, of another type: a slot of its own.
	a2 := MustDeclare[string](s, "a")
	st := s.NewStore()
	require.True(t, Set(st, a2, "x"))
	got, ok := st.Value("a")
	assert.True(t, ok)
	assert.Equal(t, "x", got)
	v, ok := Get(mid, a2)
	assert.False(t, ok, "the old store's value of the removed int key is not the new string key's")
	assert.Equal(t, "", v)
	// Truncating again skips the slots removed before.
	s.Truncate(n)
	assert.Equal(t, 4, s.Len())
	_, err := Lookup[int](s, "b")
	require.ErrorIs(t, err, ErrUnknownKey)
}

func TestKeysLeavesOutRemovedSlots(t *testing.T) {
	s := NewSchema()
	assert.Equal(t, 0, s.Keys())
	MustDeclare[int](s, "a")
	MustDeclare[int](s, "a") // the same key again
	MustDeclare[string](s, "b")
	assert.Equal(t, 2, s.Keys())
	s.Truncate(1)
	assert.Equal(t, 1, s.Keys())
	assert.Equal(t, 2, s.Len())
	s.Truncate(0)
	assert.Equal(t, 0, s.Keys())
}
