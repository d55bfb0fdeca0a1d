package script

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/ai/blackboard"
)

type (
	mode int8   // an enum defined on int8
	tag  string // a type defined on string
	vec  struct{ X, Y float64 }
)

var testEnums = map[string]int{"RED": 1, "BLUE": 3, "GREEN": 5}

// fixture returns an env whose schema holds entries of every supported kind (and one
// vector), and a store with all of them set except unset.
func fixture(t testing.TB) (*Env, *blackboard.Store) {
	t.Helper()
	s := blackboard.NewSchema()
	st := s.NewStore()
	set := func(err error) { require.NoError(t, err) }
	hp := blackboard.MustDeclare[int](s, "hp")
	ammo := blackboard.MustDeclare[int](s, "ammo")
	speed := blackboard.MustDeclare[float64](s, "speed")
	name := blackboard.MustDeclare[string](s, "name")
	flag := blackboard.MustDeclare[bool](s, "flag")
	small := blackboard.MustDeclare[int8](s, "small")
	u8 := blackboard.MustDeclare[uint8](s, "u8")
	u64 := blackboard.MustDeclare[uint64](s, "u64")
	f32 := blackboard.MustDeclare[float32](s, "f32")
	m := blackboard.MustDeclare[mode](s, "mode")
	tg := blackboard.MustDeclare[tag](s, "tag")
	pos := blackboard.MustDeclare[vec](s, "pos")
	blackboard.MustDeclare[int](s, "unset")
	blackboard.MustDeclare[string](s, "unset_s")
	set(nil)
	blackboard.Set(st, hp, 42)
	blackboard.Set(st, ammo, 3)
	blackboard.Set(st, speed, 1.5)
	blackboard.Set(st, name, "bob")
	blackboard.Set(st, flag, true)
	blackboard.Set(st, small, -7)
	blackboard.Set(st, u8, 200)
	blackboard.Set(st, u64, 7)
	blackboard.Set(st, f32, 0.5)
	blackboard.Set(st, m, 3)
	blackboard.Set(st, tg, "elite")
	blackboard.Set(st, pos, vec{1, 2})
	return &Env{Schema: s, Enums: testEnums}, st
}

// run compiles and runs src on a fresh fixture.
func run(t *testing.T, src string) (Value, error) {
	t.Helper()
	env, st := fixture(t)
	p, err := Compile(src, env)
	if err != nil {
		return Value{}, err
	}
	return p.Run(st)
}

func TestLiterals(t *testing.T) {
	cases := []struct {
		src  string
		want Value
	}{
		{"628", IntValue(628)},
		{"-628", IntValue(-628)},
		{"0x100", IntValue(256)},
		{"0X1f", IntValue(31)},
		{"007", IntValue(7)},
		{"3.14", FloatValue(3.14)},
		{"-3.14", FloatValue(-3.14)},
		{"3.14e2", FloatValue(314)},
		{"3.14e-2", FloatValue(0.0314)},
		{"3e2", FloatValue(300)},
		{"3E-2", FloatValue(0.03)},
		{"'hello world '", StringValue("hello world ")},
		{"''", StringValue("")},
		{"'say \"hi\"'", StringValue(`say "hi"`)},
		{"true", BoolValue(true)},
		{"false", BoolValue(false)},
		{"9223372036854775807", IntValue(math.MaxInt64)},
		{"RED", IntValue(1)},
		{"GREEN", IntValue(5)},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			v, err := run(t, c.src)
			require.NoError(t, err)
			assert.Equal(t, c.want, v)
		})
	}
}

