package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiagnoseDecisionStarved: ten agents thinking at 20 Hz need 200 decisions a
// second; a Budget of 1 a frame at 60 frames a second gives 60, so agents are left
// waiting on every frame and, after 4 s of it, Diagnose counts those waiting under
// CauseDecisionStarved, naming the budget, how many wait, for how long the backlog
// has lasted and the longest wait. A Budget of 4
// (240 a second) keeps up: nothing is counted.
func TestDiagnoseDecisionStarved(t *testing.T) {
	run := func(budget int) (Report, *Decision) {
		w, _ := newWorld(8, 8)
		tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Success }))
		require.NoError(t, err)
		m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
		for i := range 10 {
			e := m.New()
			b, th, p, _ := m.Get(e)
			*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
			*th = components.Think{Interval: 0.05}
			p.X, p.Y = float64(i%8)+0.5, 0.5
		}
		dec := &Decision{Budget: budget}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
		s.Initialize(w)
		t.Cleanup(func() { s.Finalize(w) })
		for range 240 {
			s.Update(w)
		}
		return Diagnose(w), dec
	}
	r, dec := run(1)
	assert.Equal(t, 7, dec.Waiting)
	assert.Equal(t, 7, r.Counts[CauseDecisionStarved], "the agents left waiting")
	assert.Equal(t, 7, r.Total())
	assert.Equal(t, "diagnostics: 10 agents, 7 of them misconfigured (7 findings): decision_starved 7 (e.g. entity 1, "+
		"Decision.Budget 1 a frame never catches up: 7 agents left waiting in its last frame and on every frame for 4.0 s, "+
		"the longest due for 0.100 s; raise the Budget or lower the cadence (a longer Think.Interval, LOD levels))", r.String())

	r, dec = run(4)
	assert.Equal(t, 0, dec.Waiting)
	assert.Zero(t, r.Counts[CauseDecisionStarved])
	assert.Equal(t, 0, r.Total(), r.String())
}
