package systems

import (
	"io"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A program giving each agent a schema of its own (or reloading its trees, which makes
// new schemas) replaces its agents over a long run. The Diagnostics system learnt each
// schema's perception keys once and kept them keyed by schema, forever: every schema
// ever made stayed alive in it. A check now forgets the schemas no agent holds, and
// still counts the agents of a schema with a perception key of another type.
func TestDiagnosticsForgetsSchemasNoAgentHolds(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	agents := generic.NewMap2[components.Perception, components.Blackboard](w)
	diag := &Diagnostics{Out: io.Discard}
	diag.Initialize(w)
	defer diag.Finalize(w)
	const crowd = 8
	var live []arche.Entity
	for round := 0; round < 50; round++ {
		for _, e := range live {
			w.RemoveEntity(e)
		}
		live = live[:0]
		for i := 0; i < crowd; i++ {
			s := blackboard.NewSchema()
			if i%2 == 0 {
				blackboard.MustDeclare[int](s, KeyTargetVisible) // Perception writes a bool
			} else {
				DeclarePerceptionKeys(s)
			}
			live = append(live, agents.NewWith(&components.Perception{}, &components.Blackboard{Store: s.NewStore()}))
		}
		diag.Check(w)
		require.Equal(t, crowd/2, diag.Report.Counts[CausePerceptionKeyWrongType], "round %d: %s", round, diag.Report)
		assert.LessOrEqual(t, len(diag.d.perKeys.known.known), crowd, "round %d: the schemas of removed agents are kept", round)
	}
	for _, e := range live {
		w.RemoveEntity(e)
	}
	diag.Check(w)
	assert.Zero(t, diag.Report.Counts[CausePerceptionKeyWrongType])
	assert.Empty(t, diag.d.perKeys.known.known, "no agent left: no schema kept")

	// a schema shared by a crowd is learnt once and kept: the check allocates nothing
	s := blackboard.NewSchema()
	blackboard.MustDeclare[int](s, KeyTargetVisible)
	for i := 0; i < crowd; i++ {
		agents.NewWith(&components.Perception{}, &components.Blackboard{Store: s.NewStore()})
	}
	diag.Check(w)
	assert.Equal(t, crowd, diag.Report.Counts[CausePerceptionKeyWrongType])
	assert.Zero(t, testing.AllocsPerRun(10, func() { diag.Check(w) }), "in steady state a check allocates nothing")
	assert.Len(t, diag.d.perKeys.known.known, 1)
}
