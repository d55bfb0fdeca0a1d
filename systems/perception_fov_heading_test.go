package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The documented rule of components.Perception.FieldOfView: a Combatant with a
// 90° cone that has not moved since its spawn (Heading zero) sees all around,
// a thief behind it included; given a Heading at spawn, it sees only within its
// cone. (A newcomer's stealth guards standing at their posts saw behind them.)
func TestAStillSentryWithoutHeadingSeesAllAround(t *testing.T) {
	for _, c := range []struct {
		heading r2.Vec
		thief   r2.Vec
		want    bool
	}{
		{r2.Vec{}, r2.Vec{X: 13.5, Y: 10.5}, true},      // in front
		{r2.Vec{}, r2.Vec{X: 7.5, Y: 10.5}, true},       // behind: no heading, no cone
		{r2.Vec{X: 1}, r2.Vec{X: 13.5, Y: 10.5}, true},  // in its cone
		{r2.Vec{X: 1}, r2.Vec{X: 7.5, Y: 10.5}, false},  // behind it
		{r2.Vec{X: 1}, r2.Vec{X: 10.5, Y: 13.5}, false}, // beside it, 90° off
		{r2.Vec{Y: -1}, r2.Vec{X: 10.5, Y: 7.5}, true},  // facing the thief
	} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(32, 32))
		tree, err := bt.Compile("idle", bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Running }))
		require.NoError(t, err)
		guards, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 1, FieldOfView: math.Pi / 2},
			systems.Thinker{Tree: tree})
		require.NoError(t, err)
		thieves, err := systems.NewSpawner(w, systems.Target{Team: 2})
		require.NoError(t, err)
		g := guards.Spawn(r2.Vec{X: 10.5, Y: 10.5}, func(a *systems.Spawned) { a.Perception.Heading = c.heading })
		thieves.Spawn(c.thief, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{},
			&systems.Decision{}, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 30)
		per := generic.NewMap[components.Perception](w)
		p := per.Get(g)
		require.Equal(t, c.want, p.Visible, "heading %v, thief at %v", c.heading, c.thief)
		require.Equal(t, c.heading, p.Heading, "a guard that stands keeps its heading")
	}
}
