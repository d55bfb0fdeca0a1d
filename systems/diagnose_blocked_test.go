package systems_test

import (
	"io"
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

// corridorWorld is a newcomer's case: a corridor of the given width (cells) from
// x = 2 to 30 on a 32×16 grid walled elsewhere, and perSide Movers (radius 0.3) at
// each end sent head-on to the other end, with ORCA when orca is set. It returns the
// world, the agents' goals by entity, and a scheduler with the movement systems.
func corridorWorld(t *testing.T, width, perSide int, orca bool) (*arche.World, map[arche.Entity]r2.Vec, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(32, 16)
	for y := range 16 {
		for x := range 32 {
			if !(y >= 7 && y < 7+width && x >= 2 && x < 30) {
				g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked)
			}
		}
	}
	arche.AddResource(w, g)
	bundles := []systems.Bundle{systems.Mover{}}
	if orca {
		bundles = append(bundles, systems.Avoider{})
	}
	sp, err := systems.NewSpawner(w, bundles...)
	require.NoError(t, err)
	goals := map[arche.Entity]r2.Vec{}
	for i := range perSide {
		y := 7.5 + float64(i%width)
		west, east := r2.Vec{X: 3.5 + float64(i/width), Y: y}, r2.Vec{X: 28.5 - float64(i/width), Y: y}
		for _, p := range [][2]r2.Vec{{west, east}, {east, west}} {
			e := sp.Spawn(p[0], func(a *systems.Spawned) { a.MoveTo(p[1]) })
			goals[e] = p[1]
		}
	}
	list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{Workers: 1}, &systems.PathQueue{},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}}
	if orca {
		list = append(list, &systems.ORCA{})
	}
	list = append(list, &systems.Movement{Workers: 1}, &systems.Diagnostics{Out: io.Discard})
	s := ecs.NewScheduler(list...)
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	return w, goals, s
}

// A newcomer's agents meeting head-on in a corridor 1 cell wide (radius 0.3: two
// discs cannot pass) stood for good, with ORCA all of them, and Diagnose said "no
// misconfiguration". It counts them as blocked_by_agents once they have made no
// progress for BlockedSpan, naming the passage too narrow for two; not before.
func TestHeadOnInNarrowCorridorIsReportedBlocked(t *testing.T) {
	for _, orca := range []bool{true, false} {
		w, goals, s := corridorWorld(t, 1, 3, orca)
		s.Run(w, 60*12) // met (about 5 s) and stood for less than BlockedSpan
		assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "orca %v: not yet", orca)
		s.Run(w, 60*28)
		r := systems.Diagnose(w)
		arrived := 0
		pos := arche.ComponentID[components.Position](w)
		for e, g := range goals {
			p := (*components.Position)(w.Get(e, pos)).Vec
			if r2.Norm(r2.Sub(p, g)) < 1 {
				arrived++
			}
		}
		require.Less(t, arrived, len(goals), "orca %v: some stand", orca)
		assert.Equal(t, len(goals)-arrived, r.Counts[systems.CauseBlockedByAgents], "orca %v: those standing are counted", orca)
		assert.Contains(t, r.String(), "passage 1 cell wide, narrower than two diameters (1.2)", "orca %v", orca)
		assert.Contains(t, r.String(), "one-way", "orca %v", orca)
	}
}

// In a corridor 3 cells wide they pass each other, arrive and hold at their goals:
// nothing is counted, while they pass nor once arrived.
func TestHeadOnInWideCorridorIsNotReported(t *testing.T) {
	for _, orca := range []bool{true, false} {
		w, _, s := corridorWorld(t, 3, 6, orca)
		for range 8 {
			s.Run(w, 60*5)
			r := systems.Diagnose(w)
			assert.Zero(t, r.Total(), "orca %v: %s", orca, r)
		}
	}
}

// After a load an agent still stuck has lost the start of its run
// (Progress.StuckSince is not saved): it is not counted until its next window of
// no progress ends, then from that window's start, so the finding comes later
// than in the unbroken run, never earlier (with StuckSince 0 it counted from the
// clock's start: a run stuck 3 s was reported at once after a load at 60 s).
// Clearing the fields a save leaves out stands for the load here.
func TestBlockedAfterALoadCountsFromTheNextWindow(t *testing.T) {
	w, _, s := corridorWorld(t, 1, 3, true)
	s.Run(w, 60*40)
	require.NotZero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "blocked before the load")
	q := generic.NewFilter1[components.Progress]().Query(w)
	stuck := 0
	for q.Next() {
		pr := q.Get()
		if pr.Stuck {
			stuck++
		}
		pr.StuckSince, pr.StuckKnown = 0, false // as loaded
	}
	require.NotZero(t, stuck)
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "the run's start is not known: not counted")
	s.Run(w, 60*(systems.StuckTime+1))
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "known again, from a window of 3 s at most: under BlockedSpan")
	s.Run(w, 60*systems.BlockedSpan)
	assert.NotZero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "a BlockedSpan later")
}

// Review finding: agents waiting for a path (PathPending, the queue's Budget
// starved) seek their goals straight and stood pressed against the wall between,
// side by side, for 25 s: each was counted as blocked_by_agents ("other agents
// are in its way") beside the queue's own finding. An agent waiting for its path
// is not counted; the wait is paths_waiting_long's.
func TestAgentsWaitingForAPathAreNotBlocked(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(200, 200)
	for y := range 199 {
		g.SetCost(grid.Cell{X: 20, Y: int32(y)}, grid.Blocked) // a wall, open at its far end
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	for i := range 6 {
		sp.Spawn(r2.Vec{X: 18.5, Y: 100 + 0.55*float64(i)}, func(a *systems.Spawned) {
			a.MoveTo(r2.Vec{X: 22.5, Y: 100 + 0.6*float64(i)})
		})
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.PathQueue{Budget: 5},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, &systems.Diagnostics{Out: io.Discard})
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 60*25)
	r := systems.Diagnose(w)
	require.Positive(t, r.PathsWaitingLong, "they wait for their paths: %s", r)
	assert.Zero(t, r.Counts[systems.CauseBlockedByAgents], "%s", r)
}
