package systems_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A tree reads {noise}, a key the program sets from Go on an event (a thief
// heard) with blackboard.Set, as the note of blackboard_key_unwritten advised.
// The guards not yet told are still counted, and the note said only "set it from
// Go (blackboard.Set)", which the program did (a newcomer's stealth game): it now
// names the fix, declaring the key in the registry's schema before the tree is
// loaded, which ends the finding.
func TestUnwrittenKeyNoteNamesDeclaringAKeySetFromGo(t *testing.T) {
	const file = `<root BTCPP_format="4"><BehaviorTree ID="Guard">
		<Fallback><Investigate goal="{noise}"/><AlwaysSuccess/></Fallback>
	</BehaviorTree></root>`
	run := func(declare bool) systems.Report {
		reg := bt.NewRegistry(nil)
		if declare {
			require.NoError(t, reg.Schema().DeclareType("noise", reflect.TypeFor[r2.Vec]()))
		}
		require.NoError(t, reg.RegisterAction("Investigate", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
			goal := bt.InputPort[r2.Vec](p, "goal")
			return func(c *bt.Context) bt.Status {
				if _, ok := goal.Get(c); !ok {
					return bt.Failure
				}
				return bt.Success
			}, nil
		}))
		id, err := reg.LoadXML("guard.xml", []byte(file))
		require.NoError(t, err)
		tree, err := reg.Tree(id)
		require.NoError(t, err)
		noise, err := blackboard.Lookup[r2.Vec](reg.Schema(), "noise")
		require.NoError(t, err)
		world := arche.NewWorld()
		guards, err := systems.NewSpawner(&world, systems.Thinker{Tree: tree, Registry: reg})
		require.NoError(t, err)
		told := guards.Spawn(r2.Vec{X: 0.5, Y: 0.5}, nil)
		guards.Spawn(r2.Vec{X: 1.5, Y: 0.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Decision{})
		require.NoError(t, s.InitializeChecked(&world))
		defer s.Finalize(&world)
		s.Run(&world, 3)
		boards := generic.NewMap[components.Blackboard](&world)
		require.True(t, blackboard.Set(boards.Get(told).Store, noise, r2.Vec{X: 3, Y: 4}))
		s.Run(&world, 3)
		return systems.Diagnose(&world)
	}
	r := run(false)
	require.Equal(t, 1, r.Counts[systems.CauseBlackboardKeyUnwritten], "%v", r)
	text := r.String()
	require.True(t, strings.Contains(text, `key "noise" of tree "Guard" is read`), text)
	require.True(t, strings.Contains(text, "declare it in the registry's schema before loading the tree (Schema().DeclareType)"), text)

	r = run(true)
	require.Zero(t, r.Counts[systems.CauseBlackboardKeyUnwritten], "%v", r)
}
