package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestAPathAskedEveryFrameHoldsOneRequest: an agent asking every frame from one cell
// for one goal while its search runs (Budget 50, 165 frames) filed a request a frame
// into the job searching, and every one stayed (asked again: see Asking again in
// PathQueue's doc): Waiting was 164 for one agent when the path came, each frame's
// recheck walking them all. Now one request per agent stays in a job.
func TestAPathAskedEveryFrameHoldsOneRequest(t *testing.T) {
	w, m, e, pq := askerBehindAWall(t)
	maxWait := 0
	for f := 0; f < 400; f++ {
		p, pos := m.Get(e)
		pos.Vec = r2.Vec{X: 2.5, Y: 2.5}
		if p.State != components.PathReady {
			p.Want, p.Goal = true, grid.Cell{X: 120, Y: 2}
		}
		pq.Update(w)
		maxWait = max(maxWait, pq.Waiting)
		if p, _ := m.Get(e); p.State == components.PathReady {
			t.Logf("ready at %d", f)
			break
		}
	}
	t.Logf("max waiting %d, served %d dropped %d searches %d", maxWait, pq.TotalServed, pq.TotalDropped, pq.TotalSearches)
	if maxWait > 2 {
		t.Errorf("one agent, %d requests waiting", maxWait)
	}
}
