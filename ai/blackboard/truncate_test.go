package blackboard_test

import (
	"reflect"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Truncate removes the keys declared after n: their names may be declared again of
// another type, the keys before n keep their values, and the new key's storage is not
// the removed one's.
func TestTruncateRemovesTheLaterKeys(t *testing.T) {
	s := blackboard.NewSchema()
	hp := blackboard.MustDeclare[int](s, "hp")
	n := s.Len()
	old := blackboard.MustDeclare[[4]float64](s, "x")
	blackboard.MustDeclare[string](s, "name")
	s.Truncate(n)
	assert.Equal(t, 1, s.Len())
	assert.Nil(t, s.Type("x"))
	assert.Nil(t, s.Type("name"))

	x, err := blackboard.Declare[int64](s, "x")
	require.NoError(t, err)
	assert.Equal(t, reflect.TypeFor[int64](), s.Type("x"))
	st := s.NewStore()
	require.True(t, blackboard.Set(st, hp, 30))
	require.True(t, blackboard.Set(st, x, 7))
	blackboard.Set(st, old, [4]float64{1, 2, 3, 4}) // a removed key's storage: reserved
	v, ok := blackboard.Get(st, x)
	assert.True(t, ok)
	assert.Equal(t, int64(7), v)
	h, _ := blackboard.Get(st, hp)
	assert.Equal(t, 30, h)

	s.Truncate(-1) // nothing
	s.Truncate(5)  // nothing
	assert.Equal(t, 2, s.Len())
}
