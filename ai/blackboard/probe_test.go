package blackboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProbeCountsReadsByKey: a probe's store counts the reads by a valid key and names
// the last key read; the zero Key, reads by name and misses on a real store are not
// counted.
func TestProbeCountsReadsByKey(t *testing.T) {
	s := NewSchema()
	seen := MustDeclare[bool](s, "target_visible")
	hp := MustDeclare[int](s, "hp")
	name := MustDeclare[string](s, "name")
	p := NewProbe()
	st := p.Store()
	assert.Equal(t, uint64(0), p.Reads())
	assert.Equal(t, "", p.LastKey())

	v, ok := Get(st, seen)
	assert.False(t, v)
	assert.False(t, ok)
	assert.Equal(t, uint64(1), p.Reads())
	assert.Equal(t, "target_visible", p.LastKey())

	_, ok = Seq(st, hp)
	assert.False(t, ok)
	assert.Equal(t, "hp", p.LastKey())
	sc, _, err := s.Scalar("name")
	require.NoError(t, err)
	_, ok = sc.Str(st)
	assert.False(t, ok)
	sh, _, err := s.Scalar("hp")
	require.NoError(t, err)
	_, ok = sh.Word(st)
	assert.False(t, ok)
	assert.Equal(t, uint64(4), p.Reads())
	assert.Equal(t, "hp", p.LastKey())

	// not counted: the zero Key, reads by name
	Get(st, Key[int]{})
	assert.False(t, st.Has("hp"))
	_, ok = st.Value("hp")
	assert.False(t, ok)
	assert.Equal(t, uint64(4), p.Reads())

	p.Reset()
	assert.Equal(t, uint64(0), p.Reads())
	assert.Equal(t, "", p.LastKey())

	// a real store's misses are nobody's reads
	real := s.NewStore()
	Get(real, name)
	Get((*Store)(nil), name)
	assert.Equal(t, uint64(0), p.Reads())
}

// TestProbeKeepsNothing: every write on a probe's store fails and changes nothing, as
// on a nil store, and reads after it still miss.
func TestProbeKeepsNothing(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[int](s, "hp")
	name := MustDeclare[string](s, "name")
	tags := MustDeclare[[]string](s, "tags")
	p := NewProbe()
	for _, st := range []*Store{nil, p.Store()} {
		assert.False(t, Set(st, hp, 3))
		assert.False(t, Set(st, name, "x"))
		assert.False(t, Set(st, tags, []string{"a"}))
		assert.False(t, Set(st, Key[int]{}, 3))
		Unset(st, hp)
		Unset(st, Key[int]{})
		EntryOf(hp).Unset(st)
		Entry{}.Unset(st)
		cp, err := s.Copier("hp", "hp")
		require.NoError(t, err)
		assert.False(t, cp(st))
		set, err := s.Setter("hp", 9)
		require.NoError(t, err)
		assert.False(t, set(st))
		sc, _, err := s.Scalar("hp")
		require.NoError(t, err)
		assert.False(t, sc.SetWord(st, 1))
		sn, _, err := s.Scalar("name")
		require.NoError(t, err)
		assert.False(t, sn.SetStr(st, "y"))
		assert.False(t, Scalar{}.SetWord(st, 1))
		st.Reset()
		_, ok := Get(st, hp)
		assert.False(t, ok)
		assert.False(t, st.Has("hp"))
		slots, err := st.Slots()
		assert.NoError(t, err)
		assert.Empty(t, slots)
		assert.Nil(t, st.Schema())
	}
	ps := p.Store()
	assert.Nil(t, ps.set)
	assert.Nil(t, ps.seq)
	assert.Nil(t, ps.words)
	assert.Nil(t, ps.strs)
	assert.Nil(t, ps.anys)
}

func TestProbeAllocatesNothing(t *testing.T) {
	s := NewSchema()
	hp := MustDeclare[int](s, "hp")
	p := NewProbe()
	st := p.Store()
	allocs := testing.AllocsPerRun(100, func() {
		p.Reset()
		Get(st, hp)
		Seq(st, hp)
		_ = p.LastKey()
	})
	assert.Zero(t, allocs)
}
