package script

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textPos is a user type written "x;y", counting its conversions.
type textPos struct{ X, Y float64 }

var textPosParses int

func (p *textPos) UnmarshalText(b []byte) error {
	textPosParses++
	xs, ys, ok := strings.Cut(string(b), ";")
	x, err1 := strconv.ParseFloat(xs, 64)
	y, err2 := strconv.ParseFloat(ys, 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("%q: want x;y", b)
	}
	*p = textPos{x, y}
	return nil
}

// textPath is a boxed user type (it holds a slice) written "a,b,c".
type textPath struct{ Names []string }

func (p *textPath) UnmarshalText(b []byte) error {
	p.Names = strings.Split(string(b), ",")
	return nil
}

func textFixture(t *testing.T) (*Env, *blackboard.Store) {
	t.Helper()
	s := blackboard.NewSchema()
	blackboard.MustDeclare[textPos](s, "goal")
	blackboard.MustDeclare[textPath](s, "path")
	blackboard.MustDeclare[string](s, "prefix")
	blackboard.MustDeclare[[]int](s, "list")
	return &Env{Schema: s}, s.NewStore()
}

func TestAssignTextLiteral(t *testing.T) {
	env, st := textFixture(t)
	textPosParses = 0
	p, err := Compile("goal = '-1;3'; path := 'a,b'", env)
	require.NoError(t, err)
	assert.Equal(t, 1, textPosParses, "the literal is converted once, at compile time")
	require.NoError(t, p.Exec(st))
	v, _ := st.Value("goal")
	assert.Equal(t, textPos{-1, 3}, v)
	v, _ = st.Value("path")
	assert.Equal(t, textPath{[]string{"a", "b"}}, v)
	seq, _ := blackboard.Seq(st, blackboard.MustDeclare[textPos](env.Schema, "goal"))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = p.Exec(st) }))
	assert.Equal(t, 1, textPosParses, "running converts nothing")
	seq2, _ := blackboard.Seq(st, blackboard.MustDeclare[textPos](env.Schema, "goal"))
	assert.Greater(t, seq2, seq, "each run is a write")
	r, err := MustCompile("goal = '2;5'", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, StringValue("2;5"), r, "the value of the assignment is the string")
}

func TestAssignTextExpression(t *testing.T) {
	env, st := textFixture(t)
	p, err := Compile("goal = prefix .. ';4'", env)
	require.NoError(t, err)
	blackboard.Set(st, blackboard.MustDeclare[string](env.Schema, "prefix"), "7")
	require.NoError(t, p.Exec(st))
	v, _ := st.Value("goal")
	assert.Equal(t, textPos{7, 4}, v)

	blackboard.Set(st, blackboard.MustDeclare[string](env.Schema, "prefix"), "x")
	err = p.Exec(st)
	require.ErrorIs(t, err, ErrConversion)
	assert.Contains(t, err.Error(), `"goal"`)
	v, _ = st.Value("goal")
	assert.Equal(t, textPos{7, 4}, v, "a refused string leaves the entry as it was")
}

func TestAssignTextErrors(t *testing.T) {
	for _, c := range []struct {
		src  string
		err  error
		want string
	}{
		{"goal = 'nope'", ErrConversion, `"nope" does not convert to entry "goal"`},
		{"goal = 3", ErrType, `cannot assign an int to entry "goal" of type script.textPos (only a string`},
		{"goal += 'x'", ErrType, `entry "goal" has type script.textPos`},
		{"goal == '1;2'", ErrType, `entry "goal" has type script.textPos`},
		{"list = '1;2'", ErrType, `entry "list" has type []int`},
	} {
		env, _ := textFixture(t)
		_, err := Compile(c.src, env)
		require.ErrorIs(t, err, c.err, c.src)
		assert.Contains(t, err.Error(), c.want, c.src)
	}
}
