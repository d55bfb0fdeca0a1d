package blackboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSequenceNumbers(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[int](s, "hp")
	name := MustDeclare[string](s, "name")
	tags := MustDeclare[[]string](s, "tags")
	st := s.NewStore()

	seq := func(e Entry) uint64 { n, _ := e.Seq(st); return n }
	eHP := EntryOf(hp)
	n, ok := Seq(st, hp)
	assert.Equal(t, uint64(0), n)
	assert.False(t, ok, "never written")

	Set(st, hp, 5)
	Set(st, hp, 5) // the same value is an update too
	n, ok = eHP.Seq(st)
	assert.Equal(t, uint64(2), n)
	assert.True(t, ok)
	assert.Equal(t, uint64(0), seq(EntryOf(name)), "other keys are not counted")

	Set(st, tags, []string{"a"})
	assert.Equal(t, uint64(1), seq(EntryOf(tags)), "boxed values count too")

	// Every writer counts: Copier, Setter, Scalar.SetWord and SetStr.
	cp, err := s.Copier("hp", "hp")
	require.NoError(t, err)
	cp(st)
	set, err := s.Setter("hp", 9)
	require.NoError(t, err)
	set(st)
	sc, _, err := s.Scalar("hp")
	require.NoError(t, err)
	sc.SetWord(st, 1)
	assert.Equal(t, uint64(5), seq(eHP))
	ss, _, err := s.Scalar("name")
	require.NoError(t, err)
	ss.SetStr(st, "x")
	assert.Equal(t, uint64(1), seq(EntryOf(name)))

	// A failed write does not count; Unset and Reset neither count nor rewind.
	assert.False(t, sc.SetStr(st, "not a string key"))
	Unset(st, hp)
	n, ok = eHP.Seq(st)
	assert.Equal(t, uint64(5), n)
	assert.False(t, ok, "unset")
	st.Reset()
	Set(st, hp, 1)
	assert.Equal(t, uint64(6), seq(eHP), "never goes back within a store")

	// By name; unknown names; the zero Entry; foreign stores.
	e, err := s.Entry("hp")
	require.NoError(t, err)
	assert.Equal(t, eHP, e)
	assert.Equal(t, "hp", e.Name())
	_, err = s.Entry("nope")
	assert.ErrorIs(t, err, ErrUnknownKey)
	n, ok = Entry{}.Seq(st)
	assert.Zero(t, n)
	assert.False(t, ok)
	assert.Equal(t, "", Entry{}.Name())
	n, ok = eHP.Seq(NewSchema().NewStore())
	assert.Zero(t, n)
	assert.False(t, ok)
	n, ok = eHP.Seq(nil)
	assert.Zero(t, n)
	assert.False(t, ok)

	// A key declared after the store was made: counted once the store grows.
	late := MustDeclare[float64](s, "late")
	n, ok = Seq(st, late)
	assert.False(t, ok)
	assert.Zero(t, n)
	Set(st, late, 1.5)
	assert.Equal(t, uint64(1), seq(EntryOf(late)))
}

func TestSequenceNumbersAllocateNothing(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[int](s, "hp")
	name := MustDeclare[string](s, "name")
	st := s.NewStore()
	e := EntryOf(hp)
	var sum uint64
	allocs := testing.AllocsPerRun(1000, func() {
		Set(st, hp, 3)
		Set(st, name, "n")
		n, _ := e.Seq(st)
		sum += n
	})
	assert.Zero(t, allocs)
	assert.Equal(t, uint64(1001), func() uint64 { n, _ := e.Seq(st); return n }())
}
