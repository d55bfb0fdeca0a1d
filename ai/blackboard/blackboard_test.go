package blackboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type mode uint8

type point struct{ X, Y float64 }

func TestGetSetTypes(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[float64](s, "hp")
	ammo := MustDeclare[int](s, "ammo")
	alert := MustDeclare[bool](s, "alert")
	m := MustDeclare[mode](s, "mode")
	name := MustDeclare[string](s, "name")
	goal := MustDeclare[point](s, "goal")
	f32 := MustDeclare[float32](s, "f32")
	st := s.NewStore()

	_, ok := Get(st, hp)
	assert.False(t, ok, "unset key is missing")
	require.True(t, Set(st, hp, 42.5))
	require.True(t, Set(st, ammo, -7))
	require.True(t, Set(st, alert, true))
	require.True(t, Set(st, m, mode(3)))
	require.True(t, Set(st, name, "bob"))
	require.True(t, Set(st, goal, point{1, 2}))
	require.True(t, Set(st, f32, float32(1.5)))

	v, ok := Get(st, hp)
	assert.True(t, ok)
	assert.Equal(t, 42.5, v)
	a, _ := Get(st, ammo)
	assert.Equal(t, -7, a)
	b, _ := Get(st, alert)
	assert.True(t, b)
	mm, _ := Get(st, m)
	assert.Equal(t, mode(3), mm)
	n, _ := Get(st, name)
	assert.Equal(t, "bob", n)
	g, _ := Get(st, goal)
	assert.Equal(t, point{1, 2}, g)
	f, _ := Get(st, f32)
	assert.Equal(t, float32(1.5), f)

	// Overwriting a bool after an int in the same word class does not leak bytes.
	Set(st, alert, false)
	b, ok = Get(st, alert)
	assert.True(t, ok)
	assert.False(t, b)

	val, ok := st.Value("mode")
	assert.True(t, ok)
	assert.Equal(t, mode(3), val)
	val, _ = st.Value("name")
	assert.Equal(t, "bob", val)
	_, ok = st.Value("nope")
	assert.False(t, ok)
	assert.True(t, st.Has("hp"))

	Unset(st, hp)
	_, ok = Get(st, hp)
	assert.False(t, ok)
	st.Reset()
	assert.False(t, st.Has("ammo"))
}

func TestDeclareErrors(t *testing.T) {
	s := NewSchema()
	k1 := MustDeclare[int](s, "x")
	k2, err := Declare[int](s, "x")
	require.NoError(t, err)
	assert.Equal(t, k1, k2, "same name and type give the same key")
	_, err = Declare[float64](s, "x")
	assert.ErrorIs(t, err, ErrTypeMismatch)
	assert.Contains(t, err.Error(), `"x"`)
	_, err = Declare[int](s, "")
	assert.ErrorIs(t, err, ErrEmptyName)
	_, err = Lookup[int](s, "y")
	assert.ErrorIs(t, err, ErrUnknownKey)
	_, err = Lookup[string](s, "x")
	assert.ErrorIs(t, err, ErrTypeMismatch)
	k3, err := Lookup[int](s, "x")
	require.NoError(t, err)
	assert.Equal(t, k1, k3)
	assert.Panics(t, func() { MustDeclare[bool](s, "x") })
	assert.Equal(t, "x", k1.Name())
	assert.Equal(t, "", Key[int]{}.Name())
}

func TestMissingNeverPanics(t *testing.T) {
	s, other := NewSchema(), NewSchema()
	k := MustDeclare[int](s, "k")
	foreign := MustDeclare[int](other, "k")
	st := s.NewStore()
	var nilStore *Store
	_, ok := Get(nilStore, k)
	assert.False(t, ok)
	assert.False(t, Set(nilStore, k, 1))
	assert.False(t, Set(st, foreign, 1), "key of another schema")
	_, ok = Get(st, foreign)
	assert.False(t, ok)
	assert.False(t, Set(st, Key[int]{}, 1), "zero key")
	_, ok = Get(st, Key[int]{})
	assert.False(t, ok)
	Unset(nilStore, k)
	assert.False(t, nilStore.Has("k"))
	_, ok = nilStore.Value("k")
	assert.False(t, ok)
}

func TestStoreGrowsForLaterKeys(t *testing.T) {
	s := NewSchema()
	st := s.NewStore()
	late := MustDeclare[string](s, "late")
	_, ok := Get(st, late)
	assert.False(t, ok)
	assert.True(t, Set(st, late, "v"))
	v, ok := Get(st, late)
	assert.True(t, ok)
	assert.Equal(t, "v", v)
}

func TestGetSetAllocateNothing(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[float64](s, "hp")
	name := MustDeclare[string](s, "name")
	st := s.NewStore()
	str := "guard"
	allocs := testing.AllocsPerRun(1000, func() {
		v, _ := Get(st, hp)
		Set(st, hp, v+1)
		Set(st, name, str)
		_, _ = Get(st, name)
	})
	assert.Zero(t, allocs)
}

func BenchmarkGetSet(b *testing.B) {
	s := NewSchema()
	hp := MustDeclare[float64](s, "hp")
	st := s.NewStore()
	b.ReportAllocs()
	for b.Loop() {
		v, _ := Get(st, hp)
		Set(st, hp, v+1)
	}
}

// A key of an interface type set to a nil interface value is set: Get reports it
// present (holding nil), as Has and Value do, not missing.
func TestNilInterfaceValueIsSet(t *testing.T) {
	s := NewSchema()
	k := MustDeclare[error](s, "err")
	st := s.NewStore()
	_, ok := Get(st, k)
	assert.False(t, ok, "unset")
	require.True(t, Set(st, k, nil))
	v, ok := Get(st, k)
	assert.True(t, ok, "set to nil is set")
	assert.Nil(t, v)
	assert.True(t, st.Has("err"))
	Unset(st, k)
	_, ok = Get(st, k)
	assert.False(t, ok, "unset again")
}

// The zero Store (not made by NewStore) holds nothing and panics nowhere.
func TestZeroStore(t *testing.T) {
	s := NewSchema()
	k := MustDeclare[int](s, "n")
	st := new(Store)
	assert.False(t, Set(st, k, 1))
	_, ok := Get(st, k)
	assert.False(t, ok)
	assert.False(t, st.Has("n"))
	_, ok = st.Value("n")
	assert.False(t, ok)
	Unset(st, k)
	st.Reset()
	assert.Nil(t, st.Schema())
}
