package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Review of SteerIncomplete's move rule: every combination of the public
// bundles, each agent's Intent set to every kind of request (move, flee,
// pursue, evade, attack only, nothing): an agent with a moving bundle
// (Mover, Wanderer, FlowFollower) is never SteerIncomplete; one without is
// counted exactly when its Intent asks to move. Two moving bundles together
// are refused by NewSpawner (both set Kinematics).
func TestDiagnoseBundleCombinationsSteerIncomplete(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	type named struct {
		name   string
		b      systems.Bundle
		moving bool
	}
	all := []named{
		{"Mover", systems.Mover{}, true},
		{"Wanderer", systems.Wanderer{}, true},
		{"FlowFollower", systems.FlowFollower{Goal: grid.Cell{X: 8, Y: 8}}, true},
		{"Thinker", systems.Thinker{Tree: tree}, false},
		{"Combatant", systems.Combatant{}, false},
		{"Avoider", systems.Avoider{}, false},
	}
	intents := []struct {
		name string
		in   components.Intent
		asks bool
	}{
		{"nothing", components.Intent{}, false},
		{"attack only", components.Intent{Attack: arche.Entity{}}, false},
		{"move", components.Intent{Move: true, Goal: r2.Vec{X: 8.5, Y: 8.5}}, true},
		{"flee", components.Intent{Mode: components.IntentFlee, Point: r2.Vec{X: 1.5, Y: 1.5}}, true},
		{"pursue", components.Intent{Mode: components.IntentPursue, Point: r2.Vec{X: 1.5, Y: 1.5}}, true},
		{"evade", components.Intent{Mode: components.IntentEvade, Point: r2.Vec{X: 1.5, Y: 1.5}}, true},
	}
	for mask := 1; mask < 1<<len(all); mask++ {
		var bs []systems.Bundle
		name, moving, hasIntent, movers := "", false, false, 0
		for i, n := range all {
			if mask&(1<<i) != 0 {
				bs = append(bs, n.b)
				name += n.name + "+"
				moving = moving || n.moving
				hasIntent = hasIntent || n.moving || n.name == "Thinker"
				if n.moving {
					movers++
				}
			}
		}
		if movers > 1 { // two moving bundles both set Kinematics: refused
			w := arche.NewWorld()
			_, err := systems.NewSpawner(&w, bs...)
			require.ErrorContains(t, err, "both set components.Kinematics", name)
			continue
		}
		for _, it := range intents {
			t.Run(fmt.Sprintf("%s/%s", name, it.name), func(t *testing.T) {
				w := arche.NewWorld()
				arche.AddResource(&w, grid.New(16, 16))
				sp, err := systems.NewSpawner(&w, bs...)
				require.NoError(t, err)
				sp.Spawn(r2.Vec{X: 4.5, Y: 4.5}, func(a *systems.Spawned) {
					if a.Intent != nil {
						*a.Intent = it.in
					}
				})
				r := systems.Diagnose(&w)
				want := 0
				if !moving && hasIntent && it.asks {
					want = 1
				}
				require.Equal(t, want, r.Counts[systems.CauseSteerIncomplete], "%v", r)
			})
		}
	}
}
