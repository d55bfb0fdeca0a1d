package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent sent with the default Mover to a goal beside a wall, in a corner, on the
// edge of a map with no border, or nearer a wall than its radius comes to rest there
// (newbie23's finding 4). Before, its wall feelers, which reach at least 2·radius + 0.25
// cells however slowly it moves, met the wall beside the goal and pushed it off while
// arrive pulled it back: it swayed about the goal for ever (velocities up to 0.14
// cells/s, 0.24 for a goal 0.1 from the wall). An arriving agent's feelers now reach no
// farther than its goal plus its radius (or the goal's own distance to the wall, if
// less). Asserted: from frame 400 on its velocity is exactly zero and it stands on the
// goal (within 1e-3, the arrive tolerance), never in a blocked cell on the way; a goal
// nearer a wall than the agent's radius (0.3) rests the radius off the wall
// (TestAnAgentRestsClearOfAWallBesideItsGoal).
func TestAMoverRestsAtAGoalBesideAWall(t *testing.T) {
	for _, c := range []struct {
		name            string
		start, to, rest r2.Vec
	}{
		{"open ground", r2.Vec{X: 4.5, Y: 10.5}, r2.Vec{X: 6.5, Y: 10.5}, r2.Vec{}},
		{"cell beside the wall", r2.Vec{X: 4.5, Y: 5.5}, r2.Vec{X: 9.5, Y: 5.5}, r2.Vec{}},
		{"0.1 from the wall", r2.Vec{X: 4.5, Y: 5.5}, r2.Vec{X: 9.9, Y: 5.5}, r2.Vec{X: 9.7, Y: 5.5}},
		{"corner of wall and edge", r2.Vec{X: 4.5, Y: 5.5}, r2.Vec{X: 9.5, Y: 0.5}, r2.Vec{}},
		{"diagonal of the wall's end", r2.Vec{X: 4.5, Y: 15.5}, r2.Vec{X: 9.1, Y: 12.1}, r2.Vec{}},
		{"map edge", r2.Vec{X: 4.5, Y: 15.5}, r2.Vec{X: 0.5, Y: 15.5}, r2.Vec{}},
		{"0.1 from the map edge", r2.Vec{X: 4.5, Y: 15.5}, r2.Vec{X: 0.1, Y: 15.5}, r2.Vec{X: 0.3, Y: 15.5}},
		{"map corner", r2.Vec{X: 4.5, Y: 15.5}, r2.Vec{X: 0.5, Y: 19.5}, r2.Vec{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(20, 20)
			for y := range int32(12) {
				g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.Mover{})
			require.NoError(t, err)
			e := sp.Spawn(c.start, func(a *systems.Spawned) { a.MoveTo(c.to) })
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			s.Initialize(w)
			defer s.Finalize(w)
			pos := func() r2.Vec { return (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w))).Vec }
			vel := func() r2.Vec { return (*components.Velocity)(w.Get(e, arche.ComponentID[components.Velocity](w))).Vec }
			for f := range 700 {
				s.Run(w, 1)
				require.True(t, g.Passable(g.CellAt(pos())), "frame %d: in a blocked cell at %v", f, pos())
				if f >= 400 {
					require.Equal(t, r2.Vec{}, vel(), "frame %d: at rest", f)
				}
			}
			rest := c.to
			if c.rest != (r2.Vec{}) {
				rest = c.rest
			}
			assert.InDelta(t, 0, r2.Norm(r2.Sub(pos(), rest)), 1e-3, "on the goal: %v", pos())
		})
	}
}
