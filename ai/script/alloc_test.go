package script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestZeroAllocs: numeric and boolean scripts allocate nothing when they run, nor do
// scripts that only read or copy strings.
func TestZeroAllocs(t *testing.T) {
	for _, src := range []string{
		"hp > 10 && ammo >= 1",
		"ammo -= 1; ammo += 1",
		"hp = hp * 2 - 42",
		"speed *= 1.0; f32 = f32 + 0.25; f32 -= 0.25",
		"small = -small; small = -small; u8 += 0; mode = mode",
		"flag = !flag; flag = !flag",
		"1 < hp < 100 && speed != 0.3 || false",
		"hp > 40 ? speed * 2 : 0",
		"(hp & 0xff) | ~ammo ^ 1",
		"mode == BLUE && u64 >= 0",
		"name == 'bob' && tag != ''",
		"name = name; tag = 'elite'",
		"'3' == 3 && name < 'zed'",
		"x := hp / 2; x = x + 1",
	} {
		t.Run(src, func(t *testing.T) {
			env, st := fixture(t)
			p := MustCompile(src, env)
			_, err := p.Run(st)
			require.NoError(t, err)
			assert.Zero(t, testing.AllocsPerRun(100, func() { _, _ = p.Run(st) }), "Run")
			assert.Zero(t, testing.AllocsPerRun(100, func() { _ = p.Exec(st) }), "Exec")
			if p.Kind() != String {
				assert.Zero(t, testing.AllocsPerRun(100, func() { _, _ = p.Bool(st) }), "Bool")
			}
		})
	}
}
