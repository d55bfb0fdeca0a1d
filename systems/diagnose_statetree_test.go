package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A tree with blackboard ports inside an FSM state (hybrid.TreeState), on agents
// spawned with Thinker{Machine: m} and no Registry (newbie20 finding 2): the FSM
// hands the tree a nil store, its SetBlackboard fails for ever, and Diagnose said
// "no misconfiguration". It counts blackboard_missing now, naming the state and the
// fix; with Thinker.Registry the tree writes its key and nothing is counted.
func TestDiagnoseCountsATreeStateWithoutBlackboard(t *testing.T) {
	for _, withRegistry := range []bool{false, true} {
		reg := bt.NewRegistry(nil)
		id, err := reg.LoadXML("n.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="N"><SetBlackboard value="3" output_key="n"/></BehaviorTree></root>`))
		require.NoError(t, err)
		tree, err := reg.Tree(id)
		require.NoError(t, err)
		runs := map[arche.Entity]*hybrid.TreeRun{}
		b := fsm.NewBuilder("guard")
		calm := b.State("Calm", fsm.Hooks{})
		b.Substate(calm, "Patrol", hybrid.TreeState(tree, func(ctx *fsm.Context) *hybrid.TreeRun {
			e := StateAgent(ctx).Entity
			if runs[e] == nil {
				runs[e] = &hybrid.TreeRun{}
			}
			return runs[e]
		}, nil))
		m, err := b.Build()
		require.NoError(t, err)

		w, _ := newWorld(16, 16)
		think := Thinker{Machine: m}
		if withRegistry {
			think.Registry = reg
		}
		sp, err := NewSpawner(w, think)
		require.NoError(t, err)
		agents := []arche.Entity{sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil), sp.Spawn(r2.Vec{X: 5.5, Y: 2.5}, nil)}
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &FSM{})
		s.Initialize(w)
		s.Run(w, 20)
		r := Diagnose(w)
		s.Finalize(w)
		n, err := blackboard.Lookup[int](reg.Schema(), "n")
		require.NoError(t, err)
		if !withRegistry {
			assert.Equal(t, 2, r.Counts[CauseBlackboardMissing], "%s", r)
			assert.Contains(t, r.String(), `the tree of state "Calm/Patrol" reads blackboard keys: spawn with Thinker.Registry`)
			assert.Equal(t, bt.Failure, runs[agents[0]].Status, "SetBlackboard without a store fails")
			continue
		}
		assert.Zero(t, r.Total(), "%s", r)
		for _, e := range agents {
			v, ok := blackboard.Get(compOf[components.Blackboard](w, e).Store, n)
			assert.True(t, ok && v == 3, "the tree wrote its key: %v %v", v, ok)
		}
	}
}
