package ecs_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// Alive is w.Alive for w's entities, and false (not Arche's index-out-of-range panic)
// for an entity whose ID is past w's pool.
func TestAliveOfAnEntityOfAnotherWorld(t *testing.T) {
	big, small := arche.NewWorld(), arche.NewWorld()
	var far arche.Entity
	for range 100 {
		far = big.NewEntity()
	}
	mine := small.NewEntity()
	gone := small.NewEntity()
	small.RemoveEntity(gone)
	assert.True(t, ecs.Alive(&small, mine))
	assert.False(t, ecs.Alive(&small, gone))
	assert.False(t, ecs.Alive(&small, arche.Entity{}))
	assert.False(t, ecs.Alive(&small, far))
	assert.Panics(t, func() { small.Alive(far) }, "Arche's own Alive panics there")
	assert.True(t, ecs.Alive(&big, far))
}
