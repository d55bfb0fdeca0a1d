package save_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// staleMode is a FlowField configuration of the stale-field tests.
type staleMode struct {
	name            string
	sectors, budget int
}

var staleModes = []staleMode{
	{"whole-grid, built at once", 0, 0},
	{"whole-grid, 1500 cells a frame", 0, 1500},
	{"sectors", 16, 2 * 16 * 16},
}

func (m staleMode) systems() (*systems.FlowField, *ecs.Scheduler) {
	flow := &systems.FlowField{Sectors: m.sectors, Budget: m.budget, Workers: 2}
	return flow, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{CellSize: 1}, flow,
		&systems.PathFollow{Workers: 2}, &systems.Steer{Workers: 2}, &systems.Movement{Workers: 2})
}

// openDoor is the grid edit of the stale-field tests: a door in the maze's first wall.
func openDoor(g *grid.Grid) { g.SetCost(grid.Cell{X: 40, Y: 30}, 1) }

// setGoals sends every follower of w to goal.
func setGoals(w *arche.World, goal grid.Cell) {
	q := generic.NewFilter1[components.FlowFollower]().Query(w)
	for q.Next() {
		q.Get().Goal = goal
	}
}

// staleRun is a swarm on the maze that follows goal a, then b; then a door opens.
func staleRun(t *testing.T, m staleMode) (*arche.World, *systems.FlowField, *ecs.Scheduler, *grid.Grid) {
	world := arche.NewWorld()
	w := &world
	g := sectorMaze()
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 90, Y: 90}})
	require.NoError(t, err)
	rng := steer.NewRand(7)
	for range 150 {
		for {
			c := grid.Cell{X: int32(rng.Intn(96)), Y: int32(rng.Intn(96))}
			if g.Passable(c) {
				sp.Spawn(g.Center(c), nil)
				break
			}
		}
	}
	flow, s := m.systems()
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 20)
	setGoals(w, grid.Cell{X: 5, Y: 5}) // nobody follows {90 90} any more
	s.Run(w, 20)
	openDoor(g)
	return w, flow, s, g
}

// A field of a goal nobody follows any more, made stale by a grid edit, no longer
// blocks saving (newbie19's finding 1: it did for good, "has not caught up with grid
// edits; save after its next Update"); the save holds it stale, and the loaded world
// continues with the unsaved run's state hash, also when the old goal comes back and
// its stale field is served and rebuilt. Whole-grid fields (built at once, or within a
// budget) and sector fields.
func TestSaveWithStaleFieldOfAbandonedGoal(t *testing.T) {
	for _, m := range staleModes {
		t.Run(m.name, func(t *testing.T) {
			w, flow, s, _ := staleRun(t, m)
			s.Run(w, 120)
			data, err := save.Save(w, nil, flow)
			require.NoError(t, err)
			assertStaleSaved(t, data, m)
			continueAlike(t, m, w, s, data)
		})
	}
}

// An edit made after the last Update, and a field being rebuilt when saved (whole-grid
// with a budget: the followed goal's field mid-rebuild), are saved exactly too (the
// whole-grid cache), or refused with an error that says when to save (sector mode,
// the frame of the edit), and saved after that Update.
func TestSaveRightAfterGridEdit(t *testing.T) {
	for _, m := range staleModes {
		t.Run(m.name, func(t *testing.T) {
			w, flow, s, _ := staleRun(t, m)
			data, err := save.Save(w, nil, flow)
			if m.sectors > 0 {
				require.ErrorContains(t, err, "has not caught up with grid edits (the grid was edited after the last Update); save after its next Update")
				s.Update(w)
				data, err = save.Save(w, nil, flow)
			}
			require.NoError(t, err)
			if m.budget > 0 && m.sectors == 0 {
				s.Update(w) // the followed goal's field is being rebuilt
				var st struct {
					Flow flowfield.CacheState `json:"flowfield"`
				}
				raw, err := flow.SaveState()
				require.NoError(t, err)
				require.NoError(t, json.Unmarshal(raw, &st.Flow))
				rebuilding := 0
				for _, e := range st.Flow.Entries {
					if e.Rebuild != nil {
						rebuilding++
					}
				}
				require.Equal(t, 1, rebuilding, "the followed goal's field mid-rebuild")
				data, err = save.Save(w, nil, flow)
				require.NoError(t, err)
			}
			continueAlike(t, m, w, s, data)
		})
	}
}