// TestOperators checks each operator and precedence level (fixture: hp 42, ammo 3, speed
// 1.5, name "bob", flag true).
func TestOperators(t *testing.T) {
	cases := []struct {
		src  string
		want Value
	}{
		// arithmetic, left associative (BT.CPP issue 1029)
		{"5 - 2 + 1", IntValue(4)},
		{"10 - 3 - 2", IntValue(5)},
		{"2 + 3 - 1", IntValue(4)},
		{"12 / 3 / 2", FloatValue(2)},
		{"12 / 3 * 2", FloatValue(8)},
		{"2 + 3 * 4 - 1", IntValue(13)},
		{"(2 + 3) * 4", IntValue(20)},
		{"2 * (3 + 4)", IntValue(14)},
		{"7 / 2", FloatValue(3.5)}, // / is a float division, as in BT.CPP
		{"hp * 2", IntValue(84)},
		{"hp + speed", FloatValue(43.5)},
		{"speed * 2", FloatValue(3)},
		{"true + 1", IntValue(2)},
		{"f32 + small", FloatValue(-6.5)},
		{"mode * 2", IntValue(6)},
		{"u8 - 1", IntValue(199)},
		// unary operators bind tightest
		{"-hp", IntValue(-42)},
		{"-speed", FloatValue(-1.5)},
		{"-(3 + 2)", IntValue(-5)},
		{"10 + -3", IntValue(7)},
		{"-2 * 3", IntValue(-6)},
		{"-hp * 2", IntValue(-84)},
		{"- -5", IntValue(5)},
		{"-true", IntValue(-1)},
		{"!true", BoolValue(false)},
		{"!false", BoolValue(true)},
		{"!!true", BoolValue(true)},
		{"!0", BoolValue(true)},
		{"!2.5", BoolValue(false)},
		{"!flag == false", BoolValue(true)}, // (!flag) == false
		{"~0", IntValue(-1)},
		{"~5", IntValue(-6)},
		{"~4.0", IntValue(-5)},
		// bitwise: & above | and ^, all above comparisons
		{"5 & 3", IntValue(1)},
		{"5 | 3", IntValue(7)},
		{"5 ^ 3", IntValue(6)},
		{"6 | 3 & 5", IntValue(7)},
		{"6 ^ 3 & 5", IntValue(7)},
		{"1 | 2 == 3", BoolValue(true)}, // (1|2) == 3, unlike C
		{"2 + 1 & 3", IntValue(3)},      // (2+1) & 3
		{"true && (6 | 0)", BoolValue(true)},
		// comparisons, chained
		{"hp > 10", BoolValue(true)},
		{"hp < 10", BoolValue(false)},
		{"hp >= 42", BoolValue(true)},
		{"hp <= 41", BoolValue(false)},
		{"hp == 42", BoolValue(true)},
		{"hp != 42", BoolValue(false)},
		{"1 < 2 < 3", BoolValue(true)},
		{"3 > 2 > 1", BoolValue(true)},
		{"1 < 2 > 3", BoolValue(false)},
		{"5 == 5 == 5", BoolValue(true)},
		{"5 == 5 != 3", BoolValue(true)},
		{"1 <= 2 <= 3", BoolValue(true)},
		{"3 >= 2 >= 1", BoolValue(true)},
		{"1 < 2.5 < '3' == 3", BoolValue(true)}, // one domain: numbers, the string read as one
		{"0.5 < speed < 2.5", BoolValue(true)},
		{"0.5 < speed <= 1.5 >= 1.5 != 1 < 1.5 > 1", BoolValue(true)},
		{"0.5 < speed < 1.0", BoolValue(false)},
		{"speed <= 1.4", BoolValue(false)},
		{"speed >= 1.6", BoolValue(false)},
		{"'a' < 'b' < 'c'", BoolValue(true)},
		{"'a' < 'c' < 'b'", BoolValue(false)},
		{"'a' <= 'a' >= 'a' != 'b' == 'b' > 'a'", BoolValue(true)},
		{"'b' <= 'a'", BoolValue(false)},
		{"'a' >= 'b'", BoolValue(false)},
		{"1 <= 2 >= 2 != 3 == 3 > 2", BoolValue(true)},
		{"int_val := 42; int_val + 1 == 43", BoolValue(true)},
		{"hp + 1 == 43 && ammo >= 1", BoolValue(true)},
		{"1 == 1.0", BoolValue(true)},
		{"0.1 + 0.2 == 0.3", BoolValue(true)}, // within float32 epsilon, as BT.CPP
		{"1 == 1.0000001", BoolValue(true)},   // |difference| 1e-7 <= 1.19e-7
		{"1 == 1.000001", BoolValue(false)},   // 1e-6
		{"0.1 + 0.2 > 0.3", BoolValue(true)},  // < > are exact
		{"1 != 1.0000001", BoolValue(false)},  // the negation of ==
		{"speed == 1.5 && f32 == 0.5", BoolValue(true)},
		{"'hello' == 'hello'", BoolValue(true)},
		{"'hello' != 'world'", BoolValue(true)},
		{"'hello' < 'world'", BoolValue(true)},
		{"'hello' > 'world'", BoolValue(false)},
		{"name == 'bob'", BoolValue(true)},
		{"tag == 'elite'", BoolValue(true)},
		{"'3' == 3", BoolValue(true)}, // a string compared with a number is read as a number
		{"'3.5' > 3", BoolValue(true)},
		{"'true' == 1", BoolValue(true)},
		{"'BLUE' == 3", BoolValue(true)},
		{"flag == 1", BoolValue(true)},
		{"flag == true", BoolValue(true)},
		{"A != -1", BoolValue(true)}, // BT.CPP issue 832, with A an enum below
		{"u64 == 7", BoolValue(true)},
		{"mode == BLUE", BoolValue(true)},
		// logic: && above ||
		{"false || true && true", BoolValue(true)},
		{"false && true || true", BoolValue(true)},
		{"true || false && false", BoolValue(true)},
		{"flag && hp > 10", BoolValue(true)},
		{"hp && 0.0", BoolValue(false)},
		{"0 || 2", BoolValue(true)},
		// strings
		{"'a' .. 'b'", StringValue("ab")},
		{"'hp=' .. hp", StringValue("hp=42")},
		{"speed .. '!'", StringValue("1.5!")},
		{"'' .. flag", StringValue("true")},
		{"'A' + 'B'", StringValue("AB")},
		{"name .. ' ' .. tag", StringValue("bob elite")},
		{"'x' .. (1 + 2)", StringValue("x3")},
		{"'65' .. '66'", StringValue("6566")},
		// ternary: loosest but assignment; the else branch nests
		{"true ? 1 : 2", IntValue(1)},
		{"false ? 1 : 2", IntValue(2)},
		{"true ? 2 + 3 : 10", IntValue(5)},
		{"false ? 10 : 2 + 3", IntValue(5)},
		{"false ? 1 : 2.5", FloatValue(2.5)},
		{"true ? 1 : 2.5", FloatValue(1)},
		{"hp > 10 ? 'ok' : 'low'", StringValue("ok")},
		{"3 < 2 ? 'yes' : 'no'", StringValue("no")},
		{"'' ? 1 : 2", IntValue(2)},
		{"name ? 1 : 2", IntValue(1)},
		{"false ? 1 : true ? 2 : 3", IntValue(2)},
		{"hp > 100 || flag ? 1 : 2", IntValue(1)}, // (hp > 100 || flag) ? 1 : 2
		{"flag ? false : true", BoolValue(false)},
		// statements: the value is the last one's
		{"x := 3; y := 5; x + y", IntValue(8)},
		{"a:=1;;; b:=2;;", IntValue(2)},
		{"hp = 10; hp", IntValue(10)},
		{"hp = 10\nhp", IntValue(10)}, // a line break separates statements
		{"hp = 10\r\n  hp * 2", IntValue(20)},
		{"hp > 10 &&\n ammo > 1\n", BoolValue(true)}, // an expression goes on over a line break
		{"hp = 10\n-1", IntValue(9)},                 // ... when the next line starts with an operator
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			env, st := fixture(t)
			env.Enums = map[string]int{"RED": 1, "BLUE": 3, "GREEN": 5, "A": 0}
			p, err := Compile(c.src, env)
			require.NoError(t, err)
			v, err := p.Run(st)
			require.NoError(t, err)
			assert.Equal(t, c.want, v)
			assert.Equal(t, c.want.Kind(), p.Kind())
		})
	}
}

