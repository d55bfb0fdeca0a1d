package steer_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/steer"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent arrives at a point 5 cells off and stops on it: each step, Arrive's
// force is integrated at 60 steps a second (positions in cells, speeds in
// cells/s, forces in cells/s²).
func ExampleArrive() {
	const dt, maxSpeed, maxForce = 1.0 / 60, 4.0, 20.0
	pos, vel, goal := r2.Vec{X: 0, Y: 0}, r2.Vec{}, r2.Vec{X: 5, Y: 0}
	for step := 1; step <= 180; step++ {
		f := steer.Arrive(pos, vel, goal, maxSpeed, maxForce, 1e-3, dt)
		pos, vel = steer.Integrate(pos, vel, f, maxSpeed, maxForce, dt)
		if step%60 == 0 {
			fmt.Printf("%d s: x %.3f, speed %.3f\n", step/60, pos.X, r2.Norm(vel))
		}
	}
	// Output:
	// 1 s: x 3.633, speed 4.000
	// 2 s: x 5.000, speed 0.000
	// 3 s: x 5.000, speed 0.000
}

// A pursuer catches a target walking away at 2 cells/s and keeps pace beside
// it, 0.7 cells off (its own diameter, 0.6, and a gap of 0.1), instead of
// running into it.
func ExampleCatch() {
	const dt, maxSpeed, maxForce = 1.0 / 60, 4.0, 20.0
	pos, vel := r2.Vec{X: 0, Y: 0}, r2.Vec{}
	target, tvel := r2.Vec{X: 6, Y: 0}, r2.Vec{X: 2, Y: 0}
	for step := 1; step <= 300; step++ {
		f := steer.Catch(pos, vel, target, tvel, 0.7, maxSpeed, maxForce, 2, dt)
		pos, vel = steer.Integrate(pos, vel, f, maxSpeed, maxForce, dt)
		target = r2.Add(target, r2.Scale(dt, tvel))
		if step%100 == 0 {
			fmt.Printf("%.2f s: %.3f cells behind, speed %.3f\n", float64(step)*dt, target.X-pos.X, r2.Norm(vel))
		}
	}
	// Output:
	// 1.67 s: 3.033 cells behind, speed 4.000
	// 3.33 s: 0.700 cells behind, speed 2.000
	// 5.00 s: 0.700 cells behind, speed 2.000
}
