package save_test

import (
	"bytes"
	"compress/gzip"
	"fmt"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// A save streamed through compress/gzip (into a file, a connection; here a
// bytes.Buffer) and loaded back from it, neither side holding the JSON whole:
// SaveTo writes into the gzip.Writer as it walks the world, and LoadFrom reads from
// the gzip.Reader as it builds the new one. Close the gzip.Writer after SaveTo: its
// Close writes the end of the stream, and can fail.
func ExampleSaveTo() {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	sp, _ := systems.NewSpawner(w, systems.Wanderer{})
	sp.SpawnBatch(500, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: 0.5 + float64(i%30), Y: 0.5 + float64(i/30)}
	})
	s := wanderFrame()
	s.Initialize(w)
	s.Run(w, 60)

	var file bytes.Buffer // an *os.File, a net.Conn
	zw := gzip.NewWriter(&file)
	if err := save.SaveTo(zw, w, gameMeta{SpawnerSeed: sp.Seed}); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	plain, _ := save.Save(w, gameMeta{SpawnerSeed: sp.Seed})
	fmt.Println("gzipped to less than half the JSON:", file.Len() < len(plain)/2)

	// later, or in another process
	zr, err := gzip.NewReader(&file)
	if err != nil {
		panic(err)
	}
	l, err := save.LoadFrom(zr, save.Registry{})
	if err != nil {
		panic(err)
	}
	arche.AddResource(l.World, grid.New(32, 32))
	s2 := wanderFrame()
	s2.Initialize(l.World)
	if err := l.Restore(); err != nil {
		panic(err)
	}
	fmt.Println("the same world:", systems.StateHash(l.World) == systems.StateHash(w))
	s.Run(w, 60)
	s2.Run(l.World, 60)
	fmt.Println("60 frames on, still the same:", systems.StateHash(l.World) == systems.StateHash(w))
	// Output:
	// gzipped to less than half the JSON: true
	// the same world: true
	// 60 frames on, still the same: true
}
