package debugview_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// testWorld is a 32×32 map with a wall at x = 16 (a gap at the bottom), n
// thinkers of two teams walking to the far side, and flowers flow-field
// followers heading for cell (28, 4).
type testWorld struct {
	w       *arche.World
	sched   *ecs.Scheduler
	v       *debugview.Viewer
	g       *grid.Grid
	tree    *bt.Tree
	agents  []arche.Entity
	flowers []arche.Entity
}

func newTestWorld(t testing.TB, n, flowers int, configure func(*debugview.Viewer)) *testWorld {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(32, 32)
	for y := int32(0); y < 26; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	g.SetCost(grid.Cell{X: 3, Y: 30}, 3) // a costly cell
	arche.AddResource(w, g)
	tree, err := bt.Compile("patrol", bt.Sequence(bt.Wait(0.3), bt.Action("look", func(*bt.Context) bt.Status { return bt.Success }), bt.Wait(0.2)).Named("patrol"))
	require.NoError(t, err)
	tw := &testWorld{w: w, g: g, tree: tree}
	for team := range uint8(2) {
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree},
			systems.Combatant{Team: team, SightRange: 6, FieldOfView: 2})
		require.NoError(t, err)
		for i := range n / 2 {
			x := 2.5 + float64(i%6)
			if team == 1 {
				x += 20
			}
			e := sp.Spawn(r2.Vec{X: x, Y: 2.5 + float64(i/6)}, func(a *systems.Spawned) {
				a.MoveTo(r2.Vec{X: 34 - x, Y: 28.5})
			})
			tw.agents = append(tw.agents, e)
		}
	}
	if flowers > 0 {
		sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 28, Y: 4}})
		require.NoError(t, err)
		for i := range flowers {
			tw.flowers = append(tw.flowers, sp.Spawn(r2.Vec{X: 4.5 + float64(i), Y: 20.5}, nil))
		}
	}
	v := debugview.New()
	v.Speed = 0 // tests run unpaced
	if configure != nil {
		configure(v)
	}
	tw.v = v
	tw.sched = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.Combat{}, &systems.FlowField{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, v)
	v.Times = tw.sched
	tw.sched.Initialize(w)
	t.Cleanup(func() { v.Close(); tw.sched.Finalize(w) })
	return tw
}

func (tw *testWorld) run(frames int) {
	for range frames {
		tw.sched.Update(tw.w)
	}
}
