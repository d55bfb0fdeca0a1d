package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A method without subtasks ("nothing to do") decomposes into an empty plan. Tick
// must not run a task of it: the plan completes at once. Before, the empty plan was
// adopted and Tasks[0] of it, the zero TaskID, ran: the domain's first task, here an
// operator that fires a weapon the plan never chose.
func TestAnEmptyPlanRunsNoTask(t *testing.T) {
	b := NewBuilder("idle")
	threat := b.Fact("threat")
	fired := 0
	fire := b.Primitive("Fire", Primitive{Run: func(*Context) Status { fired++; return Success }})
	root := b.Compound("Root")
	b.Method(root, Method{Name: "Fight", If: []Condition{Is(threat, Eq, 1)}, Tasks: []TaskID{fire}})
	b.Method(root, Method{Name: "Idle"}) // nothing to do
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)

	var p Planner
	var s State
	var out Plan
	require.NoError(t, p.Plan(d, &s, &out))
	assert.Equal(t, 0, out.Len, "Idle decomposes into no task")

	var r Run
	var events []Event
	ctx := Context{Observe: func(ev Event) { events = append(events, ev) }}
	st := d.Tick(&r, &s, &p, &ctx)
	assert.Equal(t, 0, fired, "Fire is in no plan")
	assert.Equal(t, Success, st, "an empty plan is done at once")
	assert.Equal(t, uint32(0), r.Failures)
	assert.Equal(t, []Event{{Kind: EventPlan, Task: NoTask}, {Kind: EventDone, Task: NoTask}}, events)
}
