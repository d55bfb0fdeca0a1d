package save_test

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each kind of bad file is refused with an error naming what and where, and the
// caller's world (its hash) and registry are as they were. (Save refuses a world
// whose values Load would refuse: a file out of domain is made by hand here.)
func TestLoadRefusesBadFilesAndChangesNothing(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)

	// a file with a negative waypoint index (made by hand: Save refuses such a world
	// with the same error, TestSaveRefusesWhatLoadRefuses) does not load
	g := newFixture(t)
	q := generic.NewFilter1[components.Path]().Query(g.w)
	for q.Next() {
		p := q.Get()
		p.Next = 12345
	}
	saved, err := save.Save(g.w, nil)
	require.NoError(t, err)
	outOfDomain := bytes.ReplaceAll(saved, []byte(`"Next":12345`), []byte(`"Next":-1`))
	require.NotEqual(t, saved, outOfDomain)

	idle := func(*bt.Context) bt.Status { return bt.Running }
	longer, err := bt.Compile("patrol", bt.Sequence(bt.Action("a", idle), bt.Action("b", idle), bt.Action("c", idle)))
	require.NoError(t, err)

	cases := []struct {
		name string
		data []byte
		reg  save.Registry
		err  error
		says []string
	}{
		{"truncated", data[:len(data)/2], f.reg, save.ErrFormat, []string{"unexpected EOF"}},
		{"other version", bytes.Replace(data, []byte(`"version":1`), []byte(`"version":2`), 1), f.reg, save.ErrVersion,
			[]string{"version 2", "reads 1"}},
		{"unknown tree ID", bytes.ReplaceAll(data, []byte(`"ID":"patrol"`), []byte(`"ID":"sentry"`)), f.reg, save.ErrUnknownID,
			[]string{`tree "sentry"`, "entity 1 (components[0])", "components.Brain.ID", `save.Registry.Trees has ["patrol"]`}},
		{"memory length", data, save.Registry{Trees: []*bt.Tree{longer}, Schema: f.reg.Schema}, save.ErrMemory,
			[]string{"entity 1 (components[0])", "components.Brain.Memory", "3 nodes, the tree has 4"}},
		{"out of domain", outOfDomain, g.reg, save.ErrDomain,
			[]string{"entity 1 (components[0])", "components.Path.Next: -1, a waypoint index below 0"}},
		{"bad float", bytes.Replace(data, []byte(`"Current":"NaN"`), []byte(`"Current":"nan?"`), 1), f.reg, save.ErrDomain,
			[]string{"components.Health.Current", `want a number, "NaN"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := systems.StateHash(f.w)
			trees := append([]*bt.Tree(nil), c.reg.Trees...)
			l, err := save.Load(c.data, c.reg)
			require.Error(t, err)
			assert.Nil(t, l)
			assert.ErrorIs(t, err, c.err)
			for _, s := range c.says {
				assert.Contains(t, err.Error(), s)
			}
			assert.Equal(t, before, systems.StateHash(f.w), "the caller's world is unchanged")
			assert.Equal(t, trees, c.reg.Trees, "the registry is unchanged")
		})
	}
}
