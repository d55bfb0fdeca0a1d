package script

import "testing"

// BenchmarkCondition: one evaluation of a typical precondition, per agent.
func BenchmarkCondition(b *testing.B) {
	env, st := fixture(b)
	p := MustCompile("hp > 10 && ammo >= 1", env)
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := p.Bool(st); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkAssignment: one evaluation of a typical Script node.
func BenchmarkAssignment(b *testing.B) {
	env, st := fixture(b)
	p := MustCompile("ammo += 1; speed = speed * 0.5 + 1", env)
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Exec(st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChain: a chained comparison with an int8 enum and a float32.
func BenchmarkChain(b *testing.B) {
	env, st := fixture(b)
	p := MustCompile("0 < hp <= 100 && mode == BLUE && f32 != 0", env)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Bool(st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile: compiling a condition, at load.
func BenchmarkCompile(b *testing.B) {
	env, _ := fixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile("hp > 10 && ammo >= 1 ? 'attack' : 'flee'", env); err != nil {
			b.Fatal(err)
		}
	}
}
