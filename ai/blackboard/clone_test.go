package blackboard

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A clone has the same keys in the same slots, a removed slot included; declaring in
// one changes nothing in the other, and keys and stores of one do not work with the
// other. Keys declared in the same order in both get the same slots.
func TestCloneIsASchemaOfItsOwn(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[int](s, "hp")
	n := s.Len()
	MustDeclare[string](s, "gone")
	s.Truncate(n)
	MustDeclare[float64](s, "speed")

	c := s.Clone()
	require.Equal(t, 3, c.Len())
	assert.Equal(t, 2, c.Keys())
	for i := range s.Len() {
		assert.Equal(t, s.Name(i), c.Name(i), i)
	}
	assert.Equal(t, reflect.TypeFor[float64](), c.Type("speed"))

	name := MustDeclare[[2]float64](c, "goal")
	assert.Equal(t, 4, c.Len())
	assert.Equal(t, 3, s.Len(), "declaring in the clone declares nothing in s")
	assert.Nil(t, s.Type("goal"))
	require.NoError(t, s.DeclareType("goal", reflect.TypeFor[[2]float64]()))
	again, err := Lookup[[2]float64](s, "goal")
	require.NoError(t, err)
	assert.Equal(t, name.slot, again.slot, "the same declarations give the same slots")
	assert.Equal(t, name.idx, again.idx)

	st := s.NewStore()
	require.True(t, Set(st, hp, 5))
	chp := MustDeclare[int](c, "hp")
	assert.False(t, Set(st, chp, 6), "a key of the clone does not write a store of s")
	_, ok := Get(st, chp)
	assert.False(t, ok)
	assert.Equal(t, 0, NewSchema().Clone().Len())
	_, err = Declare[int]((&Schema{}).Clone(), "x") // a zero Schema's clone takes keys too
	assert.NoError(t, err)
}
