package save_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Two trees whose names differ only by case ("patrol" and "Patrol") are two IDs: the
// file's definitions record them as two keys of a map, which encoding/json matches
// exactly, so the save loads. The duplicate-key check compared every key under
// "definitions" by any case and refused the file as holding "Patrol" twice.
func TestTreesNamedAlikeButForCaseSaveAndLoad(t *testing.T) {
	f := newFixture(t) // tree "patrol"
	idle := func(*bt.Context) bt.Status { return bt.Running }
	other, err := bt.Compile("Patrol", bt.Sequence(bt.Action("b", idle)))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(f.w, systems.Thinker{Tree: other, Registry: bt.NewRegistry(f.reg.Schema)})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 3.5, Y: 5.5}, nil)

	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"Patrol":"fnv1a64:`)
	reg := f.reg
	reg.Trees = []*bt.Tree{f.tree, other}
	_, err = save.LoadInto(data, reg, worldWith(grid.New(16, 16)))
	assert.NoError(t, err)
	_, err = save.ReadMeta(data)
	assert.NoError(t, err)
}

// The grid's fingerprint is decoded by encoding/json into a struct, whose fields match
// keys by any case: a "Width" after "width" set the width silently, as a key written
// twice; it is refused as one.
func TestGridKeyTwiceByCaseIsRefused(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	require.Contains(t, string(data), `"grid":{"width":16,`)
	edited := strings.Replace(string(data), `"grid":{"width":16,`, `"grid":{"width":16,"Width":16,`, 1)
	_, err = save.LoadInto([]byte(edited), f.reg, worldWith(grid.New(16, 16)))
	require.ErrorIs(t, err, save.ErrFormat)
	assert.ErrorContains(t, err, `grid holds the key "Width" twice`)
}
