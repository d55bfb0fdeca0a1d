package blackboard

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vec has the layout of gonum's r2.Vec; entity that of Arche's ecs.Entity.
type (
	vec    struct{ X, Y float64 }
	entity struct{ id, gen uint32 }
	pose   struct {
		At    vec
		Angle float32
		Seen  bool
	}
	named struct {
		Name string
		N    int
	}
)

func TestInlineClasses(t *testing.T) {
	s := NewSchema()
	cases := []struct {
		name  string
		class class
		words int32
		key   func() (class, int32)
	}{
		{"vec", classWord, 2, func() (class, int32) { k := MustDeclare[vec](s, "vec"); return k.class, k.idx }},
		{"entity", classWord, 1, func() (class, int32) { k := MustDeclare[entity](s, "entity"); return k.class, k.idx }},
		{"pose", classWord, 3, func() (class, int32) { k := MustDeclare[pose](s, "pose"); return k.class, k.idx }},
		{"empty", classWord, 1, func() (class, int32) { k := MustDeclare[struct{}](s, "empty"); return k.class, k.idx }},
		{"complex", classWord, 2, func() (class, int32) { k := MustDeclare[complex128](s, "complex"); return k.class, k.idx }},
		{"64 bytes", classWord, 8, func() (class, int32) { k := MustDeclare[[8]float64](s, "m64"); return k.class, k.idx }},
		{"72 bytes", classAny, 1, func() (class, int32) { k := MustDeclare[[9]float64](s, "m72"); return k.class, k.idx }},
		{"string field", classAny, 1, func() (class, int32) { k := MustDeclare[named](s, "named"); return k.class, k.idx }},
		{"pointer", classAny, 1, func() (class, int32) { k := MustDeclare[*vec](s, "ptr"); return k.class, k.idx }},
		{"slice", classAny, 1, func() (class, int32) { k := MustDeclare[[]vec](s, "slice"); return k.class, k.idx }},
		{"array of strings", classAny, 1, func() (class, int32) { k := MustDeclare[[2]string](s, "strs"); return k.class, k.idx }},
		{"func", classAny, 1, func() (class, int32) { k := MustDeclare[func()](s, "fn"); return k.class, k.idx }},
		{"string", classString, 1, func() (class, int32) { k := MustDeclare[string](s, "s"); return k.class, k.idx }},
	}
	var words int32
	for _, c := range cases {
		cl, idx := c.key()
		assert.Equal(t, c.class, cl, c.name)
		if cl == classWord {
			assert.Equal(t, words, idx, "%s starts after the words of the keys before it", c.name)
			words += c.words
		}
	}
	assert.Equal(t, words, s.counts[classWord], "words per store")
	assert.Equal(t, int32(17), words)
}

