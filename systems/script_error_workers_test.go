package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestLastScriptErrorSameForAnyWorkers: 64 agents thinking in the same frames, the
// last spawned running a tree whose script reads "mp", never set, the others one
// reading "hp", never set. Diagnose names the newest script error, that of the
// highest entity ID in the latest frame, with 1 worker and with 2. It named the first
// worker's last one, so with 2 workers "hp" (an agent of the first half), and a
// report changed with the number of workers.
func TestLastScriptErrorSameForAnyWorkers(t *testing.T) {
	reg := bt.NewRegistry(nil)
	blackboard.MustDeclare[float64](reg.Schema(), "hp")
	blackboard.MustDeclare[float64](reg.Schema(), "mp")
	load := func(id, key string) *bt.Tree {
		name, err := reg.LoadXML(id+".xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="`+id+`">
			<Fallback><ScriptCondition code="`+key+` > 10"/><AlwaysSuccess/></Fallback>
		</BehaviorTree></root>`))
		require.NoError(t, err)
		tree, err := reg.Tree(name)
		require.NoError(t, err)
		return tree
	}
	hp, mp := load("HP", "hp"), load("MP", "mp")
	report := func(workers int) string {
		world := arche.NewWorld()
		w := &world
		for i := range 64 {
			tree := hp
			if i == 63 {
				tree = mp
			}
			sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Registry: reg, Interval: 0.1})
			require.NoError(t, err)
			sp.Spawn(r2.Vec{X: float64(i)}, func(a *systems.Spawned) { a.Think.Next = 0 })
		}
		dec := &systems.Decision{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
		require.NoError(t, s.InitializeChecked(w))
		defer s.Finalize(w)
		s.Run(w, 20)
		require.Equal(t, uint64(64*4), dec.ScriptErrors, "every agent's script failed at each of its 4 thinks")
		return systems.Diagnose(w).String()
	}
	one, two := report(1), report(2)
	assert.Contains(t, one, `"mp"`)
	assert.Equal(t, one, two)
}
