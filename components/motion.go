package components

import (
	"gonum.org/v1/gonum/spatial/r2"
)

// Position is an agent's position in cells.
type Position struct {
	r2.Vec
}

// Velocity is an agent's velocity in cells per second.
type Velocity struct {
	r2.Vec
}

// Kinematics are an agent's movement limits.
type Kinematics struct {
	MaxSpeed float64 // cells per second
	MaxForce float64 // cells per second² (the largest steering acceleration)
	Radius   float64 // cells; the separation radius is a multiple of it
}

// Steering is the force the steering system computed this frame, integrated by
// the movement system.
type Steering struct {
	Force r2.Vec // cells per second²
}

// SteeringWeights tune how the steering system mixes behaviors.
type SteeringWeights struct {
	Separation       float64 // weight of separation against the move force; 0 disables it
	SeparationRadius float64 // cells; neighbours closer than this push the agent away
}
