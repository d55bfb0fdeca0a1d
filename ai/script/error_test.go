package script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/ai/blackboard"
)

// TestCompileErrors pins the sentinel and the column (1-based byte) of each compile error.
func TestCompileErrors(t *testing.T) {
	cases := []struct {
		src  string
		err  error
		col  int
		line int    // 0 means 1
		msg  string // part of the message
	}{
		// syntax: the tokenizer (BT.CPP's failing cases)
		{"0X100g", ErrSyntax, 1, 0, "malformed number"},
		{"0X100.", ErrSyntax, 1, 0, "malformed number"},
		{"3foo", ErrSyntax, 1, 0, "malformed number \"3foo\""},
		{"65.", ErrSyntax, 1, 0, "digits must follow the point"},
		{"65.43foo", ErrSyntax, 1, 0, "malformed number"},
		{"1.5.3", ErrSyntax, 1, 0, "malformed number"},
		{"0x", ErrSyntax, 1, 0, "no hex digits"},
		{"0xG", ErrSyntax, 1, 0, "no hex digits"},
		{"3e", ErrSyntax, 1, 0, "exponent"},
		{"hp > 3e+", ErrSyntax, 6, 0, "exponent"},
		{"9223372036854775808", ErrSyntax, 1, 0, "out of range"},
		{"0x8000000000000000", ErrSyntax, 1, 0, "out of range"},
		{"'hello", ErrSyntax, 1, 0, "unterminated string"},
		{`hp == "bob"`, ErrSyntax, 7, 0, "single-quoted"},
		{"hp # 1", ErrSyntax, 4, 0, "unexpected character '#'"},
		{"hp > 1 é", ErrSyntax, 8, 0, "unexpected byte 0xc3"},
		// syntax: the parser
		{"", ErrSyntax, 1, 0, "empty script"},
		{"   ", ErrSyntax, 1, 0, "empty script"},
		{"\t\n\r", ErrSyntax, 1, 0, "empty script"},
		{";", ErrSyntax, 1, 0, "unexpected `;`"},
		{"hp > 10 &&", ErrSyntax, 11, 0, "unexpected end of script"},
		{"hp >> 1", ErrSyntax, 5, 0, "unexpected `>`"},
		{"(1 + 2", ErrSyntax, 7, 0, "expected ')' closing the '(' at col 1"},
		{"true ? 1", ErrSyntax, 9, 0, "expected ':' of the ?: at col 6"},
		{"hp > 10 ammo > 0", ErrSyntax, 9, 0, "expected an operator, ';' or the end"},
		{"a:=1 b:=2", ErrSyntax, 6, 0, "expected an operator"},
		{"hp = ", ErrSyntax, 6, 0, "unexpected end of script"},
		{"'hello' = 'world'", ErrSyntax, 9, 0, "left side of = is not a blackboard entry"},
		{"3.0 = 2.0", ErrSyntax, 5, 0, "not a blackboard entry"},
		{"hp + ammo := 3", ErrSyntax, 11, 0, "left side of :="},
		{"true ? 1 : 2 = 3", ErrSyntax, 14, 0, "expected an operator"},
		{"1 )", ErrSyntax, 3, 0, "unexpected token `)`"},
		// names
		{"foo > 1", ErrUnknownEntry, 1, 0, `unknown entry "foo"`},
		{"new_var = 69", ErrUnknownEntry, 1, 0, "use := to create it"},
		{"new_var += 1", ErrUnknownEntry, 1, 0, "use := to create it"},
		{"x := x + 1", ErrUnknownEntry, 6, 0, `unknown entry "x"`},
		{"hp := 1;\nammo = 2;\n  zzz", ErrUnknownEntry, 3, 3, `unknown entry "zzz"`},
		// types
		{"pos", ErrType, 1, 0, `entry "pos" has type script.vec`},
		{"pos := 1", ErrType, 1, 0, `entry "pos" has type script.vec`},
		{"'a' - 1", ErrType, 5, 0, "operator - does not apply to string and int"},
		{"name + 1", ErrType, 6, 0, "use .. to join"},
		{"'x' .. 1 + 2", ErrType, 10, 0, "operator + does not apply to string and int"},
		{"1 .. 2", ErrType, 3, 0, "operator .. joins strings"},
		{"name * 2", ErrType, 6, 0, "operator *"},
		{"name && true", ErrType, 6, 0, "operator &&"},
		{"!name", ErrType, 1, 0, "operator ! does not apply to a string"},
		{"-name", ErrType, 1, 0, "operator - does not apply"},
		{"~tag", ErrType, 1, 0, "operator ~"},
		{"flag ? 1 : 'a'", ErrType, 6, 0, "branches of ?: are an int and a string"},
		{"name = 1", ErrType, 6, 0, "cannot assign an int to entry \"name\""},
		{"name := hp", ErrType, 6, 0, "cannot assign an int"},
		{"tag = true", ErrType, 5, 0, "cannot assign a bool"},
		{"RED = 1", ErrType, 1, 0, "RED: it is a constant"},
		{"x := 'a' - 'b'", ErrType, 10, 0, "operator -"},
		// constants that do not convert
		{"'abc' == 1", ErrConversion, 1, 0, "not a number"},
		{"hp = 'abc'", ErrConversion, 4, 0, `does not fit entry "hp"`},
		{"flag = 2", ErrConversion, 6, 0, `does not fit entry "flag"`},
		{"hp = 2.5", ErrConversion, 4, 0, `does not fit entry "hp"`},
		{"1.5 | 1", ErrConversion, 1, 0, "left operand of | is not a whole number"},
		{"1 & 0.5", ErrConversion, 5, 0, "right operand of &"},
		{"~0.5", ErrConversion, 2, 0, "operand of ~"},
		{"1 < 2.5 < 'x5'", ErrConversion, 11, 0, "not a number"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			env, _ := fixture(t)
			_, err := Compile(c.src, env)
			require.ErrorIs(t, err, c.err)
			var se *Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, c.col, se.Col, "column")
			line := c.line
			if line == 0 {
				line = 1
			}
			assert.Equal(t, line, se.Line, "line")
			assert.Contains(t, se.Msg, c.msg)
		})
	}
}

