package save_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
)

// doorMeta is what a game with doors keeps in a save's meta: the doors open when it
// saved (the file holds only the grid's fingerprint, not its edits).
type doorMeta struct {
	OpenDoors []grid.Cell `json:"open_doors"`
}

// doorLevel builds the map: a wall across x = 16 with two doors, closed, then opens
// the doors listed.
func doorLevel(open []grid.Cell) *grid.Grid {
	g := grid.New(32, 16)
	for y := int32(0); y < 16; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	for _, d := range open {
		g.SetCost(d, 1)
	}
	return g
}

// doorFrame is the game's schedule, on a world with a swarm following a flow field.
func doorFrame() (*systems.FlowField, *ecs.Scheduler) {
	flow := &systems.FlowField{}
	return flow, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, flow,
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
}

// A game that edits its grid (a door opens at frame 60) records its edits in the save's
// meta; loading reads the meta (and the saved frame, with ReadClock) without loading the
// world, rebuilds the map with those edits, and only then calls LoadInto. Without them
// LoadInto refuses the grid (ErrGridMismatch, saying what to do). The loaded run
// continues as the unbroken one.
func Example_gridEdits() {
	world := arche.NewWorld()
	w := &world
	meta := doorMeta{}
	g := doorLevel(meta.OpenDoors)
	arche.AddResource(w, g)
	sp, _ := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 28, Y: 8}})
	for i := range 12 {
		sp.Spawn(g.Center(grid.Cell{X: 3 + int32(i%4), Y: 6 + int32(i/4)}), nil)
	}
	flow, s := doorFrame()
	s.Initialize(w)
	s.Run(w, 60)
	door := grid.Cell{X: 16, Y: 8}
	g.SetCost(door, 1) // the door opens; the game notes it
	meta.OpenDoors = append(meta.OpenDoors, door)
	s.Run(w, 60)
	data, err := save.Save(w, meta, flow)
	if err != nil {
		fmt.Println(err)
		return
	}

	// Loading: the meta and the clock first, then the map with its edits.
	raw, _ := save.ReadMeta(data)
	var m doorMeta
	_ = json.Unmarshal(raw, &m)
	clock, _, _ := save.ReadClock(data)
	fmt.Printf("saved at frame %d (%d Updates), open doors %v\n", clock.Frame, clock.Frame+1, m.OpenDoors)

	bare := arche.NewWorld()
	arche.AddResource(&bare, doorLevel(nil)) // the map without its edits
	_, err = save.LoadInto(data, save.Registry{}, &bare)
	fmt.Println("without the edits:", errors.Is(err, save.ErrGridMismatch))

	loadedWorld := arche.NewWorld()
	lw := &loadedWorld
	arche.AddResource(lw, doorLevel(m.OpenDoors))
	l, err := save.LoadInto(data, save.Registry{}, lw)
	if err != nil {
		fmt.Println(err)
		return
	}
	lflow, ls := doorFrame()
	ls.Initialize(lw)
	if err := l.Restore(lflow); err != nil {
		fmt.Println(err)
		return
	}
	s.Run(w, 120)
	ls.Run(lw, 120)
	fmt.Println("same state 120 frames on:", systems.StateHash(w) == systems.StateHash(lw))
	// Output:
	// saved at frame 119 (120 Updates), open doors [{16 8}]
	// without the edits: true
	// same state 120 frames on: true
}
