package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Agents given one blackboard Store (a components.Blackboard copied from a template, as
// the Brain memory of CauseMemoryShared) read and write each other's facts: a tree that
// greets once per agent, remembering it in its blackboard, greeted once for three
// agents, and Perception's keys of one agent are read by the others (with several
// workers, the writes race). Diagnose said nothing; it counts CauseBlackboardShared now,
// every agent of such a group but the first met.
func TestSharedBlackboardStoreIsCounted(t *testing.T) {
	schema := blackboard.NewSchema()
	greeted := blackboard.MustDeclare[bool](schema, "greeted")
	greetings := 0
	tree, err := bt.Compile("greet", bt.Action("greet", func(c *bt.Context) bt.Status {
		if _, ok := blackboard.Get(c.Blackboard, greeted); !ok {
			greetings++
			blackboard.Set(c.Blackboard, greeted, true)
		}
		return bt.Running
	}))
	require.NoError(t, err)
	w := arche.NewWorld()
	m := generic.NewMap5[components.Brain, components.Blackboard, components.Think, components.Position, components.Intent](&w)
	template := components.Blackboard{Store: schema.NewStore()}
	var agents []arche.Entity
	for range 3 {
		agents = append(agents, m.NewWith(&components.Brain{Tree: tree}, &template, &components.Think{}, &components.Position{}, &components.Intent{}))
	}
	own := m.NewWith(&components.Brain{Tree: tree}, &components.Blackboard{Store: schema.NewStore()}, &components.Think{},
		&components.Position{}, &components.Intent{})
	sc := ecs.NewScheduler(ecs.NewClockSystem(0.05), &systems.Decision{})
	sc.Initialize(&w)
	defer sc.Finalize(&w)
	sc.Run(&w, 4)
	assert.Equal(t, 2, greetings, "the three sharing a store greeted once, the one with its own once")
	r := systems.Diagnose(&w)
	assert.Equal(t, 2, r.Counts[systems.CauseBlackboardShared], "%s", r)
	assert.NotEqual(t, own, r.Examples[systems.CauseBlackboardShared])
	assert.Contains(t, agents[1:], r.Examples[systems.CauseBlackboardShared])
	assert.Equal(t, "blackboard_shared", systems.CauseBlackboardShared.String())
}