func TestAssignmentCreates(t *testing.T) {
	env, st := fixture(t)
	p := MustCompile("x := 3; y := 2.5; s := 'a'; b := true; r := RED; q := 7 / 2", env)
	_, err := p.Run(st)
	require.NoError(t, err)
	s := env.Schema
	assert.Equal(t, reflect.TypeFor[int](), s.Type("x"))
	assert.Equal(t, reflect.TypeFor[float64](), s.Type("y"))
	assert.Equal(t, reflect.TypeFor[string](), s.Type("s"))
	assert.Equal(t, reflect.TypeFor[bool](), s.Type("b"))
	assert.Equal(t, reflect.TypeFor[int](), s.Type("r"))
	assert.Equal(t, reflect.TypeFor[float64](), s.Type("q"))
	x, _ := blackboard.Lookup[int](s, "x")
	v, ok := blackboard.Get(st, x)
	assert.True(t, ok)
	assert.Equal(t, 3, v)
	r, _ := blackboard.Lookup[int](s, "r")
	v, _ = blackboard.Get(st, r)
	assert.Equal(t, 1, v)
	q, _ := blackboard.Lookup[float64](s, "q")
	f, _ := blackboard.Get(st, q)
	assert.Equal(t, 3.5, f)

	// A second script sees the entries; := on an existing entry assigns with its type.
	p = MustCompile("x := 4.0; y += 1; s += 'b'; b = !b; x", env)
	v2, err := p.Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(4), v2)
	fy, _ := blackboard.Get(st, blackboard.MustDeclare[float64](s, "y"))
	assert.Equal(t, 3.5, fy)
	ss, _ := blackboard.Get(st, blackboard.MustDeclare[string](s, "s"))
	assert.Equal(t, "ab", ss)
	bb, _ := blackboard.Get(st, blackboard.MustDeclare[bool](s, "b"))
	assert.False(t, bb)

	// A store made before the entries were declared grows when a script writes them.
	old := s.NewStore()
	_, err = MustCompile("fresh := 9", env).Run(old)
	require.NoError(t, err)
	fv, ok := blackboard.Get(old, blackboard.MustDeclare[int](s, "fresh"))
	assert.True(t, ok)
	assert.Equal(t, 9, fv)
}

