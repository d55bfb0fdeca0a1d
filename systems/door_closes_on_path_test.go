package systems_test

import (
	"fmt"
	"slices"
	"strings"
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

// doorMap is newbie21's map for a door closing on a path follower: a 24×12 grid, a
// wall across it at y = 6 with a 2-cell door at x = 5..6, and below it a wall at x = 12
// from y = 7 to 10, so the way to a goal at (20, 10) goes round its end at y = 11. With
// wide, the door is 3 cells wide (x = 5..7), so its middle cell has clearance 2.
func doorMap(wide bool) (*grid.Grid, []grid.Cell) {
	g := grid.New(24, 12)
	door := []grid.Cell{{X: 5, Y: 6}, {X: 6, Y: 6}}
	if wide {
		door = append(door, grid.Cell{X: 7, Y: 6})
	}
	for y := int32(7); y <= 10; y++ {
		g.SetCost(grid.Cell{X: 12, Y: y}, grid.Blocked)
	}
	for x := int32(0); x < 24; x++ {
		if !slices.Contains(door, grid.Cell{X: x, Y: 6}) {
			g.SetCost(grid.Cell{X: x, Y: 6}, grid.Blocked)
		}
	}
	return g, door
}

// pathTrace is one letter a frame for a Path's state: N none, P pending, R ready, U
// unreachable; runs are written as letter×count.
func pathTrace(states []components.PathState) string {
	var b strings.Builder
	for i := 0; i < len(states); {
		j := i
		for j < len(states) && states[j] == states[i] {
			j++
		}
		fmt.Fprintf(&b, "%c×%d ", "NPRU"[states[i]], j-i)
		i = j
	}
	return strings.TrimSpace(b.String())
}

// A door closes on a path follower standing in it (newbie21's finding 1). Its goal is
// reachable from the open cell one step ahead, so its Path must never read
// PathUnreachable: the repath the edit causes is answered from that exit, with the
// agent's blocked cell as the first waypoint and the exit, on the goal's side, as the
// second. Before, the answer was PathUnreachable (start cell blocked) for 397 of the
// next 660 frames, and the agent reached its goal only when stuck detection asked
// again. The per-frame trace is logged.
func TestDoorClosingOnAPathFollowerKeepsItsGoalReachable(t *testing.T) {
	for _, kind := range []string{"mover", "orca", "wide"} {
		t.Run(kind, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g, door := doorMap(kind == "wide")
			arche.AddResource(w, g)
			bundles := []systems.Bundle{systems.Mover{}}
			if kind == "orca" {
				bundles = append(bundles, systems.Avoider{})
			}
			if kind == "wide" { // radius 0.6: clearance 2, which the 3-cell door lets through
				bundles = []systems.Bundle{systems.Mover{Motion: systems.Motion{Radius: 0.6}}}
			}
			sp, err := systems.NewSpawner(w, bundles...)
			require.NoError(t, err)
			goal := r2.Vec{X: 20.5, Y: 10.5}
			if kind == "wide" { // not round the x = 12 wall: its end at the border is too narrow
				goal = r2.Vec{X: 8.5, Y: 9.5}
			}
			e := sp.Spawn(r2.Vec{X: 5.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
			list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}}
			if kind == "orca" {
				list = append(list, &systems.ORCA{})
			}
			s := ecs.NewScheduler(append(list, &systems.Movement{})...)
			s.Initialize(w)
			defer s.Finalize(w)
			pm := generic.NewMap2[components.Position, components.Path](w)
			in := grid.Cell{X: -1}
			for f := 0; f < 600 && in.X < 0; f++ {
				s.Update(w)
				p, _ := pm.Get(e)
				if c := g.CellAt(p.Vec); slices.Contains(door, c) {
					in = c
				}
			}
			require.GreaterOrEqual(t, in.X, int32(0), "the agent never entered the door")
			for _, c := range door {
				g.SetCost(c, grid.Blocked)
			}
			states := make([]components.PathState, 0, 660)
			out := -1 // the first frame it stands in an open cell
			for f := 0; f < 660; f++ {
				s.Update(w)
				p, path := pm.Get(e)
				states = append(states, path.State)
				if f == 0 {
					require.Equal(t, components.PathReady, path.State, "answered in the frame after the edit")
					require.GreaterOrEqual(t, len(path.Waypoints), 2)
					assert.Equal(t, in, path.Waypoints[0], "the first waypoint is the blocked cell it stands in")
					if kind != "wide" {
						assert.Equal(t, grid.Cell{X: in.X + 1, Y: 7}, path.Waypoints[1],
							"the second is the exit: the open cell beside it connected to the goal, nearest the goal")
					}
					assert.Equal(t, int32(7), path.Waypoints[1].Y, "the exit is on the goal's side")
					assert.Equal(t, 1, path.Next)
				}
				if out < 0 && g.Passable(g.CellAt(p.Vec)) {
					out = f
				}
			}
			p, path := pm.Get(e)
			t.Logf("%s: closed on it in %v; out of the wall in frame %d; trace %s; at %v", kind, in, out, pathTrace(states), p.Vec)
			assert.NotContains(t, states, components.PathUnreachable)
			assert.True(t, out >= 0 && out < 30, "out of the wall within half a second (frame %d)", out)
			assert.Less(t, r2.Norm(r2.Sub(p.Vec, goal)), 0.5, "at its goal 11 s later (path %v)", path.State)
			assert.Equal(t, 0, systems.Diagnose(w).Counts[systems.CauseBlocked])
		})
	}
}

// A door closes on a path follower whose goal is behind it in a room the door sealed:
// no open cell within 4 of the agent leads to the goal, so the answer is PathUnreachable,
// and it is the truth; when the door opens again the queue asks again (an edit opened a
// cell) and the agent gets its path.
func TestDoorClosingOnAnAgentSealsItsGoalUnreachable(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g, door := doorMap(false)
	for y := int32(7); y < 12; y++ { // the room below the door is sealed: no way round at y = 11
		g.SetCost(grid.Cell{X: 12, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	goal := r2.Vec{X: 20.5, Y: 10.5}
	e := sp.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	pm := generic.NewMap2[components.Position, components.Path](w)
	s.Run(w, 2)
	p, path := pm.Get(e)
	require.Equal(t, components.PathUnreachable, path.State, "the goal is walled off from the start: %v", p.Vec)
	// now the agent stands in the door, the goal beyond the x = 12 wall, which is opened
	// while the door closes on it: the goal is reachable, but only from across the door
	p.Vec = r2.Vec{X: 5.5, Y: 6.5}
	for _, c := range door {
		g.SetCost(c, grid.Blocked)
	}
	g.SetCost(grid.Cell{X: 12, Y: 11}, 1)
	s.Update(w)
	_, path = pm.Get(e)
	require.Equal(t, components.PathReady, path.State)
	assert.Equal(t, []grid.Cell{{X: 5, Y: 6}, {X: 6, Y: 7}}, path.Waypoints[:2])
	// the x = 12 wall closes again: from the door no open cell within 4 leads to the goal
	g.SetCost(grid.Cell{X: 12, Y: 11}, grid.Blocked)
	p, _ = pm.Get(e)
	p.Vec = r2.Vec{X: 5.5, Y: 6.5}
	s.Update(w)
	_, path = pm.Get(e)
	assert.Equal(t, components.PathUnreachable, path.State, "sealed off: the truth")
}