// assertStaleSaved checks that the save holds goal {90 90}'s field stale.
func assertStaleSaved(t *testing.T, data []byte, m staleMode) {
	t.Helper()
	var f struct {
		Systems struct {
			Flow struct {
				flowfield.CacheState
				Sector *systems.SectorFlowState `json:"sector"`
			} `json:"flowfield"`
		} `json:"systems"`
	}
	require.NoError(t, json.Unmarshal(data, &f))
	old := grid.Cell{X: 90, Y: 90}
	found := false
	if m.sectors > 0 {
		for _, gs := range f.Systems.Flow.Sector.Goals {
			if gs.Field.Goal == old {
				found = true
				assert.True(t, gs.Field.Behind, "the abandoned goal's sector field is behind the edit")
			} else {
				assert.False(t, gs.Field.Behind, "goal %v", gs.Field.Goal)
			}
		}
	} else {
		for _, e := range f.Systems.Flow.Entries {
			if e.Goal == old {
				found = true
				assert.True(t, e.Stale, "the abandoned goal's field is stale")
				assert.Equal(t, []flowfield.CellCost{{Cell: grid.Cell{X: 40, Y: 30}, Blocked: true}}, e.Old)
			} else {
				assert.False(t, e.Stale, "goal %v", e.Goal)
			}
		}
	}
	require.True(t, found, "the abandoned goal's field is in the save")
}

// continueAlike loads data into a world with the edited maze and runs it beside the
// saved one: some frames, then the abandoned goal back, then more; the state hashes
// must stay equal.
func continueAlike(t *testing.T, m staleMode, w *arche.World, s *ecs.Scheduler, data []byte) {
	t.Helper()
	world := arche.NewWorld()
	lw := &world
	g := sectorMaze()
	openDoor(g) // the saved run's edit, made again before LoadInto
	arche.AddResource(lw, g)
	l, err := save.LoadInto(data, save.Registry{}, lw)
	require.NoError(t, err)
	lflow, ls := m.systems()
	ls.Initialize(lw)
	t.Cleanup(func() { ls.Finalize(lw) })
	require.NoError(t, l.Restore(lflow))
	require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "at load")
	phase := func(name string, n int) {
		for k := range n {
			s.Update(w)
			ls.Update(lw)
			require.Equal(t, systems.StateHash(w), systems.StateHash(lw), fmt.Sprintf("%s, frame %d", name, k))
		}
	}
	phase("after the load", 10)
	setGoals(w, grid.Cell{X: 90, Y: 90})
	setGoals(lw, grid.Cell{X: 90, Y: 90})
	phase("the abandoned goal back", 60)
}

// newbie19's repro: 20 followers of {60 60} on an open 64² map turn to {60 5}, a cell
// is blocked anywhere, and 600 Updates later the save must succeed (it failed for good
// in both modes: only goals in use are updated, and the old goal's field stayed stale).
func TestSaveSucceedsAfterEditWithAbandonedGoal(t *testing.T) {
	for _, sectors := range []int{0, 16} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(64, 64)
		arche.AddResource(w, g)
		sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 60, Y: 60}})
		require.NoError(t, err)
		for i := range 20 {
			sp.Spawn(g.Center(grid.Cell{X: 2 + int32(i%5), Y: 2 + int32(i/5)}), nil)
		}
		flow := &systems.FlowField{Sectors: sectors}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, flow,
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(w)
		s.Run(w, 10)
		setGoals(w, grid.Cell{X: 60, Y: 5})
		s.Run(w, 10)
		g.SetCost(grid.Cell{X: 30, Y: 30}, grid.Blocked)
		s.Run(w, 600)
		_, err = save.Save(w, nil, flow)
		assert.NoError(t, err, "sectors %d", sectors)
		s.Finalize(w)
	}
}
