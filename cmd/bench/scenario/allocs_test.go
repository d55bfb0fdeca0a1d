package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/alloctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGuardsWarmFrameAllocatesNothing: once warm, the guard scenario's
// perception, decision, path queue, combat, casualties and path following
// allocate nothing in a frame (each measured alone, the frame run in order
// around it), with 2 workers.
func TestGuardsWarmFrameAllocatesNothing(t *testing.T) {
	sc, err := NewGuards(Config{Agents: 1500, Seed: 4, Workers: 2})
	require.NoError(t, err)
	sys := sc.Systems()
	s := ecs.NewScheduler(sys...)
	s.Initialize(sc.World)
	t.Cleanup(func() { s.Finalize(sc.World) })
	s.Run(sc.World, 400) // buffers and paths grow to what the fight needs
	measured := map[ecs.System]string{sc.Perception: "perception", sc.Decision: "decision", sc.PathQueue: "pathqueue",
		sc.Combat: "combat", sc.PathJoin: "pathjoin", sc.Casualties: "casualties", sc.PathFollow: "pathfollow"}
	// testing.AllocsPerRun would run a system twice in a frame (its warm-up
	// run), the second time with nothing left to do: count around one run.
	// alloctest counts archai's objects, not the runtime's parking records
	// for the workers' hand-offs nor other goroutines' objects.
	m := alloctest.Start(t)
	total := map[string]*alloctest.Window{}
	for _, name := range measured {
		total[name] = &alloctest.Window{}
	}
	for range 20 {
		for _, sy := range sys {
			name, ok := measured[sy]
			if !ok {
				sy.Update(sc.World)
				continue
			}
			total[name].Add(m.Count(func() { sy.Update(sc.World) }))
		}
	}
	assert.Positive(t, sc.Decision.Thought, "agents think in the measured frames")
	assert.Len(t, total, len(measured))
	for name, w := range total {
		if w.Mallocs > 0 {
			t.Logf("%s: the process allocated %d objects in its windows, archai %d", name, w.Mallocs, w.Objects)
		}
		assert.Zero(t, w.Objects, "%s allocates in a warm frame: %s", name, w)
	}
}