// TestRunErrors pins run-time errors: a documented error value, never a panic, and no
// allocation.
func TestRunErrors(t *testing.T) {
	cases := []struct {
		src string
		err error
		col int
	}{
		{"unset > 0", ErrNotSet, 1},
		{"unset_s .. 'x'", ErrNotSet, 1},
		{"unset += 1", ErrNotSet, 1},
		{"1 < unset < 3", ErrNotSet, 5},
		{"unset < 1 < 3", ErrNotSet, 1},
		{"0.5 < speed < unset", ErrNotSet, 15},
		{"unset_s < 'b' < 'c'", ErrNotSet, 1},
		{"'a' < unset_s < 'c'", ErrNotSet, 7},
		{"unset == 1.5", ErrNotSet, 1},
		{"1.5 == unset", ErrNotSet, 8},
		{"unset_s == 'x'", ErrNotSet, 1},
		{"'x' == unset_s", ErrNotSet, 8},
		{"hp == unset", ErrNotSet, 7},
		{"flag = unset > 0 ? true : false", ErrNotSet, 8},
		{"unset ? 1 : 2", ErrNotSet, 1},
		{"unset > 0 ? 'a' : 'b'", ErrNotSet, 1},
		{"unset ? 1.5 : 2", ErrNotSet, 1},
		{"(unset + 0.5) || true", ErrNotSet, 2},
		{"name .. unset_s", ErrNotSet, 9},
		{"!unset", ErrNotSet, 2},
		{"-(unset + 0.5)", ErrNotSet, 3},
		{"'' .. (unset + 1)", ErrNotSet, 8},
		{"hp / 0", ErrDivisionByZero, 4},
		{"x := 0; 5 / x", ErrDivisionByZero, 11},
		{"hp /= unset_zero", ErrUnknownEntry, 7}, // compile error, for contrast
		{"speed / (hp - 42)", ErrDivisionByZero, 7},
		{"9223372036854775807 + hp", ErrOverflow, 21},
		{"-9223372036854775807 - hp", ErrOverflow, 22},
		{"hp * 9223372036854775807", ErrOverflow, 4},
		{"x := -9223372036854775807 - 1; -x", ErrOverflow, 32},
		{"(speed + 0.25) | 1", ErrConversion, 1},
		{"name == 1", ErrConversion, 1},
		{"hp = name", ErrConversion, 4},
		{"hp = speed", ErrConversion, 4},
		{"small = hp * 10", ErrConversion, 7},
	}
	if intSize == 4 { // := declares an int, which holds only int32's range on 32-bit builds
		for i := range cases {
			if strings.HasPrefix(cases[i].src, "x := -9223372036854775807") {
				cases[i].err, cases[i].col = ErrConversion, 3
			}
		}
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			env, st := fixture(t)
			p, err := Compile(c.src, env)
			if c.err == ErrUnknownEntry {
				require.ErrorIs(t, err, c.err)
				return
			}
			require.NoError(t, err)
			_, err = p.Run(st)
			require.ErrorIs(t, err, c.err)
			var se *Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, c.col, se.Col, "column")
			assert.Zero(t, testing.AllocsPerRun(10, func() { _, _ = p.Run(st) }), "allocs of a failing run")
		})
	}
	// A string beyond float64's range does not read as a number (this error allocates:
	// strconv's).
	env, st := fixture(t)
	_, err := MustCompile("name = '1e999'; name == 1", env).Run(st)
	require.ErrorIs(t, err, ErrConversion)

	// A failing statement stops the script; earlier assignments stay.
	env, st = fixture(t)
	_, err = MustCompile("ammo = 9; hp = hp / 0; ammo = 1", env).Run(st)
	require.ErrorIs(t, err, ErrDivisionByZero)
	v, _ := blackboard.Get(st, blackboard.MustDeclare[int](env.Schema, "ammo"))
	assert.Equal(t, 9, v)
}

