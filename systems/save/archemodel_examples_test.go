package save_test

import (
	"encoding/json"
	"fmt"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/resource"
	"github.com/mlange-42/arche-model/system"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// modelMeta is what an arche-model program keeps in a save's meta: the Model's Tick,
// which arche-model's Initialize sets to 0 (archai knows nothing of arche-model, so
// the file holds only archai's Clock).
type modelMeta struct {
	Tick int64 `json:"tick"`
}

// modelSaver is a program's "save on key press" system on an arche-model Model: it
// saves in the tick given.
type modelSaver struct {
	At  int64
	PQ  *systems.PathQueue
	Err error
}

func (s *modelSaver) Initialize(*arche.World) {}
func (s *modelSaver) Finalize(*arche.World)   {}
func (s *modelSaver) Update(w *arche.World) {
	if ecs.Resource[resource.Tick](w).Tick == s.At {
		_, s.Err = save.Save(w, nil, s.PQ)
	}
}

// corridorMap is a 24×24 map with a wall across it, a gap at its east end: paths
// from the south to the north go round it.
func corridorMap() *grid.Grid {
	g := grid.New(24, 24)
	for x := range 20 {
		g.SetCost(grid.Cell{X: int32(x), Y: 12}, grid.Blocked)
	}
	return g
}

// newModel builds an arche-model Model with archai's movement pipeline (the same
// systems values as under ecs.Scheduler) and a FixedTermination of steps ticks; with
// a saver, it runs between the PathQueue and PathFollow (mid-frame).
func newModel(steps int64, sv *modelSaver) (*model.Model, *systems.PathQueue) {
	m := model.New()
	arche.AddResource(&m.World, corridorMap())
	pq := &systems.PathQueue{Budget: 200} // requests wait across frames: the queue has state to save
	m.AddSystem(ecs.NewClockSystem(1.0 / 60))
	m.AddSystem(&systems.Spatial{})
	m.AddSystem(pq)
	if sv != nil {
		sv.PQ = pq
		m.AddSystem(sv)
	}
	m.AddSystem(&systems.PathFollow{})
	m.AddSystem(&systems.Steer{})
	m.AddSystem(&systems.Movement{})
	m.AddSystem(&system.FixedTermination{Steps: steps})
	return m, pq
}

// spawnCrowd gives the model 8 movers heading from the south of the wall to the north.
func spawnCrowd(m *model.Model) {
	sp, err := systems.NewSpawner(&m.World, systems.Mover{})
	if err != nil {
		panic(err)
	}
	sp.SpawnBatch(8, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: 2.5 + 2*float64(i), Y: 20.5}
		a.MoveTo(r2.Vec{X: 2.5 + float64(i), Y: 3.5})
	})
}

// On an arche-model Model, archai's systems are added with AddSystem unchanged, and
// the world is m.World: save with save.Save(&m.World, ...) between two m.Update calls
// (or from a system scheduled before or after all of archai's), and load into a new
// Model's world with save.LoadInto, then m.Initialize, then Loaded.Restore. A save
// from a system between two of archai's is refused with ErrState, naming one that
// has run this frame and one that has not. arche-model's Tick resource (and the
// counters of its FixedTermination and CallbackTermination systems) start from 0 at
// m.Initialize: keep the Tick in the meta, set it after m.Initialize, and give a
// FixedTermination the steps left.
func ExampleLoadInto_archeModel() {
	const steps = 240

	// the unbroken run: 240 ticks
	m, _ := newModel(steps, nil)
	spawnCrowd(m)
	m.Initialize()
	for m.Update() {
	}
	unbroken := systems.StateHash(&m.World)
	m.Finalize()

	// a save from a system between the PathQueue and PathFollow: refused
	sv := &modelSaver{At: 90}
	m, _ = newModel(steps, sv)
	spawnCrowd(m)
	m.Initialize()
	for m.Update() {
	}
	fmt.Println("mid-frame:", sv.Err)
	m.Finalize()

	// a save between two m.Update calls, at tick 90
	m, pq := newModel(steps, nil)
	spawnCrowd(m)
	m.Initialize()
	for range 90 {
		m.Update()
	}
	tick := ecs.Resource[resource.Tick](&m.World).Tick
	data, err := save.Save(&m.World, modelMeta{Tick: tick}, pq)
	if err != nil {
		panic(err)
	}
	m.Finalize()

	// later, or in another process: a new Model, the file loaded into its world
	var meta modelMeta
	raw, err := save.ReadMeta(data)
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		panic(err)
	}
	m, pq = newModel(steps-meta.Tick, nil) // FixedTermination counts from 0: the steps left
	l, err := save.LoadInto(data, save.Registry{}, &m.World)
	if err != nil {
		panic(err)
	}
	m.Initialize() // sets the Tick to 0
	if err := l.Restore(pq); err != nil {
		panic(err)
	}
	ecs.Resource[resource.Tick](&m.World).Tick = meta.Tick
	for m.Update() {
	}
	fmt.Println("loaded at tick", meta.Tick, "ends at tick", ecs.Resource[resource.Tick](&m.World).Tick,
		"clock frame", ecs.ClockOf(&m.World).Frame)
	fmt.Println("as the unbroken run:", systems.StateHash(&m.World) == unbroken)
	m.Finalize()
	// Output:
	// mid-frame: save: system state does not match: called between two systems of a frame (pathqueue has run this frame, pathfollow has not), so the file would hold a frame half done and the loaded run would not continue as this one; save between frames: from a system scheduled first or last, or between two Updates of the scheduler (ecs.Scheduler.Update, arche-model's Model.Update)
	// loaded at tick 90 ends at tick 240 clock frame 239
	// as the unbroken run: true
}
