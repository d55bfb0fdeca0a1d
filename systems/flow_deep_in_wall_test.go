package systems_test

import (
	"io"
	"strings"
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

// A newcomer's evacuation spawned 2,000 flow followers at random points of a town map;
// after 30 s, 12 stood in buildings for good, each 4.6 to 7.2 cells from open ground
// (a follower aims for open cells within 4 only), while in_blocked_cell's note said only
// "in a blocked cell". The note now says that such a follower never walks out; one
// 2 cells deep walks out and is not counted.
func TestFlowFollowerDeepInAWallStandsAndTheNoteSaysSo(t *testing.T) {
	w := arche.NewWorld()
	g := grid.New(64, 64)
	for y := int32(20); y <= 32; y++ {
		for x := int32(20); x <= 32; x++ {
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked) // a 13×13 building
		}
	}
	arche.AddResource(&w, g)
	sp, err := systems.NewSpawner(&w, systems.FlowFollower{Goal: grid.Cell{X: 5, Y: 5}})
	require.NoError(t, err)
	deep := sp.Spawn(r2.Vec{X: 26.5, Y: 26.5}, nil)    // 6 cells from open ground
	shallow := sp.Spawn(r2.Vec{X: 21.5, Y: 30.5}, nil) // 2 cells
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.FlowField{Workers: 1},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1},
		&systems.Diagnostics{Out: io.Discard})
	require.NoError(t, s.InitializeChecked(&w))
	defer s.Finalize(&w)
	s.Run(&w, 60*10)

	pos := arche.ComponentID[components.Position](&w)
	at := func(e arche.Entity) grid.Cell { return g.CellAt((*components.Position)(w.Get(e, pos)).Vec) }
	assert.True(t, g.Passable(at(shallow)), "2 cells deep: walked out, at %v", at(shallow))
	assert.False(t, g.Passable(at(deep)), "6 cells deep: still inside")
	r := systems.Diagnose(&w)
	require.Equal(t, 1, r.Counts[systems.CauseBlocked], "%v", r)
	require.Equal(t, deep, r.Examples[systems.CauseBlocked])
	assert.True(t, strings.Contains(r.String(), "no open cell within 4 cells: a flow follower stands there for good"), "%v", r)
}
