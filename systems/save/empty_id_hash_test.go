package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Brain, StateMachine or UtilityBrain with an empty ID is saved under its tree's,
// machine's or reasoner's name, and loads with that ID: StateHash hashed the empty ID
// before and the name after, so a world and its save/load round trip hashed apart.
// StateHash hashes the name a save writes now.
func TestEmptyIDHashesAsSaved(t *testing.T) {
	tree, err := bt.Compile("patrol", bt.Action("a", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	b := fsm.NewBuilder("guard")
	b.State("Idle", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	r, err := utility.New("pick", utility.Policy{}, utility.Action{Name: "a"})
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	newWith[components.Brain](w, &components.Brain{Tree: tree, Memory: tree.NewMemory()})
	newWith[components.StateMachine](w, &components.StateMachine{Machine: m})
	newWith[components.UtilityBrain](w, &components.UtilityBrain{Reasoner: r})
	before := systems.StateHash(w)

	data, err := save.Save(w, nil)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}, Machines: []*fsm.Machine{m}, Reasoners: []*utility.Reasoner{r}})
	require.NoError(t, err)
	q := generic.NewFilter1[components.Brain]().Query(l.World)
	for q.Next() {
		assert.Equal(t, "patrol", q.Get().ID, "loaded with the tree's name")
	}
	assert.Equal(t, before, systems.StateHash(l.World))

	// the same world with the IDs set hashes the same: the ID is the truth
	named := arche.NewWorld()
	newWith[components.Brain](&named, &components.Brain{ID: "patrol", Tree: tree, Memory: tree.NewMemory()})
	newWith[components.StateMachine](&named, &components.StateMachine{ID: "guard", Machine: m})
	newWith[components.UtilityBrain](&named, &components.UtilityBrain{ID: "pick", Reasoner: r})
	assert.Equal(t, before, systems.StateHash(&named))
}

func newWith[T any](w *arche.World, c *T) {
	m := generic.NewMap1[T](w)
	m.NewWith(c)
}
