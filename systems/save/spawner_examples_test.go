package save_test

import (
	"encoding/json"
	"fmt"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// gameMeta is what this program keeps in a save's meta: what it holds outside the
// world, here its spawner's seed stream.
type gameMeta struct {
	SpawnerSeed uint64 `json:"spawner_seed"` // systems.Spawner.Seed: the seed of the next agent
}

func wanderFrame() *ecs.Scheduler {
	return ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
}

// spawnAfterLoad is newbie18's seeddemo: 5 wanderers run 100 frames, the world is
// saved, one more wanderer is spawned and all run 100 frames more. It returns the
// unbroken run's hash and the loaded run's, whose spawner is made anew on the loaded
// world with the seed from the meta (keepSeed) or with the program's first seed, 7.
func spawnAfterLoad(keepSeed bool) (unbroken, loaded uint64) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	sp, _ := systems.NewSpawner(w, systems.Wanderer{})
	sp.Seed = 7
	sp.SpawnBatch(5, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: 5.5 + float64(i), Y: 5.5} })
	s := wanderFrame()
	s.Initialize(w)
	s.Run(w, 100)
	data, err := save.Save(w, gameMeta{SpawnerSeed: sp.Seed}) // the spawner's stream, 5 seeds on
	if err != nil {
		panic(err)
	}
	sp.Spawn(r2.Vec{X: 16.5, Y: 16.5}, nil)
	s.Run(w, 100)
	unbroken = systems.StateHash(w)

	// later, or in another process
	l, err := save.Load(data, save.Registry{})
	if err != nil {
		panic(err)
	}
	var meta gameMeta
	if err := json.Unmarshal(l.Meta, &meta); err != nil {
		panic(err)
	}
	arche.AddResource(l.World, grid.New(32, 32))
	s2 := wanderFrame()
	s2.Initialize(l.World)
	if err := l.Restore(); err != nil {
		panic(err)
	}
	sp2, _ := systems.NewSpawner(l.World, systems.Wanderer{})
	sp2.Seed = 7
	if keepSeed {
		sp2.Seed = meta.SpawnerSeed
	}
	sp2.Spawn(r2.Vec{X: 16.5, Y: 16.5}, nil)
	s2.Run(l.World, 100)
	return unbroken, systems.StateHash(l.World)
}

// A Spawner lives outside the world, so its seed stream (Spawner.Seed, the seed of its
// next agent) is not in a save: keep it in the meta and set it on the spawner made
// after the load, and agents spawned after the load get the seeds they got in the
// unbroken run.
func Example_spawnerSeed() {
	unbroken, loaded := spawnAfterLoad(true)
	fmt.Println("seed from the meta, the loaded run ends as the unbroken one:", unbroken == loaded)
	unbroken, loaded = spawnAfterLoad(false)
	fmt.Println("the program's first seed again, it ends as the unbroken one:", unbroken == loaded)
	// Output:
	// seed from the meta, the loaded run ends as the unbroken one: true
	// the program's first seed again, it ends as the unbroken one: false
}
