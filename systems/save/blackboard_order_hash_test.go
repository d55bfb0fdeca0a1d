package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A save loaded by a program whose schema declares the same keys in another
// order loads every value by its key, and now hashes as the world saved
// (StateHash hashed a store's keys in declaration order: a newcomer who
// checked a load by its hash read a correct load as a failed one). Values
// that differ still hash apart.
func TestABlackboardLoadedInAnotherKeyOrderHashesAsSaved(t *testing.T) {
	reg := bt.NewRegistry(blackboard.NewSchema())
	hp := blackboard.MustDeclare[float64](reg.Schema(), "hp")
	seen := blackboard.MustDeclare[bool](reg.Schema(), "seen")
	who := blackboard.MustDeclare[string](reg.Schema(), "who")
	w, tree, e, st := idleThinker(t, reg)
	blackboard.Set(st, hp, 10)
	blackboard.Set(st, seen, true)
	blackboard.Set(st, seen, false) // a write count of 2
	blackboard.Set(st, who, "thief")
	saved := systems.StateHash(w)
	data, err := save.Save(w, nil)
	require.NoError(t, err)

	reversed := blackboard.NewSchema()
	who2 := blackboard.MustDeclare[string](reversed, "who")
	blackboard.MustDeclare[bool](reversed, "seen")
	hp2 := blackboard.MustDeclare[float64](reversed, "hp")
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}, Schema: reversed})
	require.NoError(t, err)
	lbbs := generic.NewMap[components.Blackboard](l.World)
	lst := lbbs.Get(e).Store
	v, _ := blackboard.Get(lst, hp2)
	s, _ := blackboard.Get(lst, who2)
	assert.Equal(t, 10.0, v)
	assert.Equal(t, "thief", s)
	assert.Equal(t, saved, systems.StateHash(l.World), "the same values by key hash the same")

	// a value that differs hashes apart, as does a write count
	blackboard.Set(lst, hp2, 11)
	assert.NotEqual(t, saved, systems.StateHash(l.World))
	blackboard.Set(lst, hp2, 10)
	assert.NotEqual(t, saved, systems.StateHash(l.World), "hp written twice more: its write count differs")
}
