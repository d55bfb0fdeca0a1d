package save_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// randomLevel is a random 128² map: a quarter of its cells blocked, the
// corners of the search in the test below kept open.
func randomLevel() *grid.Grid {
	g := grid.New(128, 128)
	r := rand.New(rand.NewPCG(5, 5))
	for range 128 * 128 / 4 {
		c := grid.Cell{X: int32(r.IntN(128)), Y: int32(r.IntN(128))}
		if (c.X > 8 || c.Y > 8) && (c.X < 115 || c.Y > 12) {
			g.SetCost(c, grid.Blocked)
		}
	}
	return g
}

func restartFrame(opt grid.Options) (*systems.PathQueue, *ecs.Scheduler) {
	pq := &systems.PathQueue{Options: opt, Budget: 20}
	return pq, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pq,
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
}

// A grid edited while the PathQueue's search is in progress restarts that
// search; a save made after the restart resumes it where the unbroken run is:
// the loaded run is the same as the unbroken one, frame for frame. Before, the
// queue saved the expansions done before the restart as well (plain A*; a
// queue asked for jump point search already counted from the restart), so the
// loaded search was that many expansions ahead and the runs parted.
func TestASearchRestartedByAnEditResumesWhereItWasAfterALoad(t *testing.T) {
	for _, jps := range []bool{false, true} {
		world := arche.NewWorld()
		w := &world
		g := randomLevel()
		arche.AddResource(w, g)
		movers, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		goal := r2.Vec{X: 120.5, Y: 5.5}
		e := movers.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(s *systems.Spawned) { s.MoveTo(goal) })
		pq, s := restartFrame(grid.Options{JumpPoints: jps})
		require.NoError(t, s.InitializeChecked(w))
		for k := 0; ; k++ {
			s.Update(w)
			if st := pq.State(); st.Active != nil && st.Expanded > 0 {
				break
			}
			require.Less(t, k, 100, "a search in progress")
		}
		// a wall far away, mid-search: the search restarts
		far := grid.Cell{X: 2, Y: 126}
		for !g.Passable(far) {
			far.X++
		}
		g.SetCost(far, grid.Blocked)
		s.Update(w)
		st := pq.State()
		require.LessOrEqual(t, st.Expanded, 20, "jps %v: the expansions since the restart", jps)
		require.NotNil(t, st.Active, "jps %v: still searching after the restart", jps)
		data, err := save.Save(w, nil, pq)
		require.NoError(t, err)

		lw0 := arche.NewWorld()
		lw := &lw0
		lg := randomLevel()
		lg.SetCost(far, grid.Blocked)
		arche.AddResource(lw, lg)
		l, err := save.LoadInto(data, save.Registry{}, lw)
		require.NoError(t, err)
		lpq, ls := restartFrame(grid.Options{JumpPoints: jps})
		require.NoError(t, ls.InitializeChecked(lw))
		require.NoError(t, l.Restore(lpq))
		// two expansions a frame from here, so that a search ahead by some
		// expansions is served frames earlier
		pq.Budget, lpq.Budget = 2, 2
		path := generic.NewMap[components.Path](w)
		served := false
		for f := range 3000 {
			s.Update(w)
			ls.Update(lw)
			require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "jps %v: frame %d after the load", jps, f)
			served = served || path.Get(e).State == components.PathReady
		}
		assert.True(t, served, "jps %v: the path was served after the load", jps)
	}
}
