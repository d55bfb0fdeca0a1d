package blackboard

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeclareTypeMatchesDeclare(t *testing.T) {
	s := NewSchema()
	require.NoError(t, s.DeclareType("v", reflect.TypeFor[vec]()))
	k, err := Lookup[vec](s, "v")
	require.NoError(t, err)
	assert.Equal(t, MustDeclare[vec](s, "v"), k)
	assert.ErrorIs(t, s.DeclareType("v", reflect.TypeFor[int]()), ErrTypeMismatch)
	assert.ErrorIs(t, s.DeclareType("", reflect.TypeFor[int]()), ErrEmptyName)
	assert.Error(t, s.DeclareType("nil", nil))
}

func TestCopierAndSetter(t *testing.T) {
	s := NewSchema()
	a, b := MustDeclare[vec](s, "a"), MustDeclare[vec](s, "b")
	na, nb := MustDeclare[named](s, "na"), MustDeclare[named](s, "nb")
	sa, sb := MustDeclare[string](s, "sa"), MustDeclare[string](s, "sb")
	MustDeclare[int](s, "i")
	st := s.NewStore()

	cp, err := s.Copier("b", "a")
	require.NoError(t, err)
	assert.False(t, cp(st), "source not set")
	assert.False(t, st.Has("b"))
	Set(st, a, vec{3, 4})
	assert.True(t, cp(st))
	got, ok := Get(st, b)
	assert.True(t, ok)
	assert.Equal(t, vec{3, 4}, got)

	cpn, err := s.Copier("nb", "na")
	require.NoError(t, err)
	Set(st, na, named{"x", 1})
	assert.True(t, cpn(st))
	gn, _ := Get(st, nb)
	assert.Equal(t, named{"x", 1}, gn)
	cps, err := s.Copier("sb", "sa")
	require.NoError(t, err)
	Set(st, sa, "hello")
	assert.True(t, cps(st))
	gs, _ := Get(st, sb)
	assert.Equal(t, "hello", gs)

	set, err := s.Setter("a", vec{-1, 0.5})
	require.NoError(t, err)
	assert.True(t, set(st))
	got, _ = Get(st, a)
	assert.Equal(t, vec{-1, 0.5}, got)
	setS, err := s.Setter("sa", "bye")
	require.NoError(t, err)
	assert.True(t, setS(st))
	gs, _ = Get(st, sa)
	assert.Equal(t, "bye", gs)

	allocs := testing.AllocsPerRun(100, func() { set(st); cp(st); cps(st); cpn(st) })
	assert.Zero(t, allocs)

	var nilStore *Store
	assert.False(t, cp(nilStore))
	assert.False(t, set(nilStore))
	assert.False(t, set(NewSchema().NewStore()), "store of another schema")

	_, err = s.Copier("i", "a")
	assert.ErrorIs(t, err, ErrTypeMismatch)
	_, err = s.Copier("a", "nope")
	assert.ErrorIs(t, err, ErrUnknownKey)
	_, err = s.Setter("a", 3)
	assert.ErrorIs(t, err, ErrTypeMismatch)
	_, err = s.Setter("a", nil)
	assert.ErrorIs(t, err, ErrTypeMismatch)
	_, err = s.Setter("nope", 3)
	assert.ErrorIs(t, err, ErrUnknownKey)
}

func TestCopierGrowsAnOlderStore(t *testing.T) {
	s := NewSchema()
	a := MustDeclare[vec](s, "a")
	st := s.NewStore()
	Set(st, a, vec{1, 1})
	MustDeclare[vec](s, "late")
	cp, err := s.Copier("late", "a")
	require.NoError(t, err)
	assert.True(t, cp(st))
	v, ok := st.Value("late")
	assert.True(t, ok)
	assert.Equal(t, vec{1, 1}, v)
}

// A Setter and a Scalar of keys declared after a store was made grow that store.
func TestSetterAndScalarGrowAnOlderStore(t *testing.T) {
	s := NewSchema()
	MustDeclare[int](s, "n")
	st := s.NewStore()
	MustDeclare[vec](s, "late")
	MustDeclare[string](s, "name")
	MustDeclare[int32](s, "count")
	set, err := s.Setter("late", vec{2, 3})
	require.NoError(t, err)
	assert.True(t, set(st))
	v, ok := st.Value("late")
	assert.True(t, ok)
	assert.Equal(t, vec{2, 3}, v)

	st = s.NewStore()
	MustDeclare[string](s, "later")
	sc, _, err := s.Scalar("later")
	require.NoError(t, err)
	assert.True(t, sc.SetStr(st, "x"))
	str, ok := sc.Str(st)
	assert.True(t, ok)
	assert.Equal(t, "x", str)
	MustDeclare[int64](s, "latest")
	sc, _, err = s.Scalar("latest")
	require.NoError(t, err)
	assert.True(t, sc.SetWord(st, 9))
	w, ok := sc.Word(st)
	assert.True(t, ok)
	assert.Equal(t, uint64(9), w)
}
