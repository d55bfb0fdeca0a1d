package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Path value replaced whole (Request back to 0) while its request waits: the
// new request gets the stale ticket's number, the stale ticket passes recheck
// as the agent's own, and is refiled towards the new goal from the cell the
// agent stood in when it first asked. The agent must still get its path
// from where it stands (it does: its own request is filed first, in the
// Update, and the refiled stale one finds it served and is dropped).
func TestFreshPathValueStaleTicketAlias(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(60, 20)
	arche.AddResource(w, g)
	pq := &PathQueue{Budget: 1}
	pq.Initialize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	e := m.NewWith(&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, &components.Path{Want: true, Goal: grid.Cell{X: 50, Y: 2}, Priority: 5})
	pq.Update(w) // pending, the search carried over
	pos, p := m.Get(e)
	if p.State != components.PathPending {
		t.Skip("served at once")
	}
	pos.Vec = r2.Vec{X: 30.5, Y: 10.5} // the agent moved (e.g. teleported)
	*p = components.Path{Want: true, Goal: grid.Cell{X: 55, Y: 15}, Priority: -1}
	pq.Budget = 10000
	for range 10 {
		pq.Update(w)
	}
	_, p = m.Get(e)
	if p.State != components.PathReady {
		t.Fatalf("state %v", p.State)
	}
	if p.Waypoints[0] != (grid.Cell{X: 30, Y: 10}) {
		t.Fatalf("path from %v, the agent stands in (30, 10)", p.Waypoints[0])
	}
}
