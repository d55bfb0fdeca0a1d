package bt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTracerRecordsOnlyChanges(t *testing.T) {
	h := &harness{t: t, script: map[string]string{"C": "FFSS", "A": "RR.."}}
	tree, err := Compile("trace", ReactiveSelector(h.cond("C"), h.act("A")).Named("top"))
	require.NoError(t, err)
	tr := NewTracer(tree, 0)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.25}
	for h.tick = 1; h.tick <= 4; h.tick++ {
		ctx.Time = float64(h.tick) * ctx.DT
		tr.Tick(&m, ctx)
	}
	want := []Transition{
		{0.25, 0, Idle, Running}, {0.25, 1, Idle, Failure}, {0.25, 2, Idle, Running},
		// tick 2: nothing changed, nothing logged
		{0.75, 0, Running, Success}, {0.75, 1, Failure, Success}, {0.75, 2, Running, Idle},
		// tick 4: nothing changed
	}
	assert.Equal(t, want, tr.Log())
	var b strings.Builder
	require.NoError(t, tr.WriteLog(&b))
	assert.Contains(t, b.String(), `t=0.750   [2]    Action "A"`)
	assert.Contains(t, b.String(), "Running → Idle")

	small := NewTracer(tree, 2)
	m2 := tree.NewMemory()
	h.tick = 1
	small.Tick(&m2, &Context{Time: 1})
	assert.Len(t, small.Log(), 2, "bounded")
	assert.Equal(t, 2, small.Log()[1].Node)
	small.Reset()
	assert.Empty(t, small.Log())
}

func TestDump(t *testing.T) {
	tree, err := Compile("dump", ReactiveSelector(
		Sequence(Condition("hurt", func(*Context) bool { return false }), Action("flee", func(*Context) Status { return Running })).Named("flee"),
		Parallel(1, All, Wait(2), Action("patrol", func(*Context) Status { return Running })),
	).Named("guard"))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.5}
	tree.Tick(&m, ctx)
	tree.Tick(&m, ctx)
	var b strings.Builder
	require.NoError(t, tree.Dump(&b, &m))
	want := `ReactiveSelector "guard"                     Running (child 1)
├── Sequence "flee"                          Failure
│   ├── Condition "hurt"                     Failure
│   └── Action "flee"                        Idle
└── Parallel                                 Running
    ├── Wait                                 Running (0.5s)
    └── Action "patrol"                      Running
`
	assert.Equal(t, want, b.String())
	b.Reset()
	require.NoError(t, tree.Dump(&b, nil))
	assert.True(t, strings.HasPrefix(b.String(), "ReactiveSelector \"guard\"\n├── Sequence"))
	other := (&Tree{nodes: make([]node, 1)}).NewMemory()
	written := b.Len()
	assert.ErrorContains(t, tree.Dump(&b, &other), "Memory was not made by this Tree's NewMemory")
	assert.Equal(t, written, b.Len(), "nothing written for another tree's memory")
}
