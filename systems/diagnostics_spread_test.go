package systems

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// spreadWorld returns a world of n well set-up agents among which the agents of
// causeCases (those of a grid with walls and every system installed), each
// spoilt its way, are spread evenly: a check of it counts most causes, with
// examples in every slice of the motion pass.
func spreadWorld(t *testing.T, n int) *arche.World {
	t.Helper()
	w, g := newWorld(10, 10)
	g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
	pretendInstalled(w, ^systemSet(0))
	var cases []causeCase
	for _, c := range causeCases(t) {
		if !c.open && c.without == 0 && len(c.want) > 0 {
			cases = append(cases, c)
		}
	}
	every := max(1, n/len(cases))
	for i := range n {
		e := goodAgent(t, w)
		if i%every == every/2 && i/every < len(cases) {
			func() {
				defer func() { _ = recover() }() // a spoil that does not fit beside the others leaves its agent as it got
				cases[i/every].spoil(w, e)
			}()
		}
	}
	return w
}

// slicePasses makes every sliced pass of s (passSlice) take cut entities a
// stage, so a small world has its passes in several slices.
func slicePasses(s *Diagnostics, cut int) {
	for p, c := range passSlice {
		if c > 0 {
			s.d.passCut[p] = cut
		}
	}
}

// TestDiagnosticsSpreadMatchesOneCheck: on a world that does not change, a check
// spread over 40 frames publishes at the 40th exactly the Report of Diagnose and of
// a one-frame check (Spread 1): counts, examples and their notes, Misconfigured,
// Agents; nothing before; and it writes the same line. Its passes after the
// motion pass are sliced too (by 1,000 entities here, 7 slices each).
func TestDiagnosticsSpreadMatchesOneCheck(t *testing.T) {
	w := spreadWorld(t, 3*diagnoseSlice+100)
	var outSpread, outWhole bytes.Buffer
	spread := &Diagnostics{Every: 50, Spread: 40, Out: &outSpread}
	whole := &Diagnostics{Every: 50, Spread: 1, Out: &outWhole}
	spread.Initialize(w)
	slicePasses(spread, 1000)
	whole.Initialize(w)
	whole.Update(w)
	require.Equal(t, 1, whole.Checks)
	for f := range 39 {
		spread.Update(w)
		require.Zero(t, spread.Checks, "frame %d: published before its round ended", f)
	}
	spread.Update(w)
	require.Equal(t, 1, spread.Checks, "published at the round's 40th frame")
	one := Diagnose(w)
	assert.Greater(t, one.Total(), 40, "%s", one)
	assert.Equal(t, 7, spread.d.passStages[passMemories], "the Brains' memories in 7 slices")
	assert.Equal(t, 7, spread.d.passStages[passThinks])
	assert.Positive(t, one.Counts[CauseMemoryShared], "%s", one)
	assert.Equal(t, one.Counts, spread.Report.Counts)
	assert.Equal(t, one.Examples, spread.Report.Examples)
	assert.Equal(t, one.Misconfigured, spread.Report.Misconfigured)
	assert.Equal(t, one.Agents, spread.Report.Agents)
	assert.Equal(t, one.String(), spread.Report.String())
	sameReport(t, whole.Report, spread.Report)
	assert.Equal(t, strings.Replace(outWhole.String(), "archai: frame 0:", "archai: frame 39:", 1), outSpread.String(),
		"the line written, at the frame the round ends")
	assert.NotEmpty(t, outSpread.String())

	// the next period: the same again, without allocating
	for range 10 + 40 {
		spread.Update(w)
	}
	assert.Equal(t, 2, spread.Checks)
	sameReport(t, whole.Report, spread.Report)
	allocs := testing.AllocsPerRun(2, func() {
		for range 50 {
			spread.Update(w)
		}
	})
	assert.Zero(t, allocs, "a round of 50 frames")
	assert.Equal(t, 5, spread.Checks)
}

// TestDiagnosticsSpreadByDefaultFromSpreadAgents: with Spread 0 a world of fewer
// than DiagnoseSpreadAgents entities is checked whole in its period's first frame;
// one of as many is spread over its stages, one a frame (10 slices of the motion
// pass and the other passes), and reports as Diagnose does.
func TestDiagnosticsSpreadByDefaultFromSpreadAgents(t *testing.T) {
	for _, n := range []int{DiagnoseSpreadAgents - 1, DiagnoseSpreadAgents} {
		w, _ := newWorld(10, 10)
		for range n {
			e := w.NewEntity()
			put(w, e, components.Position{})
			put(w, e, components.Steering{}) // steer_incomplete: no Velocity, Kinematics, ...
		}
		s := &Diagnostics{Out: io.Discard}
		s.Initialize(w)
		s.Update(w)
		if n < DiagnoseSpreadAgents {
			assert.Equal(t, 1, s.Checks, "%d entities: whole in the first frame", n)
			assert.Equal(t, n, s.Report.Counts[CauseSteerIncomplete])
			continue
		}
		stages := (n+diagnoseSlice-1)/diagnoseSlice + numPasses
		for range stages - 2 {
			s.Update(w)
		}
		assert.Zero(t, s.Checks, "%d entities: %d stages, one a frame", n, stages)
		s.Update(w)
		assert.Equal(t, 1, s.Checks)
		sameReport(t, Diagnose(w), s.Report)
		assert.Equal(t, n, s.Report.Counts[CauseSteerIncomplete])
	}
}

