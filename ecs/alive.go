package ecs

import arche "github.com/mlange-42/arche/ecs"

// Alive reports whether e is alive in w, as w.Alive does, but answers false for an
// entity of another world whose ID is past w's entity pool, where Arche's Alive panics
// with an index out of range: an entity kept in a program variable across a level
// restart on a new world, or taken from another world. archai checks the entities
// user data names (Intent.Target and Attack, Commands.RemoveEntity, Spawner.Respawn
// and Recycle, Arena.Hold, the debug viewer's selected agent) with it.
func Alive(w *arche.World, e arche.Entity) (alive bool) {
	defer func() {
		if recover() != nil { // Arche indexed past its pool: not an entity of w
			alive = false
		}
	}()
	return w.Alive(e)
}
