package script

import (
	"errors"
	"testing"
)

// FuzzCompile: any input compiles or fails with an *Error, never panics, and a program
// that compiles runs (or fails with an *Error) on a store.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"hp > 10 && ammo >= 1", "x := 3; y := 5; x + y", "a:=1;;; b:=2;;", "0x1F | ~ammo ^ 3",
		"name .. ' ' .. tag == 'bob elite'", "true ? 1 : false ? 2.5 : 3", "1 < 2 < (hp = 0)",
		"small = 200", "u8 -= 1", "'3' == 3 && 'RED' == RED", "@hp += 1; hp /= 0",
		"flag = 'true'; f32 = 1e300", "((((1))))", "-(-(-hp))", "65..66", "3e+", "'open",
		"mode = GREEN; mode * 100", "pos + 1", "unset > 0 || unset_s", "speed /= 0.0",
		"hp * 9223372036854775807", "x := 'a' .. 1.5 .. true; x += 'b'", "!name", "hp = 7 / 2",
		"hp := 1\nammo = 2\n  hp + ammo", "+6e66>6666.6+66\r6>6;6e62=6+6e66>66666'; en';o'; \x7fn\x806\x1e;@e66",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		env, st := fixture(t)
		p, err := Compile(src, env)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %T is not *Error: %v", src, err, err)
			}
			if se.Col < 1 || se.Line < 1 || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("%q: bad position %+v", src, se)
			}
			return
		}
		for _, run := range []func() error{
			func() error { _, err := p.Run(st); return err },
			func() error { _, err := p.Bool(st); return err },
			func() error { return p.Exec(st) },
		} {
			if err := run(); err != nil {
				var se *Error
				if !errors.As(err, &se) {
					t.Fatalf("%q: run error %T is not *Error: %v", src, err, err)
				}
				if errors.Is(err, errInternal) || se == errInternal {
					t.Fatalf("%q: internal error", src)
				}
			}
		}
	})
}
