package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer sent a Mover (radius 0.3) from (5.5, 9.5) to (-20, -20), off the grid:
// it rested at (0.196, 3.364), its disc 0.104 cells over the map's edge, where the
// README says it rests its radius short of the edge. The stop was its radius back
// along the line of travel, which is its radius from the edge only when the line
// meets the edge square on. It now rests where its disc clears the edge or the
// wall: its radius from it, beside where the line meets it.
func TestAnAgentSentObliquelyToAnUnusableGoalRestsItsRadiusShortOfTheEdge(t *testing.T) {
	for _, c := range []struct {
		name       string
		from, goal r2.Vec
		axisX      bool    // the edge or wall is a line x = at (else y = at)
		at         float64 // its coordinate
		side       float64 // +1: the agent rests on the greater side of it
		along      [2]float64
	}{
		{"off the grid, the newcomer's", r2.Vec{X: 5.5, Y: 9.5}, r2.Vec{X: -20, Y: -20}, true, 0, 1, [2]float64{3.1, 3.6}},
		{"off the grid below", r2.Vec{X: 20.5, Y: 6.5}, r2.Vec{X: 40, Y: -30}, false, 0, 1, [2]float64{23, 24.5}},
		{"in a blocked cell", r2.Vec{X: 10.5, Y: 15.5}, r2.Vec{X: 25.5, Y: 25.5}, true, 25, -1, [2]float64{24.7, 25.4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			g := grid.New(48, 48)
			for y := int32(10); y < 40; y++ {
				g.SetCost(grid.Cell{X: 25, Y: y}, grid.Blocked)
			}
			arche.AddResource(&world, g)
			movers, err := systems.NewSpawner(&world, systems.Mover{})
			require.NoError(t, err)
			e := movers.Spawn(c.from, func(s *systems.Spawned) { s.MoveTo(c.goal) })
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
				&systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(&world))
			defer s.Finalize(&world)
			s.Run(&world, 20*60)
			pos, kin, vel := generic.NewMap[components.Position](&world), generic.NewMap[components.Kinematics](&world),
				generic.NewMap[components.Velocity](&world)
			p, r := pos.Get(e).Vec, kin.Get(e).Radius
			require.Equal(t, 0.3, r)
			assert.Less(t, r2.Norm(vel.Get(e).Vec), 1e-3, "at rest, at %v", p)
			across, along := p.Y, p.X
			if c.axisX {
				across, along = p.X, p.Y
			}
			assert.InDelta(t, r, c.side*(across-c.at), 0.02, "its radius from the edge or wall: at %v", p)
			assert.True(t, along > c.along[0] && along < c.along[1], "beside where its line meets it: at %v", p)
		})
	}
}
