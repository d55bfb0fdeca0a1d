package systems_test

import (
	"os"
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

// A lone FlowFollower (radius 0.3, MaxSpeed 3) beside the end of a one-cell wall,
// its goal on the far side, waits for the whole of a dense stream of followers
// rounding the wall's end past it before it gets round itself (a tower-defence
// newcomer's finding: an NPC frozen at a corner for ~12 s while 300 others walk by).
// Known limit, not fixed yet; the test is skipped unless ARCHAI_KNOWN_LIMITS=1.
//
// Diagnosis (traced frame by frame, 2026-12-05): the agent is not stuck on the wall
// and nothing loops. PathFollow has no Progress for a FlowFollower, so no stuck
// detection or repath is involved; its Desired stays DesiredFlow towards the cached
// Aim throughout. What holds it is Steer's priority budget (wall, separation, then
// the move force, summed within MaxForce): the stream's left lane passes the wall's
// end at x ≈ 41.3, within the lone agent's SeparationRadius (0.75) whenever it steps
// towards the opening, so separation (weight 1.5, one-sided: every neighbour is on
// the stream's side) takes the budget and kicks it back west to x ≈ 40.5, where
// separation fades and the flow force pulls it in again; it sways ±0.8 cells/s
// under the wall for as long as agents keep coming. The stream's own agents feel
// its push too but are held in their lane by the lanes beside them and their own
// flow force, so they never open a gap; it gets round when the stream's tail
// passes. Two things make it worse, neither the cause on its own: the cached Aim
// (sampled once per cell) is kept after the agent has been pushed west, so it
// heads through the wall's corner and Movement takes the part into the wall from
// its velocity (it is pinned at y = 31.30 with vy exactly 0 for a second at a
// time); and resampling every frame (tried) only brings the 300-stream case from
// 12.5 s to 7.5 s. A fix needs the merge itself: a stream yielding to an agent
// beside it, or separation that does not take the whole budget from an agent
// whose neighbours are all on one side; both change every crowd's motion (the
// swarm and guards hashes of cmd/bench), so they were left for a session with time
// to measure them.
//
// Asserted (fails today): the lone agent is past the wall's row (y < 30) before
// half of a 4-lane stream of 80 has passed it.
func TestALoneFlowFollowerMergesIntoAStreamRoundAWallEnd(t *testing.T) {
	if os.Getenv("ARCHAI_KNOWN_LIMITS") == "" {
		t.Skip("known limit (see doc comment): a lone follower waits for a whole stream to pass; ARCHAI_KNOWN_LIMITS=1 runs it")
	}
	world := arche.NewWorld()
	g := grid.New(64, 128)
	for x := int32(10); x <= 40; x++ {
		g.SetCost(grid.Cell{X: x, Y: 30}, grid.Blocked)
	}
	arche.AddResource(&world, g)
	sp, err := systems.NewSpawner(&world, systems.FlowFollower{Motion: systems.Motion{MaxSpeed: 3, Radius: 0.3}, Goal: grid.Cell{X: 41, Y: 10}})
	require.NoError(t, err)
	lone := sp.Spawn(r2.Vec{X: 40.7, Y: 31.3}, nil)
	const stream = 80
	for i := 0; i < stream; i++ {
		sp.Spawn(r2.Vec{X: 41.2 + float64(i%4)*0.7, Y: 31.6 + float64(i/4)*0.7}, nil)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(&world))
	pos := generic.NewMap[components.Position](&world)
	f := generic.NewFilter1[components.Position]()
	loneAt, halfAt := -1, -1
	for frame := 1; frame <= 1200 && (loneAt < 0 || halfAt < 0); frame++ {
		s.Run(&world, 1)
		if loneAt < 0 && pos.Get(lone).Y < 30 {
			loneAt = frame
		}
		past := 0
		q := f.Query(&world)
		for q.Next() {
			if q.Entity() != lone && q.Get().Y < 30 {
				past++
			}
		}
		if halfAt < 0 && past >= stream/2 {
			halfAt = frame
		}
	}
	t.Logf("lone agent past the wall's row at frame %d; half the stream at frame %d", loneAt, halfAt)
	require.Positive(t, loneAt, "the lone agent never got past the wall's end in 20 s")
	require.Positive(t, halfAt, "half the stream never got past the wall's end in 20 s")
	assert.Less(t, loneAt, halfAt, "the lone agent waited for half the stream and more")
}