// TestAssignment pins each assignment operator and the conversion to the entry's type.
func TestAssignment(t *testing.T) {
	cases := []struct {
		src  string
		want Value
		err  error // at run time
	}{
		{"hp = 7", IntValue(7), nil},
		{"hp := 7", IntValue(7), nil},
		{"hp = 2.0", IntValue(2), nil},
		{"hp = 6 / 2", IntValue(3), nil},
		{"hp = 7 / 2", Value{}, ErrConversion}, // 3.5 does not fit an int
		{"hp = '12'", IntValue(12), nil},       // a string reading as a number converts
		{"hp = BLUE", IntValue(3), nil},
		{"hp = true", IntValue(1), nil},
		{"hp += 1", IntValue(43), nil},
		{"hp -= 2", IntValue(40), nil},
		{"hp *= 2", IntValue(84), nil},
		{"hp /= 2", IntValue(21), nil},
		{"hp /= 4", Value{}, ErrConversion},
		{"hp += 0.5", Value{}, ErrConversion},
		{"hp += 1; hp += 1; hp", IntValue(44), nil},
		{"speed = 3", FloatValue(3), nil},
		{"speed /= 2", FloatValue(0.75), nil},
		{"speed = '2.25'", FloatValue(2.25), nil},
		{"name = 'ann'", StringValue("ann"), nil},
		{"name += '!'", StringValue("bob!"), nil},
		{"tag = 'boss'", StringValue("boss"), nil},
		{"flag = false", BoolValue(false), nil},
		{"flag = 0", BoolValue(false), nil},
		{"flag = 1.0", BoolValue(true), nil},
		{"flag = 'false'", BoolValue(false), nil},
		{"flag = 2", Value{}, ErrConversion},
		{"flag = !flag", BoolValue(false), nil},
		{"small = -128", IntValue(-128), nil},
		{"small = 127", IntValue(127), nil},
		{"small = 128", Value{}, ErrConversion},
		{"small -= 122", Value{}, ErrConversion}, // -129
		{"u8 = 255", IntValue(255), nil},
		{"u8 = -1", Value{}, ErrConversion},
		{"u8 += 56", Value{}, ErrConversion},
		{"u64 = -1", Value{}, ErrConversion},
		{"u64 = 9223372036854775807", IntValue(math.MaxInt64), nil},
		{"f32 = 0.1", FloatValue(float64(float32(0.1))), nil}, // rounded to float32
		{"f32 = 1e300", Value{}, ErrConversion},
		{"mode = GREEN", IntValue(5), nil},
		{"mode = 300", Value{}, ErrConversion},
		{"x := hp = 5", IntValue(5), nil}, // an assignment's value is the new value
		{"(hp = 5) + 1", IntValue(6), nil},
		{"unset += 1", Value{}, ErrNotSet},
		{"unset = 1; unset += 1", IntValue(2), nil},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			v, err := run(t, c.src)
			if c.err != nil {
				require.ErrorIs(t, err, c.err)
				var se *Error
				require.ErrorAs(t, err, &se)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, v)
		})
	}
}

