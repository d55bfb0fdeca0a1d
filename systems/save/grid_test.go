package save_test

import (
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// worldWith returns a new world holding g as its grid (none if g is nil).
func worldWith(g *grid.Grid) *arche.World {
	world := arche.NewWorld()
	if g != nil {
		arche.AddResource(&world, g)
	}
	return &world
}

// A save records its grid's fingerprint: loading it onto a grid of another size or other
// costs is an error wrapping ErrGridMismatch that names both, from LoadInto when the world
// has its grid already, else from Restore (after the program added it).
func TestLoadOntoAnotherGridIsAnError(t *testing.T) {
	f := newFixture(t) // a 16x16 grid of cost 1
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)

	// LoadInto a world with the same grid: fine
	l, err := save.LoadInto(data, f.reg, worldWith(grid.New(16, 16)))
	require.NoError(t, err)
	require.NoError(t, l.Restore())

	// another size
	_, err = save.LoadInto(data, f.reg, worldWith(grid.New(16, 17)))
	require.ErrorIs(t, err, save.ErrGridMismatch)
	assert.ErrorContains(t, err, "the save was made on a 16x16 grid (costs crc64:")
	assert.ErrorContains(t, err, "this world has a 16x17 grid (costs crc64:")
	assert.ErrorContains(t, err, "add the saved run's grid")

	// the same size, one cell of another cost
	other := grid.New(16, 16)
	other.SetCost(grid.Cell{X: 3, Y: 4}, 2)
	_, err = save.LoadInto(data, f.reg, worldWith(other))
	require.ErrorIs(t, err, save.ErrGridMismatch)
	assert.ErrorContains(t, err, "; they differ at the cell (3, 4) only (cost 2 in this world): add the saved run's grid")

	// Load builds a world without a grid: Restore checks the one the program added
	l, err = save.Load(data, f.reg)
	require.NoError(t, err)
	err = l.Restore()
	require.ErrorIs(t, err, save.ErrGridMismatch, "no grid added")
	assert.ErrorContains(t, err, "this world has no *grid.Grid resource")
	arche.AddResource(l.World, other)
	require.ErrorIs(t, l.Restore(), save.ErrGridMismatch, "another grid added")
	l.World.Resources().Remove(arche.ResourceID[grid.Grid](l.World))
	arche.AddResource(l.World, grid.New(16, 16))
	assert.NoError(t, l.Restore(), "the saved grid added")
}

// A grid edited before saving (a door closed) is saved as edited: loading onto the map
// as it was before the edit is ErrGridMismatch, not a run whose paths walk through the
// door; the same map with the same edit loads.
func TestGridEditedBeforeSavingMustBeEditedAgain(t *testing.T) {
	f := newFixture(t)
	door := grid.Cell{X: 8, Y: 8}
	arche.GetResource[grid.Grid](f.w).SetCost(door, grid.Blocked)
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)

	_, err = save.LoadInto(data, f.reg, worldWith(grid.New(16, 16)))
	require.ErrorIs(t, err, save.ErrGridMismatch, "the map without the closed door")
	assert.ErrorContains(t, err, "they differ at the cell (8, 8) only (cost 1 in this world)")
	twoDoors := grid.New(16, 16)
	twoDoors.SetCost(door, grid.Blocked)
	twoDoors.SetCost(grid.Cell{X: 2, Y: 13}, grid.Blocked)
	twoDoors.SetCost(grid.Cell{X: 11, Y: 5}, grid.Blocked)
	_, err = save.LoadInto(data, f.reg, worldWith(twoDoors))
	require.ErrorIs(t, err, save.ErrGridMismatch, "two more doors closed")
	assert.ErrorContains(t, err, "they differ only in cells of the rows y = 5, 13 and the columns x = 2, 11")

	edited := grid.New(16, 16)
	edited.SetCost(door, grid.Blocked)
	l, err := save.LoadInto(data, f.reg, worldWith(edited))
	require.NoError(t, err)
	assert.NoError(t, l.Restore())

	// a door closed then opened again is the same grid (costs, not the edit count, are compared)
	again := grid.New(16, 16)
	again.SetCost(door, grid.Blocked)
	again.SetCost(door, 1)
	arche.GetResource[grid.Grid](f.w).SetCost(door, 1)
	data, err = save.Save(f.w, nil)
	require.NoError(t, err)
	_, err = save.LoadInto(data, f.reg, worldWith(again))
	assert.NoError(t, err)
}

