package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tree's name is its key in a Registry, in saved worlds (a Brain's ID, where ""
// means no tree) and in every message: Compile used to take an empty or blank name,
// whose saved agents then loaded as having no tree. It is refused with ErrName; a
// name with white space inside or around a character is taken as given.
func TestCompileRefusesAnEmptyOrBlankName(t *testing.T) {
	leaf := func() *Node { return Action("idle", func(*Context) Status { return Running }) }
	for _, name := range []string{"", " ", "\t\n", "\u00a0"} {
		tree, err := Compile(name, leaf())
		require.ErrorIs(t, err, ErrName, "%q", name)
		assert.Nil(t, tree)
		assert.Contains(t, err.Error(), "bt: tree "+quote(name)+": tree name empty or blank")
	}
	for _, name := range []string{"guard", " guard", "the guard"} {
		tree, err := Compile(name, leaf())
		require.NoError(t, err, "%q", name)
		assert.Equal(t, name, tree.Name())
	}
}
