package scenario

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGuardsDiagnosticsSpreadSameWithAnyWorkers: the guard scenario at 24,000
// agents (over systems.DiagnoseSpreadAgents) with a Diagnostics of the default
// Spread: its check is spread over frames (no Report after the first frame, one
// at frame 45, its 46th), and with 1 or 2 workers the Report, and the lines
// written, are the same.
func TestGuardsDiagnosticsSpreadSameWithAnyWorkers(t *testing.T) {
	var reports, lines [2]string
	for i, workers := range []int{1, 2} {
		g, err := NewGuards(Config{Agents: 24000, Seed: 3, Workers: workers})
		require.NoError(t, err)
		var out bytes.Buffer
		d := &systems.Diagnostics{Out: &out}
		sch := ecs.NewScheduler(append(g.Systems(), d)...)
		sch.Initialize(g.World)
		sch.Run(g.World, 1)
		assert.Zero(t, d.Checks, "%d workers: spread, nothing published after the first frame", workers)
		sch.Run(g.World, 44)
		assert.Zero(t, d.Checks, "%d workers: 46 stages (12 slices of the motion pass, 30 passes, 4 more slices of theirs), one a frame", workers)
		sch.Run(g.World, 1)
		assert.Equal(t, 1, d.Checks, "%d workers: the round ends at frame 45", workers)
		assert.Equal(t, 24000, d.Report.Agents)
		reports[i], lines[i] = fmt.Sprintf("%+v", d.Report), out.String()
		sch.Finalize(g.World)
	}
	assert.Equal(t, reports[0], reports[1])
	assert.Equal(t, lines[0], lines[1])
}
