package systems

import (
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// entsSeen is a job that reads its range's entities with readShared and
// copies them out, as a system's first job after beginShared does.
type entsSeen struct {
	c   *columns
	out []arche.Entity
}

func (j *entsSeen) Work(worker, lo, hi int) {
	j.c.readShared(worker, lo, hi)
	copy(j.out[lo:hi], j.c.ents[lo:hi]) // only its own range is read yet
}

// TestColumnsBeginShared: beginShared, a job that reads its range's
// entities first (readShared) and endShared give scan's entities, runs and
// largest ID, with 1 to 3 workers, over fewer entities than are handed out
// (read at once) and more; the world is unlocked after endShared, an empty
// query included.
func TestColumnsBeginShared(t *testing.T) {
	for _, n := range []int{0, 5, minSharedEntities - 1, 2*minSharedEntities + 37} {
		w := arche.NewWorld()
		posID := arche.ComponentID[components.Position](&w)
		velID := arche.ComponentID[components.Velocity](&w)
		kinID := arche.ComponentID[components.Kinematics](&w)
		for i := 0; i < n; i++ {
			ids := []arche.ID{posID, velID}
			if i%3 == 1 {
				ids = append(ids, kinID)
			}
			w.NewEntity(ids...)
		}
		f := generic.NewFilter2[components.Position, components.Velocity]()
		var want columns
		want.column(posID, unsafe.Sizeof(components.Position{}))
		q := f.Query(&w)
		want.scan(&w, &q.Query)
		for _, workers := range []int{1, 2, 3} {
			pool := ecs.NewWorkers(workers)
			var c columns
			c.column(posID, unsafe.Sizeof(components.Position{}))
			job := &entsSeen{c: &c, out: make([]arche.Entity, n)}
			handed := c.beginShared(&w, f.Filter(&w), pool)
			require.Equal(t, workers > 1 && n >= minSharedEntities, handed, "n %d, %d workers", n, workers)
			pool.Run(job, c.count)
			c.endShared()
			require.Equal(t, append([]arche.Entity{}, want.ents...), job.out, "n %d, %d workers", n, workers)
			require.Equal(t, append([]arche.Entity{}, want.ents...), append([]arche.Entity{}, c.ents[:n]...))
			require.Equal(t, append([]columnRun{}, want.runs...), append([]columnRun{}, c.runs...))
			require.Equal(t, want.top, c.top, "n %d, %d workers", n, workers)
			require.False(t, w.IsLocked(), "every query closed")
			pool.Close()
		}
	}
}