// TestAssignmentStores reads back through typed keys what scripts wrote, for every
// integer and float width (the untyped access through blackboard.Scalar).
func TestAssignmentStores(t *testing.T) {
	s := blackboard.NewSchema()
	st := s.NewStore()
	env := &Env{Schema: s}
	check := func(t *testing.T, name, src string, get func() any, want any) {
		t.Helper()
		_, err := MustCompile(src, env).Run(st)
		require.NoError(t, err, src)
		assert.Equal(t, want, get(), src)
		v, err := MustCompile(name, env).Run(st)
		require.NoError(t, err)
		assert.Equal(t, fmtAny(want), v.String(), "read back "+name)
	}
	i8 := blackboard.MustDeclare[int8](s, "i8")
	i16 := blackboard.MustDeclare[int16](s, "i16")
	i32 := blackboard.MustDeclare[int32](s, "i32")
	i64 := blackboard.MustDeclare[int64](s, "i64")
	u16 := blackboard.MustDeclare[uint16](s, "u16")
	u32 := blackboard.MustDeclare[uint32](s, "u32")
	u := blackboard.MustDeclare[uint](s, "u")
	up := blackboard.MustDeclare[uintptr](s, "up")
	f32 := blackboard.MustDeclare[float32](s, "f32")
	m := blackboard.MustDeclare[mode](s, "m")
	get := func(f func() (any, bool)) func() any { return func() any { v, _ := f(); return v } }
	check(t, "i8", "i8 = -100", get(func() (any, bool) { return blackboard.Get(st, i8) }), int8(-100))
	check(t, "i16", "i16 = -30000", get(func() (any, bool) { return blackboard.Get(st, i16) }), int16(-30000))
	check(t, "i32", "i32 = -2000000000", get(func() (any, bool) { return blackboard.Get(st, i32) }), int32(-2000000000))
	check(t, "i64", "i64 = -9000000000", get(func() (any, bool) { return blackboard.Get(st, i64) }), int64(-9000000000))
	check(t, "u16", "u16 = 65535", get(func() (any, bool) { return blackboard.Get(st, u16) }), uint16(65535))
	check(t, "u32", "u32 = 4000000000", get(func() (any, bool) { return blackboard.Get(st, u32) }), uint32(4000000000))
	check(t, "u", "u = 12345", get(func() (any, bool) { return blackboard.Get(st, u) }), uint(12345))
	check(t, "up", "up = 77", get(func() (any, bool) { return blackboard.Get(st, up) }), uintptr(77))
	check(t, "f32", "f32 = -2.5", get(func() (any, bool) { return blackboard.Get(st, f32) }), float32(-2.5))
	check(t, "m", "m = 5", get(func() (any, bool) { return blackboard.Get(st, m) }), mode(5))

	// Values set by typed keys read back in scripts.
	blackboard.Set(st, i16, -2)
	blackboard.Set(st, u32, 3000000000)
	v, err := MustCompile("i16 * u32", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(-6000000000), v)

	// A uint64 beyond int64 cannot be read.
	u64 := blackboard.MustDeclare[uint64](s, "u64")
	blackboard.Set(st, u64, 1<<63)
	_, err = MustCompile("u64 + 0", env).Run(st)
	require.ErrorIs(t, err, ErrConversion)
	assert.Contains(t, err.Error(), `"u64"`)
}

