package save_test

import (
	"regexp"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A save made while an A* search is under way, restored into a PathQueue doing jump
// point search (or A* of another weight), is refused: the saved expansions would be
// done again by another search. Restore used to return nil and the runs parted 16
// frames later, silently. With the saved options it restores; a file from before the
// options were recorded is not checked.
func TestRestoreRefusesAnActiveSearchUnderOtherOptions(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, randomLevel())
	movers, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	movers.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 120.5, Y: 5.5}) })
	pq, s := restartFrame(grid.Options{})
	require.NoError(t, s.InitializeChecked(w))
	for k := 0; ; k++ {
		s.Update(w)
		if st := pq.State(); st.Active != nil && st.Expanded > 0 {
			break
		}
		require.Less(t, k, 100, "a search in progress")
	}
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	restore := func(data []byte, opt grid.Options) error {
		lw0 := arche.NewWorld()
		lw := &lw0
		arche.AddResource(lw, randomLevel())
		l, err := save.LoadInto(data, save.Registry{}, lw)
		require.NoError(t, err)
		lpq, ls := restartFrame(opt)
		require.NoError(t, ls.InitializeChecked(lw))
		return l.Restore(lpq)
	}
	for _, opt := range []grid.Options{{JumpPoints: true}, {Weight: 1.5}, {Heuristic: grid.ManhattanHeuristic}} {
		err := restore(data, opt)
		assert.ErrorIs(t, err, save.ErrState, "%+v", opt)
		assert.ErrorContains(t, err, "was saved by a queue with Options", "%+v", opt)
	}
	assert.NoError(t, restore(data, grid.Options{}), "the saved options")
	old := regexp.MustCompile(`,"search":\{[^}]*\}`).ReplaceAll(data, nil)
	require.NotEqual(t, len(data), len(old), "the file records the options")
	assert.NoError(t, restore(old, grid.Options{JumpPoints: true}), "a file without them is not checked")
}
