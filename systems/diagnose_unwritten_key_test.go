package systems_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The note of blackboard_key_unwritten names the tree that reads the key and
// says what to do, as the other notes do: a designer's typo in a tree file
// ("{alrt}" for "{alert}") was reported as only `key "alrt" is read and
// nothing writes it`, with neither the tree nor a fix.
func TestUnwrittenKeyNoteNamesTheTreeAndTheFix(t *testing.T) {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(16, 16))
	reg := bt.NewRegistry(nil)
	require.NoError(t, reg.RegisterCondition("Alerted", func(p *bt.Ports) (func(*bt.Context) bool, error) {
		flag := bt.InputPort[bool](p, "flag")
		return func(c *bt.Context) bool { v, ok := flag.Get(c); return ok && v }, nil
	}))
	id, err := reg.LoadXML("guard.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="Guard">
		<Sequence><Script code="alert := true"/><Alerted flag="{alrt}"/></Sequence>
	</BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	sp, err := systems.NewSpawner(&world, systems.Thinker{Tree: tree, Registry: reg})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Decision{})
	require.NoError(t, s.InitializeChecked(&world))
	defer s.Finalize(&world)
	r := systems.Diagnose(&world)
	require.Equal(t, 1, r.Counts[systems.CauseBlackboardKeyUnwritten], "%v", r)
	text := r.String()
	require.True(t, strings.Contains(text, `key "alrt" of tree "Guard" is read and nothing writes it`), text)
	require.True(t, strings.Contains(text, "misspelt"), text)
}