func fmtAny(v any) string {
	switch x := v.(type) {
	case float32:
		return FloatValue(float64(x)).String()
	}
	return IntValue(reflect.ValueOf(v).Convert(reflect.TypeFor[int64]()).Int()).String()
}

// TestShortCircuit: the side not evaluated does not assign.
func TestShortCircuit(t *testing.T) {
	cases := []struct {
		src    string
		hp     int // hp after
		result bool
	}{
		{"false && (hp = 1) > 0", 42, false},
		{"true || (hp = 1) > 0", 42, true},
		{"hp > 100 && (hp -= 1) >= 0", 42, false},
		{"hp > 10 && (hp -= 1) >= 0", 41, true},
		{"hp < 10 || (hp -= 1) >= 0", 41, true},
		{"true ? true : (hp = 1) > 0", 42, true},
		{"false ? (hp = 1) > 0 : false", 42, false},
		{"1 > 2 > (hp = 0)", 42, false},               // a chain stops at the first false pair
		{"1 < 2 < (hp = 0)", 0, false},                // ... and evaluates each operand once
		{"(hp += 1) < 100 < 200; hp == 43", 43, true}, // the middle operand is evaluated once
		{"1 < (hp += 1) < 100; hp", 43, true},         // once, though it takes part in two pairs
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			env, st := fixture(t)
			p := MustCompile(c.src, env)
			b, err := p.Bool(st)
			require.NoError(t, err)
			assert.Equal(t, c.result, b)
			v, _ := blackboard.Get(st, blackboard.MustDeclare[int](env.Schema, "hp"))
			assert.Equal(t, c.hp, v)
		})
	}
	// An unset entry on the side not evaluated is no error.
	env, st := fixture(t)
	b, err := MustCompile("false && unset > 0", env).Bool(st)
	require.NoError(t, err)
	assert.False(t, b)
	_, err = MustCompile("true && unset > 0", env).Bool(st)
	require.ErrorIs(t, err, ErrNotSet)
}

func TestEnums(t *testing.T) {
	env, st := fixture(t)
	p := MustCompile("A:=RED; B:=RED; C:=BLUE; A==B && A!=C && C == 3", env)
	b, err := p.Bool(st)
	require.NoError(t, err)
	assert.True(t, b)
	// An enum shadows an entry of its name; @name never names an enum.
	blackboard.MustDeclare[int](env.Schema, "RED")
	v, err := MustCompile("RED", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(1), v)
	v, err = MustCompile("@RED := 9; @RED + RED", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(10), v)
	_, err = Compile("RED = 2", env)
	require.ErrorIs(t, err, ErrType)
	// A string entry compared with a number reads enum names.
	v, err = MustCompile("tag = 'GREEN'; tag == 5", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, BoolValue(true), v)
}

func TestResolve(t *testing.T) {
	env, st := fixture(t)
	blackboard.MustDeclare[int](env.Schema, "Flee#1.hp")
	var seen []string
	env.Resolve = func(name string, root bool) (Binding, error) {
		seen = append(seen, name+map[bool]string{true: "@", false: ""}[root])
		switch {
		case name == "limit":
			return Binding{Const: IntValue(40), IsConst: true}, nil
		case name == "nothing":
			return Binding{}, errors.New("not remapped")
		case root:
			return Binding{Key: name}, nil
		}
		return Binding{Key: "Flee#1." + name}, nil
	}
	p := MustCompile("hp := @hp + 1; hp > limit", env)
	b, err := p.Bool(st)
	require.NoError(t, err)
	assert.True(t, b)
	v, _ := blackboard.Get(st, blackboard.MustDeclare[int](env.Schema, "Flee#1.hp"))
	assert.Equal(t, 43, v)
	assert.Equal(t, []string{"hp", "hp@", "hp", "limit"}, seen)

	_, err = Compile("limit = 3", env)
	require.ErrorIs(t, err, ErrType)
	_, err = Compile("nothing > 1", env)
	require.ErrorIs(t, err, ErrUnknownEntry)
	assert.Contains(t, err.Error(), "not remapped")

	// Without Resolve, @name is the entry name.
	env.Resolve = nil
	v2, err := MustCompile("@hp + hp", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, IntValue(84), v2)
	_, err = Compile("@ + 1", env)
	require.ErrorIs(t, err, ErrSyntax)
}