// TestDiagnosticsSpreadNegativeIsWhole: a negative Spread is taken as 1.
func TestDiagnosticsSpreadNegativeIsWhole(t *testing.T) {
	w := spreadWorld(t, diagnoseSlice+10)
	s := &Diagnostics{Every: 10, Spread: -3, Out: io.Discard}
	s.Initialize(w)
	s.Update(w)
	assert.Equal(t, 1, s.Checks)
	sameReport(t, Diagnose(w), s.Report)
}

// TestDiagnosticsSpreadRestartsAfterCheckAndLoad: a Check in the middle of a
// round, and a load of a state saved in the middle of one, begin the round again
// at the next Update; it still ends, and publishes, at the frame the unbroken
// round does, with the same Report and line on a world that did not change.
func TestDiagnosticsSpreadRestartsAfterCheckAndLoad(t *testing.T) {
	w := spreadWorld(t, 2*diagnoseSlice+10)
	var outFull bytes.Buffer
	full := &Diagnostics{Every: 30, Spread: 20, Out: &outFull}
	full.Initialize(w)
	slicePasses(full, 1000)
	for range 20 {
		full.Update(w)
	}
	require.Equal(t, 1, full.Checks)
	for range 10 + 15 { // into the second period's round
		full.Update(w)
	}
	raw, err := full.SaveState()
	require.NoError(t, err)
	atSave := outFull.Len()
	var st DiagnosticsState
	require.NoError(t, json.Unmarshal(raw, &st))
	require.NotNil(t, st.RoundEnd, "saved mid-round: %s", raw)
	assert.Equal(t, 49, *st.RoundEnd, "the round of frames 30 to 49")
	for range 4 {
		full.Update(w)
	}
	require.Equal(t, 1, full.Checks, "frame 49 not run yet")
	full.Update(w)
	require.Equal(t, 2, full.Checks, "published at frame 49")
	fullLines := outFull.String()[atSave:]
	full.Finalize(w)

	// loaded at frame 45: begun again, ended at frame 49 all the same
	var outLoaded bytes.Buffer
	loaded := &Diagnostics{Every: 30, Spread: 20, Out: &outLoaded}
	loaded.Initialize(w)
	slicePasses(loaded, 1000)
	require.NoError(t, loaded.LoadState(raw))
	for range 4 {
		loaded.Update(w)
	}
	assert.Equal(t, 1, loaded.Checks)
	loaded.Update(w)
	assert.Equal(t, 2, loaded.Checks)
	sameReport(t, full.Report, loaded.Report)
	assert.Equal(t, fullLines, outLoaded.String(), "the lines after the save")
	loaded.Finalize(w)

	// a Check in the middle of a round publishes its own Report and the round
	// begins again, to end at its frame
	c := &Diagnostics{Every: 30, Spread: 20, Out: io.Discard}
	c.Initialize(w)
	slicePasses(c, 1000)
	for range 10 {
		c.Update(w)
	}
	sameReport(t, full.Report, c.Check(w))
	assert.Equal(t, 1, c.Checks)
	for range 9 {
		c.Update(w)
	}
	assert.Equal(t, 1, c.Checks, "frame 19 not run yet")
	c.Update(w)
	assert.Equal(t, 2, c.Checks, "the round begun again ends at frame 19")
	sameReport(t, full.Report, c.Report)

	// a round_end before the frame is refused
	bad := &Diagnostics{Every: 30}
	bad.Initialize(w)
	assert.ErrorIs(t, bad.LoadState(json.RawMessage(`{"frame":45,"round_end":44}`)), ErrOutOfDomain)
}

// TestDiagnosticsSpreadSurvivesRemovals: entities removed in the middle of a
// round (a moving world) shift Arche's query order under the passes' slices
// (the motion pass's and the others', by 1,000 entities here); the round still
// ends and counts no more agents than there were.
func TestDiagnosticsSpreadSurvivesRemovals(t *testing.T) {
	w := spreadWorld(t, 3*diagnoseSlice)
	s := &Diagnostics{Every: 40, Spread: 40, Out: io.Discard}
	s.Initialize(w)
	slicePasses(s, 1000)
	s.Update(w)
	s.Update(w)
	var gone []arche.Entity
	q := w.Query(arche.All(arche.ComponentID[components.Position](w)))
	for i := 0; q.Next(); i++ {
		if i%3 == 0 {
			gone = append(gone, q.Entity())
		}
	}
	for _, e := range gone {
		w.RemoveEntity(e)
	}
	for range 38 {
		s.Update(w)
	}
	assert.Equal(t, 1, s.Checks)
	assert.LessOrEqual(t, s.Report.Agents, 3*diagnoseSlice)
	assert.LessOrEqual(t, s.Report.Misconfigured, s.Report.Agents)
}

