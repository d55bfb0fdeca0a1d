package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A blackboard key saved as one type and declared as another by the loading program
// (a game update that changed "hp" from float64 to int) is refused, naming the key and
// both types; before, the float's raw bits loaded as an int (10.0 read 4621819117588971520;
// found by a reviewer). The same type loads.
func TestABlackboardKeyOfAnotherTypeIsRefused(t *testing.T) {
	reg := bt.NewRegistry(blackboard.NewSchema())
	hp := blackboard.MustDeclare[float64](reg.Schema(), "hp")
	w, tree, e, st := idleThinker(t, reg)
	blackboard.Set(st, hp, 10)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"key":"hp","type":"float64"`)

	same := blackboard.NewSchema()
	hp2 := blackboard.MustDeclare[float64](same, "hp")
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{tree}, Schema: same})
	require.NoError(t, err)
	lbbs := generic.NewMap[components.Blackboard](l.World)
	v, ok := blackboard.Get(lbbs.Get(e).Store, hp2)
	assert.True(t, ok)
	assert.Equal(t, 10.0, v)

	changed := blackboard.NewSchema()
	blackboard.MustDeclare[int](changed, "hp")
	_, err = save.Load(data, save.Registry{Trees: []*bt.Tree{tree}, Schema: changed})
	require.ErrorIs(t, err, save.ErrDomain)
	assert.Contains(t, err.Error(), `"hp" (int)`)
	assert.Contains(t, err.Error(), "saved as float64")
}

// idleThinker returns a world on an 8×8 grid with one Mover thinking by an idle
// tree (returned) with reg's blackboard, spawned through the public bundles, and
// the agent's store.
func idleThinker(t *testing.T, reg *bt.Registry) (*arche.World, *bt.Tree, arche.Entity, *blackboard.Store) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	tree, err := bt.Compile("idle", bt.Action("a", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	bbs := generic.NewMap[components.Blackboard](w)
	return w, tree, e, bbs.Get(e).Store
}