func TestErrorText(t *testing.T) {
	env, _ := fixture(t)
	env.Where = "trees/guard.xml:12"
	_, err := Compile("hp > 10 && foo", env)
	require.Error(t, err)
	assert.Equal(t, "trees/guard.xml:12: script col 12: unknown entry \"foo\" in `hp > 10 && foo`", err.Error())

	_, err = Compile("hp := 1;\n  zzz", env)
	assert.Equal(t, "trees/guard.xml:12: script line 2 col 3: unknown entry \"zzz\" in `hp := 1;   zzz`", err.Error())

	// A run-time error carries the prefix too.
	_, st := fixture(t)
	st2 := env.Schema.NewStore()
	_ = st
	_, err = MustCompile("ammo > 1", env).Run(st2)
	assert.Equal(t, "trees/guard.xml:12: script col 1: entry \"ammo\" has no value in `ammo > 1`", err.Error())

	// Long scripts are quoted around the error, about 64 bytes.
	long := strings.Repeat("hp + ", 40) + "foo"
	_, err = Compile(long, env)
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.LessOrEqual(t, len(se.Quote), quoteWidth+len("…"))
	assert.True(t, strings.HasPrefix(se.Quote, "…"), se.Quote)
	assert.True(t, strings.HasSuffix(se.Quote, "foo"), se.Quote)
	assert.Equal(t, len(long)-2, se.Col)

	long = "foo" + strings.Repeat(" + hp", 40)
	_, err = Compile(long, env)
	require.ErrorAs(t, err, &se)
	assert.True(t, strings.HasPrefix(se.Quote, "foo + hp"), se.Quote)
	assert.True(t, strings.HasSuffix(se.Quote, "…"), se.Quote)
	assert.LessOrEqual(t, len(se.Quote), quoteWidth+len("…"))
}

func TestLimits(t *testing.T) {
	env, st := fixture(t)
	_, err := Compile(strings.Repeat(" ", MaxSource)+"1", env)
	require.ErrorIs(t, err, ErrLimit)

	// Nesting just within the limits compiles and runs; one more is an error.
	ok := strings.Repeat("(", MaxDepth-2) + "1" + strings.Repeat(")", MaxDepth-2)
	v, err := MustCompile(ok, env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(1), v)
	for _, src := range []string{
		strings.Repeat("(", MaxDepth+1) + "1" + strings.Repeat(")", MaxDepth+1),
		strings.Repeat("!", MaxDepth+1) + "true",
		"1" + strings.Repeat("+1", MaxDepth),
		strings.Repeat("x := ", MaxDepth+1) + "1",
		strings.Repeat("true ? 1 : ", MaxDepth+1) + "1",
		"1" + strings.Repeat(" < 1", MaxDepth) + " + " + strings.Repeat("(", MaxDepth) + "1" + strings.Repeat(")", MaxDepth),
	} {
		_, err := Compile(src, env)
		require.ErrorIs(t, err, ErrLimit, src[:20])
	}
	// Long flat scripts are fine.
	flat := strings.Repeat("hp += 1;", 1000) + "hp"
	v, err = MustCompile(flat, env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(1042), v)
}
