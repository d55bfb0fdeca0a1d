package save_test

import (
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sectorMaze is a 96×96 map whose walls force routes through many 16-cell
// sectors: walls across at y = 30 (open at the right) and y = 62 (open at
// the left).
func sectorMaze() *grid.Grid {
	g := grid.New(96, 96)
	for x := int32(0); x < 96; x++ {
		if x < 88 {
			g.SetCost(grid.Cell{X: x, Y: 30}, grid.Blocked)
		}
		if x > 8 {
			g.SetCost(grid.Cell{X: x, Y: 62}, grid.Blocked)
		}
	}
	return g
}

// sectorSystems are a swarm's systems with FlowField in sector mode, sectors
// built two per frame (so builds are pending across frames).
func sectorSystems() (*systems.FlowField, *ecs.Scheduler) {
	flow := &systems.FlowField{Sectors: 16, Budget: 2 * 16 * 16, Workers: 2}
	return flow, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{CellSize: 1}, flow,
		&systems.PathFollow{Workers: 2}, &systems.Steer{Workers: 2}, &systems.Movement{Workers: 2})
}

// sectorSwarm spawns followers of goal on open cells of the maze and initializes its systems.
func sectorSwarm(t *testing.T, goal grid.Cell) (*arche.World, *systems.FlowField, *ecs.Scheduler) {
	world := arche.NewWorld()
	w := &world
	g := sectorMaze()
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	rng := steer.NewRand(5)
	for range 200 {
		for {
			c := grid.Cell{X: int32(rng.Intn(96)), Y: int32(rng.Intn(96))}
			if g.Passable(c) {
				sp.Spawn(g.Center(c), nil)
				break
			}
		}
	}
	flow, s := sectorSystems()
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, flow, s
}

// resumeSector loads data into a fresh world with the maze and the swarm's systems.
func resumeSector(t *testing.T, data []byte) (*arche.World, *systems.FlowField, *ecs.Scheduler, error) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, sectorMaze())
	l, err := save.LoadInto(data, save.Registry{}, w)
	require.NoError(t, err)
	flow, s := sectorSystems()
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, flow, s, l.Restore(flow)
}

// A swarm following sector fields, saved while sectors are still wanted and
// the goal moves, continues after loading exactly as the unbroken run: the
// sector fields come back sector by sector in their build order.
func TestSectorFieldsSaveAndLoadMidBuild(t *testing.T) {
	w, flow, s := sectorSwarm(t, grid.Cell{X: 90, Y: 90})
	for range 3 {
		s.Update(w)
	}
	raw, err := flow.SaveState()
	require.NoError(t, err)
	var st struct {
		Sector systems.SectorFlowState `json:"sector"`
	}
	require.NoError(t, json.Unmarshal(raw, &st))
	require.Len(t, st.Sector.Goals, 1)
	fs := st.Sector.Goals[0].Field
	assert.Greater(t, len(fs.Built), 3, "the goal's sector and two a frame")
	assert.NotEmpty(t, fs.Wanted, "sectors still wanted when saved")

	data, err := save.Save(w, nil, flow)
	require.NoError(t, err)
	steps := func(w *arche.World, s *ecs.Scheduler, n int) {
		for range n {
			s.Update(w)
		}
	}
	lw, _, ls, err := resumeSector(t, data)
	require.NoError(t, err)
	assert.Equal(t, systems.StateHash(w), systems.StateHash(lw))
	steps(w, s, 30)
	steps(lw, ls, 30)
	assert.Equal(t, systems.StateHash(w), systems.StateHash(lw), "30 frames on")
}

// A bad sector state is refused with an error naming it, and the loaded
// FlowField holds no fields.
func TestSectorFieldStateRefused(t *testing.T) {
	w, flow, s := sectorSwarm(t, grid.Cell{X: 90, Y: 90})
	for range 3 {
		s.Update(w)
	}
	data, err := save.Save(w, nil, flow)
	require.NoError(t, err)
	sector := func(f map[string]any) map[string]any {
		return f["systems"].(map[string]any)["flowfield"].(map[string]any)["sector"].(map[string]any)
	}
	field := func(f map[string]any) map[string]any {
		return sector(f)["goals"].([]any)[0].(map[string]any)["field"].(map[string]any)
	}
	for _, c := range []struct {
		name string
		edit func(f map[string]any)
		says string
	}{
		{"sum", func(f map[string]any) {
			field(f)["built"].([]any)[1].(map[string]any)["sum"] = "12345"
		}, "built again differs from the saved one"},
		{"size", func(f map[string]any) { sector(f)["size"] = 32 }, "sectors of 32 cells saved, FlowField.Sectors is 16"},
		{"sector", func(f map[string]any) {
			field(f)["built"].([]any)[1].(map[string]any)["sector"] = 36
		}, "built sector 36 is not among the grid's 36"},
		{"wanted built", func(f map[string]any) {
			w := field(f)["wanted"].([]any)
			field(f)["wanted"] = append(w, field(f)["built"].([]any)[0].(map[string]any)["sector"])
		}, "is built or wanted twice"},
		{"goal first", func(f map[string]any) {
			b := field(f)["built"].([]any)
			b[0], b[1] = b[1], b[0]
		}, "the goal's sector"},
		{"no sector state", func(f map[string]any) {
			delete(f["systems"].(map[string]any)["flowfield"].(map[string]any), "sector")
		}, "no sector fields saved"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var g map[string]any
			require.NoError(t, json.Unmarshal(data, &g))
			c.edit(g)
			bad, err := json.Marshal(g)
			require.NoError(t, err)
			_, lflow, _, err := resumeSector(t, bad)
			require.ErrorIs(t, err, save.ErrState)
			assert.ErrorContains(t, err, c.says)
			again, err := lflow.SaveState()
			require.NoError(t, err)
			assert.Contains(t, string(again), `"goals":[]`, "no sector field kept")
		})
	}
}
