package systems_test

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
)

// GetOf on an entity of another world (a target kept from a level before a
// restart, say) whose ID lies past this world's entities must answer nil, as for a
// dead entity, not panic indexing Arche's pool.
func TestGetOfEntityOfAnotherWorldIsNil(t *testing.T) {
	big := arche.NewWorld()
	var far arche.Entity
	for range 100 {
		far = big.NewEntity(arche.ComponentID[components.Faction](&big))
	}
	small := arche.NewWorld()
	mine := small.NewEntity(arche.ComponentID[components.Faction](&small))
	a := &systems.Agent{World: &small, Entity: mine}
	assert.NotPanics(t, func() {
		assert.Nil(t, systems.GetOf[components.Faction](a, far))
	})
	assert.NotNil(t, systems.GetOf[components.Faction](a, mine))
}
