package save_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file's entity pool is refused (ErrEntities) when Arche's Alive would call an entity
// alive that has no place in the world: the reserved zero entity of another generation
// than Arche's (with [0,0] the zero entity, which every unset entity field holds, was
// alive after the load), or an entity neither alive nor on the free list (a ghost: alive
// to Alive, a relation target passed the load's check, and World.Has or Get on it
// dereferenced nil). A pool with removed entities on its free list still loads.
func TestLoadRefusesAPoolWithEntitiesAliveForNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	squadID := arche.ComponentID[squadTag](w)
	relID := arche.ComponentID[memberOf](w)
	leader := w.NewEntity(squadID)
	gone := w.NewEntity(squadID)
	member := w.NewEntity(relID)
	w.Relations().Set(member, relID, leader)
	w.RemoveEntity(gone) // on the free list
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Components: []reflect.Type{reflect.TypeFor[squadTag](), reflect.TypeFor[memberOf]()}}
	const pool = `"Entities":[[0,4294967295],[1,0],[0,1],[3,0]],"Alive":[1,3],"Next":2,"Available":1`
	require.Contains(t, string(data), pool)

	l, err := save.Load(data, reg)
	require.NoError(t, err, "removed entities on the free list")
	assert.False(t, l.World.Alive(arche.Entity{}), "the zero entity")
	assert.False(t, l.World.Alive(gone))
	assert.Equal(t, leader, l.World.Relations().Get(member, arche.ComponentID[memberOf](l.World)))

	for _, c := range []struct{ name, pool, msg string }{
		{"zero entity of generation 0", strings.Replace(pool, `[[0,4294967295]`, `[[0,0]`, 1),
			"entities[0] is entity 0 of generation 0, not the reserved zero entity (0, generation 4294967295)"},
		{"zero entity of generation 5", strings.Replace(pool, `[[0,4294967295]`, `[[0,5]`, 1),
			"entities[0] is entity 0 of generation 5"},
		{"zero entity of ID 2", strings.Replace(pool, `[[0,4294967295]`, `[[2,4294967295]`, 1),
			"entities[0] is entity 2 of generation 4294967295"},
		{"a ghost entity", strings.Replace(pool, `[3,0]]`, `[3,0],[4,0]]`, 1),
			"2 alive and 1 free of 4 entities: each entity but the reserved zero entity is one or the other"},
		{"a ghost entity off the free list", strings.Replace(pool, `"Available":1`, `"Available":0`, 1),
			"2 alive and 0 free of 3 entities"},
	} {
		bad := strings.Replace(string(data), pool, c.pool, 1)
		require.NotEqual(t, string(data), bad, c.name)
		_, err := save.Load([]byte(bad), reg)
		require.ErrorIs(t, err, save.ErrEntities, c.name)
		assert.Contains(t, err.Error(), c.msg, c.name)
	}
}