// sameReport asserts that a and b are the same report, field by field (unexported
// ones too: the examples' notes), NaN equal to NaN.
func sameReport(t *testing.T, a, b Report) {
	t.Helper()
	assert.Equal(t, fmt.Sprintf("%+v", a), fmt.Sprintf("%+v", b))
}

// TestDiagnosticsSpreadPathsQueuedAfterTheRoundBegan: paths requested after a spread
// round began, waiting in the PathQueue when a later slice of the motion pass reads
// them, are queued, not path_not_queued (the round used to compare them with the
// queue's requests as of its first frame: 11,068 of a colony's 20,041 agents
// reported at its first round, none at the next).
func TestDiagnosticsSpreadPathsQueuedAfterTheRoundBegan(t *testing.T) {
	w, g := newWorld(64, 64)
	for y := range 62 {
		g.SetCost(grid.Cell{X: 61, Y: int32(y)}, grid.Blocked) // the goal behind a wall: a search each
	}
	movers, err := NewSpawner(w, Mover{})
	require.NoError(t, err)
	n := DiagnoseSpreadAgents + 10
	movers.SpawnBatch(n, func(k int, a *Spawned) {
		a.Position.Vec = r2.Vec{X: float64(k%55) + 2.5, Y: float64(k/55%60) + 2.5}
	})
	diag := &Diagnostics{Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{Workers: 1},
		&PathQueue{Budget: 1}, &PathFollow{Workers: 1}, &Steer{Workers: 1}, &Movement{Workers: 1}, diag)
	require.NoError(t, s.InitializeChecked(w))
	s.Update(w) // the round begins, no path asked for yet
	q := generic.NewFilter1[components.Intent]().Query(w)
	for q.Next() {
		in := q.Get()
		in.Move, in.Goal = true, r2.Vec{X: 62.5, Y: 62.5}
	}
	for f := 1; diag.Checks == 0 && f < 60; f++ {
		s.Update(w)
	}
	require.Equal(t, 1, diag.Checks, "the round ended within its period")
	whole := Diagnose(w)
	require.Zero(t, whole.Total(), "%s", whole)
	waiting := 0
	pq := generic.NewFilter1[components.Path]().Query(w)
	for pq.Next() {
		if p := pq.Get(); !p.Want && p.State == components.PathPending {
			waiting++
		}
	}
	require.Greater(t, waiting, n/2, "most paths still wait in the queue")
	assert.Zero(t, diag.Report.Total(), "%s", diag.Report)
}

// TestDiagnosticsSpreadReadsTheClockEachSlice: each slice of the motion pass is
// as of its frame: the flow followers' runs are judged by the clock then
// (flowLast, as flowBlocked reads it), not by the clock at the round's begin.
func TestDiagnosticsSpreadReadsTheClockEachSlice(t *testing.T) {
	w, _ := newWorld(10, 10)
	clock := &ecs.Clock{DT: 1.0 / 60}
	arche.AddResource(w, clock)
	for range diagnoseSlice + 1 {
		put(w, w.NewEntity(), components.Position{})
	}
	var d diagnoser
	d.init()
	var r Report
	n := d.begin(w, &r)
	d.stage(w, &r, 0)
	assert.Zero(t, d.held.flowLast, "at time 0 no run is BlockedSpan old")
	clock.Time = 100
	d.stage(w, &r, 1)
	assert.Equal(t, flowLastCheck(100), d.held.flowLast, "the second slice, at time 100")
	assert.Positive(t, d.held.flowLast)
	for i := 2; i < n; i++ {
		d.stage(w, &r, i)
	}
	assert.Equal(t, diagnoseSlice+1, r.Agents)
}

// TestDiagnosticsSpreadSlicesEveryEntityOnce: 3,000 agents whose Brains share
// one node memory, without an Intent, with a Think of a negative Interval,
// checked by a round whose sliced passes take 1,000 entities a stage: each
// sliced pass counts every agent once, as Diagnose does (memory_shared all
// but the first: the memories met are kept across slices).
func TestDiagnosticsSpreadSlicesEveryEntityOnce(t *testing.T) {
	w, _ := newWorld(10, 10)
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	keepAlive = append(keepAlive, tree)
	mem := tree.NewMemory()
	const n = 3000
	for range n {
		e := w.NewEntity()
		put(w, e, components.Position{})
		put(w, e, components.Brain{Tree: tree, Memory: mem})
		put(w, e, components.Think{Interval: -1})
	}
	s := &Diagnostics{Every: 50, Spread: 40, Out: io.Discard}
	s.Initialize(w)
	slicePasses(s, 1000)
	for range 40 {
		s.Update(w)
	}
	require.Equal(t, 1, s.Checks)
	assert.Equal(t, 3, s.d.passStages[passTreeDecisions])
	one := Diagnose(w)
	sameReport(t, one, s.Report)
	assert.Equal(t, n-1, s.Report.Counts[CauseMemoryShared])
	assert.Equal(t, n, s.Report.Counts[CauseDecisionIncomplete])
	assert.Equal(t, n, s.Report.Counts[CauseThinkInvalid])
}
