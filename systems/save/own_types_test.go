package save_test

import (
	"reflect"
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

// twoNames saves two fields as "X": X by its name, Y by its tag.
type twoNames struct {
	X int
	Y int `json:"X"`
}

type named struct{ Name string }

// What JSON cannot carry whole is refused at save, naming the field: two fields of a
// program's component saved under one name (X loaded with Y's value), and strings that
// are not valid UTF-8 (loaded with U+FFFD in place of the bad bytes), in a component
// or a blackboard (both loaded changed, with no error; a reviewer).
func TestSaveRefusesWhatJSONWouldChange(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m1 := generic.NewMap1[twoNames](w)
	m1.NewWith(&twoNames{X: 1, Y: 2})
	_, err := save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrDomain)
	assert.Contains(t, err.Error(), `fields X and Y of save_test.twoNames are both saved as "X"`)

	world = arche.NewWorld()
	w = &world
	m2 := generic.NewMap1[named](w)
	e := m2.NewWith(&named{Name: "bad\xffname"})
	_, err = save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrDomain)
	assert.Contains(t, err.Error(), "save_test.named.Name")
	assert.Contains(t, err.Error(), "not valid UTF-8")
	m2.Get(e).Name = "good name"
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	_, err = save.Load(data, save.Registry{Components: []reflect.Type{reflect.TypeFor[named]()}})
	require.NoError(t, err)

	world = arche.NewWorld()
	w = &world
	arche.AddResource(w, grid.New(8, 8))
	reg := bt.NewRegistry(blackboard.NewSchema())
	key := blackboard.MustDeclare[string](reg.Schema(), "who")
	tree, err := bt.Compile("idle", bt.Action("a", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg})
	require.NoError(t, err)
	a := sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	bbs := generic.NewMap[components.Blackboard](w)
	blackboard.Set(bbs.Get(a).Store, key, "x\xfe")
	_, err = save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrDomain)
	assert.Contains(t, err.Error(), `key "who"`)
}
