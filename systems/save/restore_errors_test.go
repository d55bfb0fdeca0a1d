package save_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newbie18 (finding 9): Restore's errors began "load: ", so a program that wraps
// them read "restore: load: ...". They begin "restore: " now; LoadInto's stay "load: ".
func TestRestoreErrorsSayRestore(t *testing.T) {
	w, pq, _ := pendingWorld(t)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)

	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	err = l.Restore(pq)
	require.ErrorIs(t, err, save.ErrGridMismatch, "no grid added yet")
	assert.True(t, strings.HasPrefix(err.Error(), "restore: the world's grid is not the saved run's: the save was made on "), "%v", err)

	arche.AddResource(l.World, ecs.Resource[grid.Grid](w))
	err = l.Restore(pq) // pq is still the saved world's
	require.ErrorIs(t, err, save.ErrState)
	assert.True(t, strings.HasPrefix(err.Error(), `restore: state of "pathqueue": `), "%v", err)

	err = l.Restore()
	require.ErrorIs(t, err, save.ErrState)
	assert.Equal(t, `restore: system state does not match: the file holds the state of "pathqueue", not restored`, err.Error())

	err = l.Restore(&systems.FlowField{})
	require.ErrorIs(t, err, save.ErrState)
	assert.Equal(t, `restore: system state does not match: the file has no state for "flowfield" (saved without it, or before the system had state to save: Restore(save.Without(sys)) starts it afresh, and the run no longer continues as the saved one)`, err.Error())

	_, err = save.LoadInto(data, save.Registry{}, worldWith(grid.New(8, 8)))
	require.ErrorIs(t, err, save.ErrGridMismatch)
	assert.True(t, strings.HasPrefix(err.Error(), "load: "), "%v", err)
}