func TestInlineRoundTrip(t *testing.T) {
	s := NewSchema()
	before := MustDeclare[uint8](s, "before")
	v := MustDeclare[vec](s, "vec")
	e := MustDeclare[entity](s, "entity")
	p := MustDeclare[pose](s, "pose")
	m := MustDeclare[[8]float64](s, "m64")
	after := MustDeclare[float64](s, "after")
	st := s.NewStore()

	require.True(t, Set(st, before, 0xff))
	require.True(t, Set(st, v, vec{1.5, -2.25}))
	require.True(t, Set(st, e, entity{id: 7, gen: 3}))
	require.True(t, Set(st, p, pose{At: vec{3, 4}, Angle: 0.5, Seen: true}))
	require.True(t, Set(st, m, [8]float64{1, 2, 3, 4, 5, 6, 7, 8}))
	require.True(t, Set(st, after, 9.75))

	gv, ok := Get(st, v)
	assert.True(t, ok)
	assert.Equal(t, vec{1.5, -2.25}, gv)
	ge, _ := Get(st, e)
	assert.Equal(t, entity{7, 3}, ge)
	gp, _ := Get(st, p)
	assert.Equal(t, pose{At: vec{3, 4}, Angle: 0.5, Seen: true}, gp)
	gm, _ := Get(st, m)
	assert.Equal(t, [8]float64{1, 2, 3, 4, 5, 6, 7, 8}, gm)
	gb, _ := Get(st, before)
	assert.Equal(t, uint8(0xff), gb, "neighbouring words untouched")
	ga, _ := Get(st, after)
	assert.Equal(t, 9.75, ga, "neighbouring words untouched")

	// Overwriting keeps exact bits and leaks nothing into the neighbours.
	require.True(t, Set(st, v, vec{-0.0, 1e-300}))
	gv, _ = Get(st, v)
	assert.Equal(t, vec{-0.0, 1e-300}, gv)
	ge, _ = Get(st, e)
	assert.Equal(t, entity{7, 3}, ge)

	// Value boxes a copy with the declared type, for display.
	val, ok := st.Value("vec")
	require.True(t, ok)
	assert.Equal(t, vec{-0.0, 1e-300}, val)
	val, _ = st.Value("entity")
	assert.Equal(t, entity{7, 3}, val)
	assert.Equal(t, "{7 3}", fmt.Sprint(val))
	val, _ = st.Value("pose")
	assert.Equal(t, pose{At: vec{3, 4}, Angle: 0.5, Seen: true}, val)

	Unset(st, v)
	_, ok = Get(st, v)
	assert.False(t, ok)
	assert.False(t, st.Has("vec"))
	_, ok = st.Value("vec")
	assert.False(t, ok)
	ge, ok = Get(st, e)
	assert.True(t, ok, "Unset touches one key")
	assert.Equal(t, entity{7, 3}, ge)

	st.Reset()
	for _, name := range []string{"before", "vec", "entity", "pose", "m64", "after"} {
		assert.False(t, st.Has(name), name)
	}
	ge, ok = Get(st, e)
	assert.False(t, ok)
	assert.Equal(t, entity{}, ge)
	require.True(t, Set(st, e, entity{1, 2}))
	ge, _ = Get(st, e)
	assert.Equal(t, entity{1, 2}, ge, "usable after Reset")
}

func TestBoxedComposite(t *testing.T) {
	s := NewSchema()
	k := MustDeclare[named](s, "named")
	big := MustDeclare[[9]float64](s, "big")
	st := s.NewStore()
	require.True(t, Set(st, k, named{"a", 2}))
	got, ok := Get(st, k)
	assert.True(t, ok)
	assert.Equal(t, named{"a", 2}, got)
	require.True(t, Set(st, big, [9]float64{8: 1}))
	gb, _ := Get(st, big)
	assert.Equal(t, 1.0, gb[8])
	Unset(st, k)
	_, ok = Get(st, k)
	assert.False(t, ok)
}

func TestInlineLateKeyGrows(t *testing.T) {
	s := NewSchema()
	first := MustDeclare[vec](s, "first")
	st := s.NewStore()
	require.True(t, Set(st, first, vec{1, 2}))
	late := MustDeclare[pose](s, "late")
	require.True(t, Set(st, late, pose{At: vec{5, 6}}))
	g, _ := Get(st, late)
	assert.Equal(t, vec{5, 6}, g.At)
	f, _ := Get(st, first)
	assert.Equal(t, vec{1, 2}, f)
}

func TestInlineAllocateNothing(t *testing.T) {
	s := NewSchema()
	v := MustDeclare[vec](s, "vec")
	e := MustDeclare[entity](s, "entity")
	p := MustDeclare[pose](s, "pose")
	st := s.NewStore()
	allocs := testing.AllocsPerRun(1000, func() {
		x, _ := Get(st, v)
		x.X++
		Set(st, v, x)
		id, _ := Get(st, e)
		id.gen++
		Set(st, e, id)
		q, _ := Get(st, p)
		q.At = x
		Set(st, p, q)
	})
	assert.Zero(t, allocs)
	x, _ := Get(st, v)
	assert.Equal(t, 1001.0, x.X, "AllocsPerRun runs once more to warm up")
}

func BenchmarkGetSetVec(b *testing.B) {
	s := NewSchema()
	v := MustDeclare[vec](s, "v")
	st := s.NewStore()
	b.ReportAllocs()
	for b.Loop() {
		x, _ := Get(st, v)
		x.X++
		Set(st, v, x)
	}
}
