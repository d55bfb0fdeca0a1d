package systems_test

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
)

// A Cooldown that is not a multiple of the frame step: Weapon.Cooldown is "the
// least time between two strikes" and Combat's doc says a wait "rounds up to its
// next think". On a 1 s clock with a 1.4 s Cooldown, an agent asking every frame
// strikes every 2 s (times 0, 2, 4, ...), never 1 s after a strike (the rule
// t ≥ ReadyAt − DT/2 struck at 0, 1, 2, ...: 1.4 times the damage per second).
// On a 60 Hz clock with a 0.255 s Cooldown no two strikes are closer than it.
func TestCooldownNeverShorterThanCooldown(t *testing.T) {
	for _, tc := range []struct {
		dt, cooldown float64
		frames       int
	}{{1, 1.4, 10}, {1.0 / 60, 0.255, 600}, {0.1, 0.5, 100}} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, &ecs.Clock{})
		m := generic.NewMap5[components.Intent, components.Position, components.Weapon, components.Health, components.Velocity](w)
		target := m.NewWith(&components.Intent{}, &components.Position{Vec: r2.Vec{X: 5, Y: 5}}, &components.Weapon{},
			&components.Health{Current: 1e9, Max: 1e9}, &components.Velocity{})
		a := m.NewWith(&components.Intent{}, &components.Position{Vec: r2.Vec{X: 6, Y: 5}},
			&components.Weapon{Damage: 1, Range: 2, Cooldown: tc.cooldown}, &components.Health{Current: 1, Max: 1}, &components.Velocity{})
		s := ecs.NewScheduler(ecs.NewClockSystem(tc.dt), &systems.Combat{})
		s.Initialize(w)
		in := generic.NewMap1[components.Intent](w)
		clock := ecs.Resource[ecs.Clock](w)
		var strikes []float64
		for range tc.frames {
			in.Get(a).Attack = target
			hp := generic.NewMap1[components.Health](w)
			h0 := hp.Get(target).Current
			s.Update(w)
			if hp.Get(target).Current < h0 {
				strikes = append(strikes, clock.Time)
			}
		}
		for i := 1; i < len(strikes); i++ {
			if gap := strikes[i] - strikes[i-1]; gap < tc.cooldown-1e-9 {
				t.Fatalf("DT %v, Cooldown %v: strikes at %v and %v, %v apart", tc.dt, tc.cooldown, strikes[i-1], strikes[i], gap)
			}
		}
		// the wait rounds up to the next frame: one strike per ceil(Cooldown/DT) frames
		per := 0
		for k := 1; float64(k)*tc.dt < tc.cooldown-1e-9; k++ {
			per = k
		}
		per++
		assert.Equal(t, (tc.frames-1)/per+1, len(strikes), "DT %v, Cooldown %v", tc.dt, tc.cooldown)
	}
}
