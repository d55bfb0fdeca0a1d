package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
)

// TestUtilitySelectorShowsItsType: a UtilitySelector is a bt.Choose underneath, but a
// debugger, Dump and the transition log show the type the user wrote.
func TestUtilitySelectorShowsItsType(t *testing.T) {
	tree := selectorTree(t, attackReasoner(t, utility.Policy{}))
	assert.Equal(t, "UtilitySelector", tree.NodeType(0))
	assert.Equal(t, "Choose", tree.NodeKind(0))
	assert.Equal(t, "Sequence", tree.NodeType(1))
}