func TestBoolAndExec(t *testing.T) {
	env, st := fixture(t)
	for src, want := range map[string]bool{"hp": true, "0": false, "speed - 1.5": false, "flag": true, "hp > 50": false} {
		b, err := MustCompile(src, env).Bool(st)
		require.NoError(t, err, src)
		assert.Equal(t, want, b, src)
	}
	p := MustCompile("name", env)
	assert.Equal(t, String, p.Kind())
	_, err := p.Bool(st)
	require.ErrorIs(t, err, ErrType)

	require.NoError(t, MustCompile("ammo -= 1; name = 'x' .. ammo", env).Exec(st))
	v, err := MustCompile("name", env).Run(st)
	require.NoError(t, err)
	assert.Equal(t, StringValue("x2"), v)
	assert.Equal(t, "name", p.Source())
}

func TestStoreMismatch(t *testing.T) {
	env, _ := fixture(t)
	p := MustCompile("hp > 1", env)
	other := blackboard.NewSchema().NewStore()
	for _, st := range []*blackboard.Store{nil, other} {
		_, err := p.Run(st)
		require.ErrorIs(t, err, ErrStore)
		_, err = p.Bool(st)
		require.ErrorIs(t, err, ErrStore)
		require.ErrorIs(t, p.Exec(st), ErrStore)
	}
	// A script that uses no entry runs on any store.
	v, err := MustCompile("1 + 1", env).Run(nil)
	require.NoError(t, err)
	assert.Equal(t, IntValue(2), v)
	v, err = MustCompile("2 * 3", nil).Run(other)
	require.NoError(t, err)
	assert.Equal(t, IntValue(6), v)
}

func TestValue(t *testing.T) {
	assert.Equal(t, "<invalid>", Value{}.String())
	assert.Equal(t, Invalid, Value{}.Kind())
	assert.Equal(t, "1e+21", FloatValue(1e21).String())
	assert.Equal(t, "-0.25", FloatValue(-0.25).String())
	assert.Equal(t, int64(2), FloatValue(2.9).Int())
	assert.Equal(t, int64(math.MaxInt64), FloatValue(1e300).Int())
	assert.Equal(t, int64(math.MinInt64), FloatValue(-1e300).Int())
	assert.Equal(t, int64(0), StringValue("7").Int())
	assert.Equal(t, 1.0, BoolValue(true).Float())
	assert.Equal(t, 7.0, IntValue(7).Float())
	assert.True(t, StringValue("x").Bool())
	assert.False(t, FloatValue(0).Bool())
	assert.Equal(t, "string", String.String())
	assert.Equal(t, "Kind(9)", Kind(9).String())
	assert.True(t, strings.HasPrefix(IntValue(-3).String(), "-3"))
}

