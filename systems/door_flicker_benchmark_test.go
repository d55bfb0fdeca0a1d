package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// BenchmarkFlowFieldDoorToggle: FlowField's frames (whole-grid field built
// at once) for 10,000 followers on a 256² map cut by a wall with a door of 8
// cells, the door toggled every frame ("every-frame": a field rebuilt and
// every follower sampled each frame, the cost of one edit each frame), every
// third frame ("every-3-frames": an op is the three frames after an edit,
// what one edit costs in all) or never ("still"). ns/op is one frame, or
// three for every-3-frames.
func BenchmarkFlowFieldDoorToggle(b *testing.B) {
	for _, every := range []int{1, 3, 0} {
		name := map[int]string{1: "every-frame", 3: "every-3-frames", 0: "still"}[every]
		toggle := every > 0
		b.Run(name, func(b *testing.B) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(256, 256)
			for y := int32(0); y < 256; y++ {
				if y < 124 || y > 131 {
					g.SetCost(grid.Cell{X: 128, Y: y}, grid.Blocked)
				}
			}
			arche.AddResource(w, g)
			goal := grid.Cell{X: 250, Y: 128}
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
			if err != nil {
				b.Fatal(err)
			}
			for i := range 10000 {
				sp.Spawn(r2.Vec{X: 1.5 + float64(i%120), Y: 30.5 + float64(i/120)*2}, nil)
			}
			ff := &systems.FlowField{Workers: 1}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), ff)
			s.Initialize(w)
			defer s.Finalize(w)
			for range 5 {
				s.Update(w)
			}
			open := true
			b.ResetTimer()
			for range b.N {
				if toggle {
					open = !open
					c := float32(grid.Blocked)
					if open {
						c = 1
					}
					for y := int32(124); y <= 131; y++ {
						g.SetCost(grid.Cell{X: 128, Y: y}, c)
					}
				}
				for range max(every, 1) {
					s.Update(w)
				}
			}
			_ = components.FlowFollower{}
		})
	}
}
