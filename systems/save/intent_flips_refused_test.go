package save_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// A file whose Decision state holds a flip record it cannot take is refused at
// Restore, naming the record: one of the zero entity or of an entity ID past the
// world's pool, a ring index past the ring's (utility.FlipLimit slots: 0 to 3), or
// an entity ID recorded twice (whatever the generations). The unedited file restores.
func TestIntentFlipRecordsRefused(t *testing.T) {
	tree := dithering(t)
	world := arche.NewWorld()
	w := &world
	var out strings.Builder
	st, s := ditherWorld(t, w, tree, true, &out)
	s.Run(w, 600) // 10 s: the three agents flip-flop, each with a record
	data, err := save.Save(w, nil, st...)
	require.NoError(t, err)
	text := string(data)
	for _, rec := range []string{`"entity":[1,0]`, `"entity":[2,0]`, `"entity":[3,0]`} {
		require.Equal(t, 1, strings.Count(text, `"intent_flips":`), "one decision system")
		require.Equal(t, 1, strings.Count(text, rec), "a record of %s in the file", rec)
	}

	restore := func(text string) error {
		lw := arche.NewWorld()
		l, err := save.LoadInto([]byte(text), save.Registry{Trees: []*bt.Tree{tree}}, &lw)
		require.NoError(t, err) // the records are the Decision's state, checked at Restore
		st2, _ := ditherWorld(t, l.World, tree, false, &strings.Builder{})
		return l.Restore(st2...)
	}
	require.NoError(t, restore(text))

	for _, c := range []struct {
		name, old, new, want string
	}{
		{"zero entity", `"entity":[1,0]`, `"entity":[0,0]`, `intent_flips[0]: entity {0 0}: not one of the world's`},
		{"past the pool", `"entity":[2,0]`, `"entity":[4000000000,0]`, `intent_flips[1]: entity {4000000000 0}: not one of the world's`},
		{"ring index", `"entity":[3,0]`, `"entity":[3,0]`, `intent_flips[2]: at 4: want 0 to 3`},
		{"ID twice", `"entity":[2,0]`, `"entity":[1,0]`, `intent_flips[1]: entity ID 1 twice`},
		{"ID twice, another generation", `"entity":[3,0]`, `"entity":[1,7]`, `intent_flips[2]: entity ID 1 twice`},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(text, c.old, c.new, 1)
			if c.name == "ring index" { // the record's "at" (left out when 0) set to 4
				i := strings.Index(bad, `"entity":[3,0]`)
				j := i + strings.Index(bad[i:], `"changes"`)
				rec := regexp.MustCompile(`"at":\d+,`).ReplaceAllString(bad[i:j], "")
				bad = bad[:i] + rec + `"at":4,` + bad[j:]
			}
			require.NotEqual(t, text, bad)
			err := restore(bad)
			require.ErrorIs(t, err, save.ErrState)
			require.ErrorIs(t, err, systems.ErrOutOfDomain)
			require.ErrorContains(t, err, "decision think cursor: "+c.want)
		})
	}
}
