package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckRunNamesWhatDoesNotFit(t *testing.T) {
	d, g := greedyTrap(t)
	ok := Run{Plan: Plan{Len: 2, Steps: [MaxSteps]ActionID{0, 1}, Goal: g}, Step: 1}
	assert.NoError(t, d.CheckRun(&ok))
	assert.NoError(t, d.CheckRun(&Run{Plan: Plan{Goal: NoGoal}}), "no plan, no goal")
	for _, c := range []struct {
		r    Run
		want string
	}{
		{Run{Plan: Plan{Len: 17}}, "Plan.Len 17 outside 0..16"},
		{Run{Plan: Plan{Len: 1, Goal: g}, Step: -1}, "Step -1 outside 0..1"},
		{Run{Plan: Plan{Len: 1, Goal: 3}}, `Plan.Goal 3, domain "trap" has 1 goals`},
		{Run{Plan: Plan{Len: 2, Steps: [MaxSteps]ActionID{0, 9}, Goal: g}}, `Plan.Steps[1] = 9, domain "trap" has 3 actions`},
	} {
		err := d.CheckRun(&c.r)
		require.ErrorIs(t, err, ErrRun)
		assert.ErrorContains(t, err, c.want)
	}
}

func TestRegistryResolvesByNameThenHint(t *testing.T) {
	r := &Registry{}
	a, _ := greedyTrap(t)
	b, _ := crafting(t)
	ida, err := r.Add(a)
	require.NoError(t, err)
	idb, err := r.Add(b)
	require.NoError(t, err)
	d, id := r.Resolve(b.Name(), ida)
	assert.Same(t, b, d)
	assert.Equal(t, idb, id)
	d, _ = r.Resolve("", ida)
	assert.Same(t, a, d)
	d, id = r.Resolve("nobody", idb)
	assert.Nil(t, d)
	assert.Zero(t, id)
	assert.Equal(t, []string{"trap", b.Name()}, r.Names())
}