// A world saved without a grid loads into a world without one, and not into a world
// with one; a file from before fingerprints (no "grid" key) loads onto any grid, as it
// did (the program must add the same grid: nothing can check it); a fingerprint that is
// not one is ErrFormat.
func TestGridlessAndOldSaves(t *testing.T) {
	f := newFixture(t)
	f.w.Resources().Remove(arche.ResourceID[grid.Grid](f.w))
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"grid":null`)
	l, err := save.Load(data, f.reg)
	require.NoError(t, err)
	require.NoError(t, l.Restore())
	_, err = save.LoadInto(data, f.reg, worldWith(grid.New(16, 16)))
	require.ErrorIs(t, err, save.ErrGridMismatch)
	assert.ErrorContains(t, err, "the save was made from a world without a grid, this world has a 16x16 grid")

	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &doc))
	delete(doc, "grid")
	old, err := json.Marshal(doc)
	require.NoError(t, err)
	l, err = save.LoadInto(old, f.reg, worldWith(grid.New(5, 7)))
	require.NoError(t, err, "a file without a fingerprint is not checked")
	require.NoError(t, l.Restore())

	for _, bad := range []string{`{"width":0,"height":16,"costs":"crc64:0000000000000000"}`, `{"width":16,"height":16}`, `[16,16]`, `"16x16"`} {
		doc["grid"] = json.RawMessage(bad)
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		_, err = save.Load(b, f.reg)
		assert.ErrorIs(t, err, save.ErrFormat, bad)
		assert.ErrorContains(t, err, "load: grid: ", bad)
	}
}

// An odd number of cells: the last one, hashed alone, counts too.
func TestGridFingerprintSeesTheLastOddCell(t *testing.T) {
	data, err := save.Save(worldWith(grid.New(3, 3)), nil)
	require.NoError(t, err)
	g := grid.New(3, 3)
	g.SetCost(grid.Cell{X: 2, Y: 2}, 3)
	_, err = save.LoadInto(data, save.Registry{}, worldWith(g))
	assert.ErrorIs(t, err, save.ErrGridMismatch)
	_, err = save.LoadInto(data, save.Registry{}, worldWith(grid.New(3, 3)))
	assert.NoError(t, err)
}

// Two doors closed (a cost 1 → Blocked flips one bit of a cell) never give back the
// saved fingerprint, wherever they are: the case a multiply-only word hash missed.
func TestGridFingerprintSeesTwoDoors(t *testing.T) {
	data, err := save.Save(worldWith(grid.New(64, 64)), nil)
	require.NoError(t, err)
	for _, doors := range [][2]grid.Cell{{{X: 1, Y: 0}, {X: 3, Y: 0}}, {{X: 1, Y: 0}, {X: 63, Y: 63}}, {{X: 0, Y: 5}, {X: 1, Y: 5}}} {
		g := grid.New(64, 64)
		g.SetCost(doors[0], grid.Blocked)
		g.SetCost(doors[1], grid.Blocked)
		_, err = save.LoadInto(data, save.Registry{}, worldWith(g))
		assert.ErrorIs(t, err, save.ErrGridMismatch, "%v", doors)
	}
}

// The line hashes that locate a difference are optional (files from before them load and
// are checked by the CRC alone, the error naming no cell) but must be well formed.
func TestGridLineHashesOldAndMalformed(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &doc))
	var print map[string]any
	require.NoError(t, json.Unmarshal(doc["grid"], &print))
	require.Len(t, print["rows"], 88, "16 hashes of 4 bytes in base64")
	require.Len(t, print["cols"], 88)

	rewrite := func(edit func(map[string]any)) []byte {
		p := map[string]any{}
		for k, v := range print {
			p[k] = v
		}
		edit(p)
		raw, err := json.Marshal(p)
		require.NoError(t, err)
		doc["grid"] = raw
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		return b
	}
	old := rewrite(func(p map[string]any) { delete(p, "rows"); delete(p, "cols") })
	l, err := save.LoadInto(old, f.reg, worldWith(grid.New(16, 16)))
	require.NoError(t, err, "a file without line hashes")
	require.NoError(t, l.Restore())
	other := grid.New(16, 16)
	other.SetCost(grid.Cell{X: 3, Y: 4}, 2)
	_, err = save.LoadInto(old, f.reg, worldWith(other))
	require.ErrorIs(t, err, save.ErrGridMismatch)
	assert.NotContains(t, err.Error(), "they differ")

	for name, edit := range map[string]func(map[string]any){
		"rows not base64":     func(p map[string]any) { p["rows"] = "%%%" },
		"too few row hashes":  func(p map[string]any) { p["rows"] = "AAAAAA==" },
		"cols without rows":   func(p map[string]any) { delete(p, "rows") },
		"too many col hashes": func(p map[string]any) { p["cols"] = p["cols"].(string) + "AAAAAA==" },
		"unknown line scheme": func(p map[string]any) { p["lines"] = 7 },
	} {
		_, err := save.LoadInto(rewrite(edit), f.reg, worldWith(grid.New(16, 16)))
		require.ErrorIs(t, err, save.ErrFormat, name)
	}
}
