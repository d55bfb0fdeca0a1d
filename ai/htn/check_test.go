package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckRunNamesWhatDoesNotFit(t *testing.T) {
	d := soldier(t, instant)
	reload, _ := d.TaskIndex("Reload")
	ok := Run{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{reload}}, Step: 1}
	assert.NoError(t, d.CheckRun(&ok))
	assert.NoError(t, d.CheckRun(&Run{}))
	for _, c := range []struct {
		r    Run
		want string
	}{
		{Run{Plan: Plan{Len: 99}}, "Plan.Len 99 outside 0..32"},
		{Run{Plan: Plan{MTRLen: -1}}, "Plan.MTRLen -1"},
		{Run{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{reload}}, Step: 2}, "Step 2 outside 0..1"},
		{Run{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{0}}}, "Plan.Tasks[0] = 0 (Combat) is a compound task"},
		{Run{Plan: Plan{Len: 2, Tasks: [MaxPlan]TaskID{reload, 500}}}, `Plan.Tasks[1] = 500, domain "soldier" has`},
	} {
		err := d.CheckRun(&c.r)
		require.ErrorIs(t, err, ErrRun)
		assert.ErrorContains(t, err, c.want)
	}
}

func TestRegistryResolvesByNameThenHint(t *testing.T) {
	r := &Registry{}
	a := soldier(t, instant)
	nb := NewBuilder("other")
	nb.Root(nb.Primitive("Idle", Primitive{}))
	b, err := nb.Build()
	require.NoError(t, err)
	ida, err := r.Add(a)
	require.NoError(t, err)
	idb, err := r.Add(b)
	require.NoError(t, err)
	d, id := r.Resolve(b.Name(), ida) // a stale hint: the name wins
	assert.Same(t, b, d)
	assert.Equal(t, idb, id)
	d, id = r.Resolve("", ida) // no name: the hint
	assert.Same(t, a, d)
	assert.Equal(t, ida, id)
	d, id = r.Resolve("nobody", ida)
	assert.Nil(t, d)
	assert.Zero(t, id)
	var none *Registry
	d, _ = none.Resolve("soldier", 1)
	assert.Nil(t, d)
	assert.Nil(t, none.Names())
	assert.Equal(t, []string{a.Name(), b.Name()}, r.Names())
}
