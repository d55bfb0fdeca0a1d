package scenario

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// TestCasualtiesLeaveNobodyDown checks that Casualties, which handles
// Combat.Downed rather than reading every Health, still handles every
// casualty: after each frame no agent is left at health 0 or below, and
// agents did fall (so the check saw some).
func TestCasualtiesLeaveNobodyDown(t *testing.T) {
	g, err := NewGuards(Config{Agents: 2000, Seed: 3, Workers: 2})
	require.NoError(t, err)
	sch := ecs.NewScheduler(g.Systems()...)
	sch.Initialize(g.World)
	defer sch.Finalize(g.World)
	health := generic.NewFilter1[components.Health]()
	for f := range 180 {
		sch.Update(g.World)
		q := health.Query(g.World)
		for q.Next() {
			if hp := q.Get(); hp.Current <= 0 {
				e := q.Entity()
				q.Close()
				t.Fatalf("frame %d: %v left at health %v", f, e, hp.Current)
			}
		}
	}
	t.Logf("%d guards and %d intruders fell", g.Casualties.GuardsDown, g.Casualties.IntrudersDown)
	require.Positive(t, g.Casualties.IntrudersDown, "intruders fell")
	require.Positive(t, g.Casualties.GuardsDown, "guards fell")
}
