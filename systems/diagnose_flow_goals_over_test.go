package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// flowGoalsScene runs a FlowField (MaxFields 4) for frames frames over 40
// followers on a 20×20 grid, follower i heading for goal cell goal(i), and
// returns Diagnose's report and the FlowField.
func flowGoalsScene(t *testing.T, frames int, goal func(i int) grid.Cell) (Report, *FlowField) {
	t.Helper()
	w, _ := newWorld(20, 20)
	for i := range 40 {
		e := w.NewEntity()
		put(w, e, components.Position{Vec: r2.Vec{X: 0.5 + float64(i%20), Y: 0.5 + float64(i/20)}})
		put(w, e, components.FlowFollower{Goal: goal(i)})
	}
	ff := &FlowField{Capacity: 2, MaxFields: 4, Workers: 1}
	ff.Initialize(w)
	for range frames {
		ff.Update(w)
	}
	return Diagnose(w), ff
}

// More goals than MaxFields, for good: the followers of the goals beyond it wait
// for good (FlowField.Waiting stays up), and Diagnose says why, once 2 s have passed.
func TestDiagnoseFlowGoalsOverMaxFields(t *testing.T) {
	own := func(i int) grid.Cell { return grid.Cell{X: int32(i % 20), Y: int32(10 + i/20)} } // a goal each
	r, ff := flowGoalsScene(t, 60, own)
	assert.Positive(t, ff.Waiting)
	assert.Zero(t, r.FlowGoalsOver, "1 s only: %v", r)

	r, ff = flowGoalsScene(t, 150, own)
	assert.Equal(t, 36, ff.Waiting, "40 goals, fields for 4")
	assert.Equal(t, 40, r.FlowGoalsOver, "%v", r)
	assert.Equal(t, 4, r.FlowGoalsMax)
	assert.Equal(t, 36, r.FlowGoalsWaiting)
	total := 0
	for _, c := range r.Counts {
		total += c
	}
	assert.Equal(t, total+1, r.Total(), "one finding")
	assert.Contains(t, r.String(), "flow followers ask for 40 goals, over FlowField.MaxFields (4): the followers of the goals "+
		"beyond it get no field and wait for good (36 waiting: FlowField.Waiting); give the swarm goals it shares "+
		"(one goal for many, SetFlowGoal), raise MaxFields, or make agents with goals of their own Movers "+
		"(a Path each) rather than FlowFollowers")
}

// A swarm with a few goals (3, under MaxFields) is no finding.
func TestDiagnoseFlowGoalsUnderMaxFieldsNotReported(t *testing.T) {
	r, ff := flowGoalsScene(t, 150, func(i int) grid.Cell { return grid.Cell{X: int32(5 * (i % 3)), Y: 15} })
	assert.Zero(t, ff.Waiting)
	assert.Zero(t, r.FlowGoalsOver, "%v", r)
	assert.NotContains(t, r.String(), "MaxFields")
}

// Sector fields hold Capacity goals (8 by default) and never grow to MaxFields: a
// newcomer's evacuation with 20 exits as goals had 706 of 2,000 followers standing for
// good and Diagnose said "no misconfiguration" (FlowGoalsOver counted whole-grid fields
// only). It is reported now, against Capacity, after 2 s.
func TestDiagnoseFlowGoalsOverCapacityWithSectorFields(t *testing.T) {
	w, _ := newWorld(64, 64)
	for i := range 40 {
		e := w.NewEntity()
		put(w, e, components.Position{Vec: r2.Vec{X: 0.5 + float64(i%20), Y: 0.5 + float64(i/20)}})
		put(w, e, components.FlowFollower{Goal: grid.Cell{X: int32(3 * (i % 10)), Y: 40}}) // 10 goals
	}
	ff := &FlowField{Sectors: 16, Capacity: 4, Workers: 1}
	ff.Initialize(w)
	for range 60 {
		ff.Update(w)
	}
	assert.Zero(t, Diagnose(w).FlowGoalsOver, "1 s only")
	for range 90 {
		ff.Update(w)
	}
	r := Diagnose(w)
	assert.Equal(t, 24, ff.Waiting, "10 goals, fields for 4: the followers of 6 wait")
	assert.Equal(t, 10, r.FlowGoalsOver, "%v", r)
	assert.Equal(t, 4, r.FlowGoalsMax)
	assert.Equal(t, 24, r.FlowGoalsWaiting)
	assert.Contains(t, r.String(), "flow followers ask for 10 goals, over FlowField.Capacity (4): the followers of the goals "+
		"beyond it get no field and wait for good (24 waiting: FlowField.Waiting); give the swarm goals it shares "+
		"(one goal for many, SetFlowGoal), raise Capacity, or make agents")
}