// TestDocumentedExamples runs the examples of behaviortree.dev's "Introduction to
// Scripting" and of tutorial t09, each as one Script node after the other on one store.
func TestDocumentedExamples(t *testing.T) {
	s := blackboard.NewSchema()
	st := s.NewStore()
	env := &Env{Schema: s, Enums: map[string]int{"RED": 1, "BLUE": 2, "GREEN": 3, "THE_ANSWER": 42}}
	get := func(src string) Value {
		t.Helper()
		v, err := MustCompile(src, env).Run(st)
		require.NoError(t, err, src)
		return v
	}
	get("param_A := 42; param_B := 3.14; message := 'hello world'")
	get("param_B = 3.14; message = 'hello world'")
	get("A:= 42; B:=24")
	get("param_A := 7\nparam_B := 5\nparam_B *= 2\nparam_C := (param_A * 3) + param_B")
	assert.Equal(t, FloatValue(10), get("param_B")) // param_B was created a float by 3.14
	assert.Equal(t, FloatValue(31), get("param_C"))
	assert.Equal(t, IntValue(7), get("param_A"))
	get("value:= 0x7F; val_A:= value & 0x0F; val_B:= value | 0xF0")
	assert.Equal(t, IntValue(15), get("val_A"))
	assert.Equal(t, IntValue(255), get("val_B"))
	get("val_A := true; val_B := 5 > 3; val_C := (val_A == val_B); val_D := (val_A && val_B) || !val_C")
	assert.Equal(t, BoolValue(true), get("val_D"))
	assert.Equal(t, StringValue("hello world"), get("message"))
	// B is an int now: 3.14 does not fit it (nor does it in BT.CPP).
	_, err := Compile("B := 3.14", env)
	require.ErrorIs(t, err, ErrConversion)

	// t09_scripting: a Precondition on A>-B && color != BLUE.
	s = blackboard.NewSchema()
	st = s.NewStore()
	env.Schema = s
	get("msg:='hello world'")
	get("A:=THE_ANSWER; B:=3.14; color:=RED")
	b, err := MustCompile("A>-B && color != BLUE", env).Bool(st)
	assert.Equal(t, FloatValue(3.14), get("B"))
	require.NoError(t, err)
	assert.True(t, b)
	// ParserTest.Enums_Issue_523: _skipIf="!isLowBattery".
	get("isLowBattery := 20 < 25")
	b, err = MustCompile("!isLowBattery", env).Bool(st)
	require.NoError(t, err)
	assert.False(t, b)
	// Assignments chain to the right.
	assert.Equal(t, IntValue(4), get("x := y := 4; x"))
	assert.Equal(t, IntValue(4), get("y"))
}

// TestConcurrentRuns: one program runs on several agents' stores at once.
func TestConcurrentRuns(t *testing.T) {
	env, _ := fixture(t)
	p := MustCompile("ammo += 1; hp > 10 && ammo >= 1 ? name .. ammo : 'none'", env)
	stores := make([]*blackboard.Store, 4)
	done := make(chan struct{})
	for i := range stores {
		stores[i] = env.Schema.NewStore()
		blackboard.Set(stores[i], blackboard.MustDeclare[int](env.Schema, "hp"), 50)
		blackboard.Set(stores[i], blackboard.MustDeclare[int](env.Schema, "ammo"), i)
		blackboard.Set(stores[i], blackboard.MustDeclare[string](env.Schema, "name"), "g")
	}
	for _, st := range stores {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 100 {
				if _, err := p.Run(st); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range stores {
		<-done
	}
	for i, st := range stores {
		v, err := MustCompile("ammo", env).Run(st)
		require.NoError(t, err)
		assert.Equal(t, IntValue(int64(i+100)), v)
	}
}

// TestBTCPPRegressions re-creates BT.CPP's scripting regressions: comparing with a
// negative literal (issue 832), a uint8 entry compared with 0 (issue 595), and a large
// invalid script (issue 923) that must fail cleanly.
func TestBTCPPRegressions(t *testing.T) {
	s := blackboard.NewSchema()
	st := s.NewStore()
	env := &Env{Schema: s}
	for src, want := range map[string]bool{
		"A:=0; A!=-1": true, "A:=-1; A!=-1": false, "A:=0; A==-1": false, "A:=0; A>-1": true, "A:=0; A<-1": false,
	} {
		b, err := MustCompile(src, env).Bool(st)
		require.NoError(t, err, src)
		assert.Equal(t, want, b, src)
	}
	blackboard.Set(st, blackboard.MustDeclare[uint8](s, "find_enemy"), 0)
	b, err := MustCompile("find_enemy==0", env).Bool(st)
	require.NoError(t, err)
	assert.True(t, b)

	var big strings.Builder
	for range 10 {
		big.WriteString("+6e66>6666.6+66\r6>6;6e62=6+6e66>66666'; en';o';o'; en'; \x7fn\x7fr;6.6+66.H>6+6\x806\x1e;@e66")
	}
	_, err = Compile(big.String(), env)
	require.ErrorIs(t, err, ErrSyntax)
}
