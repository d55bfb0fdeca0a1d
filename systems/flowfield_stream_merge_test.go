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
// Diagnosis (traced frame by frame with the newcomer's cmd/corner, 2026-12-05): the
// agent is not stuck on the wall and nothing loops. PathFollow keeps no Progress for a
// FlowFollower, so no stuck detection or repath is involved; its Desired stays
// DesiredFlow towards its cached Aim throughout. What holds it is its own separation
// force in Steer's priority budget (wall, separation, then the move force, summed
// within MaxForce): the stream's left lane rounds the wall's end at x ≈ 41.3, within
// the lone agent's SeparationRadius (0.75) whenever it steps towards the opening, and
// every neighbour is on that one side, so separation (weight 1.5) takes the budget and
// kicks it back west to x ≈ 40.5, where separation fades and the flow force pulls it
// in again: it sways at up to ±0.8 cells/s under the wall while agents keep coming,
// and gets round as the stream's tail passes (below: frame 365 of 80 agents' 385).
// The stream's agents feel its push too but are held in their lane by the lanes
// beside them and their own flow force, so they never open a gap for it.
//
// Checked by experiment (not committed): with the lone agent's
// SteeringWeights.Separation set to 0 after Initialize it is past at frame 47 (0.8 s)
// and the stream still flows (all of it past by frame 395), so the separation alone
// holds it. Two other suspects make it worse but are not the cause: its Aim, sampled
// once per cell, is kept after it was pushed west, so it heads through the wall's
// corner and Movement takes the part into the wall from its velocity (pinned at
// y = 31.30, vy exactly 0, for a second at a time); steering by the Aim's direction
// less its part into the wall (Steer's braced applied to it) did not help (frame 376),
// and resampling every agent's Aim every frame only brought the 300-agent case from
// 12–13 s to 7–8 s. Capping a flow follower's separation at half of MaxForce brought
// the 300-agent case to 4–5 s but this one only to frame 319. A fix needs the merge
// itself: a stream that yields to an agent beside it, or a separation that does not
// take the whole budget from an agent whose neighbours are all on one side (one with
// no progress for a while pushing in); either changes every crowd's motion (the
// swarm hash of cmd/bench at least), so it was left for a session with time to
// measure it.
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
	loneAt, halfAt, allAt := -1, -1, -1
	for frame := 1; frame <= 1200 && (loneAt < 0 || allAt < 0); frame++ {
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
		if allAt < 0 && past == stream {
			allAt = frame
		}
	}
	t.Logf("lone agent past the wall's row at frame %d; half the stream at frame %d, all of it at frame %d", loneAt, halfAt, allAt)
	require.Positive(t, loneAt, "the lone agent never got past the wall's end in 20 s")
	require.Positive(t, halfAt, "half the stream never got past the wall's end in 20 s")
	assert.Less(t, loneAt, halfAt, "the lone agent waited for half the stream and more")
}
