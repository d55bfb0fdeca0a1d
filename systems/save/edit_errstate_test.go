package save_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README promises that a save while a grid edit awaits the path queue is refused
// with save.ErrState, so a game that closes a door and saves in the same pause can
// test for it and save after the next frame. The refusal did not match ErrState
// (found by a newcomer's tower-defense run: errors.Is(err, save.ErrState) was false).
func TestSaveRefusedAfterAnEditIsErrState(t *testing.T) {
	w, pq, _ := pendingWorld(t)
	g := ecs.Resource[grid.Grid](w)
	seen := g.Version()
	g.SetCost(grid.Cell{X: 20, Y: 37}, grid.Blocked) // a door closes between frames
	data, err := save.Save(w, nil, pq)
	require.Error(t, err)
	assert.Nil(t, data)
	assert.True(t, errors.Is(err, save.ErrState), "errors.Is(err, save.ErrState): %v", err)
	assert.False(t, errors.Is(err, save.ErrStateLeftOut))
	// the message is unchanged: it names the system and what to do
	assert.Equal(t, "save: state of pathqueue: pathqueue state: the grid was edited since "+
		"the queue's last Update (1 cell edit, the last at x = 20, y = 37): the repaths for the edit are "+
		"not made yet and would be lost; save after the queue's next Update", err.Error())
	assert.NotEqual(t, seen, g.Version())
	pq.Update(w)
	_, err = save.Save(w, nil, pq)
	require.NoError(t, err)
}
