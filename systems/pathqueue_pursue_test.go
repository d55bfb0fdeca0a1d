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

// A pursuer behind a wall chases a target walking 3 cells/s on the far side (a new
// cell every 20 frames) with a budget of 100 expansions a frame: a search takes longer
// than the target stays in one cell. PathFollow moves the pending request's Path.Goal to
// the target's new cell each time, and the queue refiled the request off the search in
// progress, which started again from nothing: no path in 20 s (newcomer's finding 13).
// Now a request that lost one search to a goal move stays on the next: a path arrives,
// leads to where the target was, and the pursuer asks again for where it is.
func TestPursuerBehindAWallGetsAPathFromATargetThatKeepsMoving(t *testing.T) {
	w := arche.NewWorld()
	g := grid.New(128, 128)
	for y := 0; y < 120; y++ {
		g.SetCost(grid.Cell{X: 64, Y: int32(y)}, grid.Blocked)
	}
	arche.AddResource(&w, g)
	sp, _ := systems.NewSpawner(&w, systems.Mover{})
	tsp, _ := systems.NewSpawner(&w, systems.Mover{Motion: systems.Motion{MaxSpeed: 3}})
	target := tsp.Spawn(r2.Vec{X: 100.5, Y: 10.5}, nil)
	pursuer := sp.Spawn(r2.Vec{X: 20.5, Y: 10.5}, func(a *systems.Spawned) {
		a.Intent.Mode = components.IntentPursue
	})
	intents := generic.NewMap[components.Intent](&w)
	intents.Get(pursuer).Target = target
	pq := &systems.PathQueue{Budget: 100}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pq, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(&w)
	paths := generic.NewMap[components.Path](&w)
	pos := generic.NewMap[components.Position](&w)

	const frames, within = 1200, 150 // a search here costs some 3,000-4,000 expansions: 30-40 frames, twice at most
	type request struct {
		filed, served int       // frames (served -1: not yet)
		goal          grid.Cell // Path.Goal when filed: the target's cell then
		moved         bool      // Path.Goal moved while it waited
	}
	var reqs []request
	for f := 0; f < frames; f++ {
		in := intents.Get(target)
		in.Move, in.Goal = true, r2.Vec{X: 100.5, Y: 10.5 + float64(f)*0.05}
		s.Update(&w)
		p := paths.Get(pursuer)
		switch {
		case p.State == components.PathPending && int(p.Request) > len(reqs):
			require.Equal(t, len(reqs)+1, int(p.Request))
			reqs = append(reqs, request{filed: f, served: -1, goal: p.Goal})
			assert.Equal(t, g.CellAt(pos.Get(target).Vec), p.Goal, "request %d asks for the target's cell", p.Request)
		case p.State == components.PathPending:
			if p.Goal != reqs[len(reqs)-1].goal {
				reqs[len(reqs)-1].moved = true
			}
		case p.State == components.PathReady && len(reqs) > 0 && reqs[len(reqs)-1].served < 0:
			reqs[len(reqs)-1].served = f
			assert.Equal(t, p.Goal, p.Waypoints[len(p.Waypoints)-1], "the path leads to Path.Goal")
		}
	}
	require.NotEmpty(t, reqs)
	require.True(t, reqs[0].moved, "the case needs a goal that moves while the request waits")
	// every request but one still waiting at the end is answered within the bound
	for i, r := range reqs {
		if r.served < 0 {
			assert.Equal(t, len(reqs)-1, i, "request %d (of %d) never answered", i+1, len(reqs))
			assert.Less(t, frames-r.filed, within, "request %d waits since frame %d", i+1, r.filed)
			continue
		}
		assert.Less(t, r.served-r.filed, within, "request %d filed at frame %d, answered at %d", i+1, r.filed, r.served)
	}
	// a path to where the target was, then a request for where it is: the pursuer
	// heads for the newest goal (PathFollow's repath test asks again once the held
	// path's end is too far from the target)
	assert.Positive(t, pq.TotalOvertaken, "paths to an older goal")
	assert.GreaterOrEqual(t, len(reqs), 3, "the pursuer asks again as the target walks on")
}
