package ecs

import (
	arche "github.com/mlange-42/arche/ecs"
)

// Commands buffers structural changes to a world so a system can request them
// while one of its queries is open (Arche panics on a structural change while
// the world is locked). Call [Commands.Apply] after the query loop.
//
// Commands keeps its buffers between frames: once they have grown, queuing
// removals allocates nothing. A Commands value is not safe for concurrent use.
type Commands struct {
	ops []command
}

type command struct {
	entity arche.Entity
	fn     func(w *arche.World)
}

// RemoveEntity queues the removal of e. An entity that is already dead when the
// commands are applied is skipped, and so is one of another world (see [Alive]).
//
// Important: Arche v0.15.3 moves another entity into a removed one's place with a byte
// copy the garbage collector does not see, so removing entities whose archetype has
// components holding slices or pointers (archai's Path, Brain, Blackboard, ...) can
// corrupt the moved entity's buffers if a collection runs meanwhile. Replace agents in
// place with systems.Spawner.Respawn instead (see the README's "Removing agents").
func (c *Commands) RemoveEntity(e arche.Entity) {
	c.ops = append(c.ops, command{entity: e})
}

// Run queues fn to be called with the world when the commands are applied, for
// any other structural change (creating entities, adding or removing components).
func (c *Commands) Run(fn func(w *arche.World)) {
	c.ops = append(c.ops, command{fn: fn})
}

// Len returns the number of queued commands.
func (c *Commands) Len() int { return len(c.ops) }

// Apply performs the queued commands in the order they were queued and empties
// the buffer. Commands queued while applying (by a Run function) are applied
// too, after the ones before them.
//
// Panics if the world is locked (a query is still open).
func (c *Commands) Apply(w *arche.World) {
	if len(c.ops) == 0 {
		return
	}
	if w.IsLocked() {
		panic("ecs: Commands.Apply while the world is locked by an open query")
	}
	for i := 0; i < len(c.ops); i++ {
		op := c.ops[i]
		c.ops[i] = command{}
		if op.fn != nil {
			op.fn(w)
		} else if Alive(w, op.entity) {
			w.RemoveEntity(op.entity)
		}
	}
	c.ops = c.ops[:0]
}
