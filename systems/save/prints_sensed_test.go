package save

import (
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Declaring facts sensed (goap.Builder.Sensed) changes no plan, only the diagnosis:
// it is not in a GOAP domain's fingerprint, so files saved before a domain declared
// them load against it.
func TestGOAPSensedFactsAreNotInTheFingerprint(t *testing.T) {
	build := func(sensed bool) *goap.Domain {
		b := goap.NewBuilder("hunter")
		visible, dead := b.Fact("visible"), b.Fact("dead")
		b.Action(goap.Action{Name: "Shoot", Cost: 1, Pre: []goap.Cond{{Fact: visible, Op: goap.Eq, Value: 1}},
			Effects: []goap.Effect{{Fact: dead, Value: 1}}})
		b.Goal(goap.Goal{Name: "Kill", Want: []goap.Cond{{Fact: dead, Op: goap.Eq, Value: 1}}})
		if sensed {
			b.Sensed(visible)
		}
		d, err := b.Build()
		require.NoError(t, err)
		return d
	}
	assert.Equal(t, printOf(build(false)), printOf(build(true)))
}
