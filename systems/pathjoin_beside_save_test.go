package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadedPathQueueKeepsItsBesideCounts: a PathQueue with Overlap counts the answers
// its join could not write because a system between them cancelled the requests
// (Report.RequestsChangedBeside, one finding). The count is saved
// (PathQueueState.ChangedBeside, EditedBeside), so Diagnose after the load reports the
// unbroken run's, where it used to report none: the misuse went unreported until it
// happened again. A file without the fields reads them as 0.
func TestLoadedPathQueueKeepsItsBesideCounts(t *testing.T) {
	c := newCrowd(t, 300, 7, 2, false)
	c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = 2, true, 2000
	s := ecs.NewScheduler(c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, &pathCanceller{}, c.PathQueue.Join(),
		c.Combat, c.Respawn, c.PathFollow, c.Steer, c.Movement)
	s.Initialize(c.World)
	defer s.Finalize(c.World)
	s.Run(c.World, 30)
	want := systems.Diagnose(c.World)
	require.Positive(t, want.RequestsChangedBeside)
	raw, err := c.PathQueue.SaveState()
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"changed_beside":`)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(c.Grid.Width(), c.Grid.Height()))
	pq := &systems.PathQueue{}
	pq.Initialize(w)
	defer pq.Finalize(w)
	require.NoError(t, pq.LoadState(raw))
	got := systems.Diagnose(w)
	assert.Equal(t, want.RequestsChangedBeside, got.RequestsChangedBeside)
	assert.Contains(t, got.String(), "path answers dropped at a PathJoin")
	back, err := pq.SaveState()
	require.NoError(t, err)
	assert.Contains(t, string(back), `"changed_beside":`)

	err = pq.LoadState([]byte(`{"next_seq":1,"queued":[],"expanded":0,"changed_beside":-1}`))
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "changed_beside -1")
	require.NoError(t, pq.LoadState([]byte(`{"next_seq":1,"queued":[],"expanded":0}`)), "a file from before the fields")
	assert.Zero(t, systems.Diagnose(w).RequestsChangedBeside)
}

// Review finding: a state whose totals are negative was refused only after its
// edited_beside and changed_beside were taken, so the queue, left empty as LoadState
// says, went on reporting the refused file's counts (Diagnose: 5 grid edits beside a
// search, 7 answers dropped). The totals are checked with the other counts, before
// anything is taken.
func TestPathQueueStateRefusedForItsTotalsTakesNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	pq := &systems.PathQueue{}
	pq.Initialize(w)
	defer pq.Finalize(w)
	err := pq.LoadState([]byte(`{"next_seq":1,"queued":[],"expanded":0,"edited_beside":5,"changed_beside":7,"totals":{"served":-1}}`))
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "totals")
	r := systems.Diagnose(w)
	assert.Zero(t, r.GridEditedBeside, "%s", r)
	assert.Zero(t, r.RequestsChangedBeside, "%s", r)
	assert.Zero(t, pq.TotalServed)
}
