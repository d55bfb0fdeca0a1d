package script

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/ai/blackboard"
)

// Tests of MaxString and MaxBuild: strings a script builds are bounded, so that
// evaluating any script is bounded in memory (doc.go, Limits).

// allocatedBy returns the bytes f allocates on the heap.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// requireLimit asserts err is an *Error wrapping ErrLimit at line and col, whose message
// names limit, and returns it.
func requireLimit(t *testing.T, err error, line, col int, limit string) *Error {
	t.Helper()
	require.ErrorIs(t, err, ErrLimit)
	var e *Error
	require.True(t, errors.As(err, &e), "%T", err)
	assert.Equal(t, line, e.Line, "line: %v", err)
	assert.Equal(t, col, e.Col, "col: %v", err)
	assert.Contains(t, e.Msg, limit)
	return e
}

func TestLimitConstants(t *testing.T) {
	assert.GreaterOrEqual(t, MaxString, MaxSource, "every string literal fits MaxString")
	assert.GreaterOrEqual(t, MaxBuild, MaxString, "one join of MaxString bytes fits MaxBuild")
}

// TestStringDoublingBounded: s = s .. s doubles a string each time it runs; 40 of them
// in a script of a few hundred bytes would need 1 TiB in one Run (a fatal out of memory
// before the limits). The join that would pass MaxString fails with ErrLimit at its
// operator before allocating; the doublings before it stay done. (24 doublings here, so
// that without the limits the test fails on its assertions, having built 16 MiB, rather
// than taking the machine's memory.)
func TestStringDoublingBounded(t *testing.T) {
	for _, c := range []struct {
		stmt string
		col  int // of the operator
	}{
		{"s = s .. s", 7},
		{"s = s + s", 7},
		{"s += s", 3},
		{"s = (s .. s)", 8},
	} {
		t.Run(c.stmt, func(t *testing.T) {
			src := "s := 'x'" + strings.Repeat("\n"+c.stmt, 24)
			schema := blackboard.NewSchema()
			p := MustCompile(src, &Env{Schema: schema})
			st := schema.NewStore()
			var err error
			alloc := allocatedBy(func() { _, err = p.Run(st) })
			// 16 doublings make 64 KiB = MaxString; the 17th (line 18) would pass it.
			requireLimit(t, err, 18, c.col, "MaxString")
			assert.Less(t, alloc, uint64(2<<20), "bytes one Run allocates")
			v, ok := st.Value("s")
			require.True(t, ok)
			assert.Len(t, v, MaxString)

			// The same through Exec and Bool, and in few allocations: the 16 strings.
			assert.ErrorIs(t, p.Exec(st), ErrLimit)
			cond := MustCompile(src+"\ns == ''", &Env{Schema: schema})
			_, err = cond.Bool(st)
			assert.ErrorIs(t, err, ErrLimit)
			assert.LessOrEqual(t, testing.AllocsPerRun(5, func() { _ = p.Exec(st) }), 20.0)
		})
	}
}

// TestStringBuildBudget: joins that each stay under MaxString still stop once one
// evaluation has built MaxBuild bytes; the next evaluation starts afresh.
func TestStringBuildBudget(t *testing.T) {
	schema := blackboard.NewSchema()
	half := blackboard.MustDeclare[string](schema, "half")
	st := schema.NewStore()
	blackboard.Set(st, half, strings.Repeat("h", MaxString/2))
	src := strings.TrimPrefix(strings.Repeat("\nt := half .. half", 10), "\n")
	p := MustCompile(src, &Env{Schema: schema})
	for range 2 {
		var err error
		alloc := allocatedBy(func() { err = p.Exec(st) })
		// MaxBuild / MaxString joins fit; the next one (line 5) does not.
		requireLimit(t, err, MaxBuild/MaxString+1, 11, "MaxBuild")
		assert.Less(t, alloc, uint64(MaxBuild+(1<<20)), "bytes one Exec allocates")
	}
	// Copies build nothing: any number of them runs.
	copies := MustCompile(strings.Repeat("t = half; ", 1000)+"t == half", &Env{Schema: schema})
	ok, err := copies.Bool(st)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Zero(t, testing.AllocsPerRun(10, func() { _, _ = copies.Bool(st) }))
}

// TestStringLimitBoundary: a string of exactly MaxString bytes is built and stored; a
// string longer than MaxString that Go code wrote to an entry can be read and compared
// but not stored by a script nor joined.
func TestStringLimitBoundary(t *testing.T) {
	schema := blackboard.NewSchema()
	long := blackboard.MustDeclare[string](schema, "long")
	blackboard.MustDeclare[string](schema, "t")
	st := schema.NewStore()
	env := &Env{Schema: schema}

	blackboard.Set(st, long, strings.Repeat("a", MaxString-1))
	v, err := MustCompile("t = long .. 'b'", env).Run(st)
	require.NoError(t, err)
	assert.Len(t, v.String(), MaxString)
	_, err = MustCompile("t = long .. 'bc'", env).Run(st)
	requireLimit(t, err, 1, 10, "MaxString")

	blackboard.Set(st, long, strings.Repeat("a", MaxString+1))
	ok, err := MustCompile("long != '' && long > 'a'", env).Bool(st)
	require.NoError(t, err)
	assert.True(t, ok)
	_, err = MustCompile("t = 'x'; t = long", env).Run(st)
	e := requireLimit(t, err, 1, 12, "MaxString")
	assert.Contains(t, e.Msg, `entry "t"`)
	got, _ := st.Value("t")
	assert.Equal(t, "x", got, "the failing assignment stores nothing")
	_, err = MustCompile("t = long .. ''", env).Run(st)
	requireLimit(t, err, 1, 10, "MaxString")

	// A literal of MaxSource bytes or so is no problem.
	lit := strings.Repeat("z", MaxSource-10)
	_, err = MustCompile("t = '"+lit+"'", env).Run(st)
	require.NoError(t, err)
}

// TestStringLimitText: a string longer than MaxString is not handed to an entry type's
// UnmarshalText.
func TestStringLimitText(t *testing.T) {
	env, st := textFixture(t)
	prefix, err := blackboard.Lookup[string](env.Schema, "prefix")
	require.NoError(t, err)
	blackboard.Set(st, prefix, strings.Repeat("1", MaxString+1))
	p := MustCompile("goal = prefix", env)
	parses := textPosParses
	_, err = p.Run(st)
	requireLimit(t, err, 1, 6, "MaxString")
	assert.Equal(t, parses, textPosParses, "UnmarshalText not called")
	_, err = MustCompile("goal = prefix .. ';1'", env).Run(st)
	requireLimit(t, err, 1, 15, "MaxString")
}

// TestJoinAllocs: the limits cost a join no allocation beyond its result.
func TestJoinAllocs(t *testing.T) {
	env, st := fixture(t)
	p := MustCompile("name .. '!' != tag", env)
	_, err := p.Run(st)
	require.NoError(t, err)
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _, _ = p.Bool(st) }))
}
