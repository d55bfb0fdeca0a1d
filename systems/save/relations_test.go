package save_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memberOf is a program's relation component (Arche's entity relations).
type memberOf struct{ arche.Relation }

type squadTag struct{ Size int }

// A relation component's target is saved and loaded (it was lost: the member pointed at
// the zero entity after a load, and StateHash did not notice; found by a reviewer). A
// target removed before the save loads as the zero entity, as StateHash counts it (Arche
// cannot point a relation at a dead entity). A file whose target is not alive is refused.
func TestARelationKeepsItsTargetThroughALoad(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	squadID := arche.ComponentID[squadTag](w)
	relID := arche.ComponentID[memberOf](w)
	leader := w.NewEntity(squadID)
	gone := w.NewEntity(squadID)
	member := w.NewEntity(relID)
	orphan := w.NewEntity(relID)
	loner := w.NewEntity(relID) // never given a target
	w.Relations().Set(member, relID, leader)
	w.Relations().Set(orphan, relID, gone)
	w.RemoveEntity(gone)

	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Components: []reflect.Type{reflect.TypeFor[squadTag](), reflect.TypeFor[memberOf]()}}
	l, err := save.Load(data, reg)
	require.NoError(t, err)
	lrel := arche.ComponentID[memberOf](l.World)
	assert.Equal(t, leader, l.World.Relations().Get(member, lrel))
	assert.True(t, l.World.Relations().Get(orphan, lrel).IsZero(), "a removed target loads as the zero entity")
	assert.True(t, l.World.Relations().Get(loner, lrel).IsZero())
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))

	// the hash sees the target
	before := systems.StateHash(w)
	w.Relations().Set(member, relID, arche.Entity{})
	assert.NotEqual(t, before, systems.StateHash(w))

	// a target that is not alive in the file's pool
	bad := strings.Replace(string(data), `"target":[1,0]`, `"target":[1,7]`, 1)
	require.NotEqual(t, string(data), bad, "the file names the leader as [1,0]")
	_, err = save.Load([]byte(bad), reg)
	require.ErrorIs(t, err, save.ErrEntities)
	assert.Contains(t, err.Error(), "targets[0]")
}

// A relation target whose ID is past the file's entity pool is refused as a dead target
// (ErrEntities), like one of the wrong generation; it was looked up in the pool unchecked
// and Load recovered from an index-out-of-range panic (ErrFormat, the fuzz test's failure).
func TestARelationTargetPastThePoolIsRefused(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	squadID := arche.ComponentID[squadTag](w)
	relID := arche.ComponentID[memberOf](w)
	leader := w.NewEntity(squadID)
	member := w.NewEntity(relID)
	w.Relations().Set(member, relID, leader)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Components: []reflect.Type{reflect.TypeFor[squadTag](), reflect.TypeFor[memberOf]()}}
	for _, target := range []string{`[3,0]`, `[99,0]`, `[4294967295,0]`} {
		bad := strings.Replace(string(data), `"target":[1,0]`, `"target":`+target, 1)
		require.NotEqual(t, string(data), bad)
		_, err = save.Load([]byte(bad), reg)
		require.ErrorIs(t, err, save.ErrEntities, target)
		assert.NotErrorIs(t, err, save.ErrFormat, target)
		assert.Contains(t, err.Error(), "targets[0]")
	}
}

// A relation target naming the reserved zero entity as Arche's pool holds it, entity 0 of
// generation 4294967295, is refused (ErrEntities): Alive calls it alive, so it passed the
// load's check and the member's relation pointed at the zero entity of another generation,
// which Alive then called alive in the program (and Has or Get on it dereferenced nil).
// Save never writes it: a relation to the zero entity has no target in the file.
func TestARelationTargetOnTheReservedZeroEntityIsRefused(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	squadID := arche.ComponentID[squadTag](w)
	relID := arche.ComponentID[memberOf](w)
	leader := w.NewEntity(squadID)
	member := w.NewEntity(relID)
	w.Relations().Set(member, relID, leader)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Components: []reflect.Type{reflect.TypeFor[squadTag](), reflect.TypeFor[memberOf]()}}
	for _, target := range []string{`[0,4294967295]`, `[0,0]`} {
		bad := strings.Replace(string(data), `"target":[1,0]`, `"target":`+target, 1)
		require.NotEqual(t, string(data), bad)
		_, err = save.Load([]byte(bad), reg)
		require.ErrorIs(t, err, save.ErrEntities, target)
		assert.Contains(t, err.Error(), "targets[0]", target)
	}
}
