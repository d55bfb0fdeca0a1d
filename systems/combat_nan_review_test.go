package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestCombatStrikesNothingFromNaN: an attacker or target at a NaN position,
// or a Weapon.Range of NaN, gives no strike. The range test used to read
// "distance > Range: no strike", false for a NaN on either side, so such an
// attacker hit a target across the map.
func TestCombatStrikesNothingFromNaN(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name     string
		from, to r2.Vec
		rng      float64
	}{
		{"NaN attacker position", r2.Vec{X: nan, Y: 1}, r2.Vec{X: 7, Y: 7}, 2},
		{"NaN target position", r2.Vec{X: 1, Y: 1}, r2.Vec{X: 7, Y: nan}, 2},
		{"NaN range", r2.Vec{X: 1, Y: 1}, r2.Vec{X: 7, Y: 7}, nan},
		{"in range", r2.Vec{X: 1, Y: 1}, r2.Vec{X: 2, Y: 1}, 2}, // the control: one strike
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := newWorld(8, 8)
			m := generic.NewMap4[components.Intent, components.Position, components.Weapon, components.Health](w)
			a, b := m.New(), m.New()
			ia, pa, wa, ha := m.Get(a)
			*wa, pa.Vec = components.Weapon{Damage: 10, Range: c.rng}, c.from
			*ha = components.Health{Current: 50, Max: 50} // a zero Health is down: it strikes nothing
			_, pb, _, hb := m.Get(b)
			*hb, pb.Vec = components.Health{Current: 50, Max: 50}, c.to
			cb := &Combat{}
			cb.Initialize(w)
			ia.Attack = b
			cb.Update(w)
			_, _, _, hb = m.Get(b)
			if c.name == "in range" {
				assert.Equal(t, 40.0, hb.Current)
				return
			}
			assert.Equal(t, 50.0, hb.Current, "no strike")
			assert.Zero(t, cb.Strikes)
		})
	}
}
