package debugview

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needy is a program's component with a long field (a utility.State) before the
// fields a user looks for, as the newcomer's village Villager.
type needy struct {
	Hunger  float64
	Needs   utility.State
	Meals   int
	DownFor float64
	Deaths  int
}

// TestValueTextCutsEachFieldAlone: a long field (a utility.State with scores,
// considerations and a reasoner behind a pointer) is cut on its own, so the
// fields after it (Meals, DownFor, Deaths) still show by name; a struct of many
// fields shows the first maxFields and how many more, within a bound.
func TestValueTextCutsEachFieldAlone(t *testing.T) {
	r, err := utility.New("needs", utility.Policy{},
		utility.Action{Name: "Eat", Considerations: []utility.Consideration{{Name: "hunger", Input: func(any) float64 { return 0.5 }}}},
		utility.Action{Name: "Sleep", Considerations: []utility.Consideration{{Name: "fatigue", Input: func(any) float64 { return 0.25 }}}},
		utility.Action{Name: "Work", Weight: 0.35})
	require.NoError(t, err)
	n := needy{Hunger: 42, Meals: 7, DownFor: 1.5, Deaths: 2, Needs: r.NewState()}
	r.Decide(nil, &n.Needs, nil)
	got := valueText(reflect.ValueOf(n))
	assert.True(t, strings.HasPrefix(got, "{Hunger: 42, Needs: {Choice: 0, Previous: -1, Scores: [0.5 0.25 0.35]"), got)
	assert.True(t, strings.HasSuffix(got, ", Meals: 7, DownFor: 1.5, Deaths: 2}"), got)
	needs := got[strings.Index(got, "Needs: ")+len("Needs: ") : strings.Index(got, ", Meals: ")]
	assert.LessOrEqual(t, len(needs), maxFieldText, needs)
	assert.True(t, strings.HasSuffix(needs, "..."), "cut: %s", needs)

	// 40 fields, each a long string: the first maxFields, each cut, then the count
	fields := make([]reflect.StructField, 40)
	for i := range fields {
		fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: reflect.TypeFor[string]()}
	}
	wide := reflect.New(reflect.StructOf(fields)).Elem()
	for i := range fields {
		wide.Field(i).SetString(strings.Repeat("é", 100)) // 2 bytes a rune: a cut must not split one
	}
	got = valueText(wide)
	assert.True(t, strings.HasSuffix(got, ", F31: \""+strings.Repeat("é", 38)+"..., ... 8 more fields}"), got[len(got)-120:])
	assert.NotContains(t, got, "F32:")
	assert.LessOrEqual(t, len(got), maxFields*(len("F00: , ")+maxFieldText)+len("{, ... 8 more fields}"))
	assert.True(t, utf8Valid(got))
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
