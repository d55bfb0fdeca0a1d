package bt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Node.Validate lets a node built outside this package (a library's node on a bt kind)
// report its own problem at Compile, wrapped with the tree name and the node's path.
func TestCompileRunsANodesValidateCheck(t *testing.T) {
	errPair := errors.New("wants two children")
	var seen []int
	pick := func(*Context) int { return 0 }
	check := func(kids int) error {
		seen = append(seen, kids)
		if kids != 2 {
			return errPair
		}
		return nil
	}
	mk := func(kids ...*Node) *Node { return Choose("pick", pick, kids...).Typed("Pair").Validate(check) }

	_, err := Compile("t", Sequence(AlwaysSuccess(), mk(AlwaysSuccess())))
	require.ErrorIs(t, err, errPair)
	assert.EqualError(t, err, `bt: tree "t": root/Sequence[1]/Pair("pick"): wants two children`)
	assert.Equal(t, []int{1}, seen)

	// bt's own checks of the node come first: a nil choose function
	_, err = Compile("t", Choose("pick", nil, AlwaysSuccess()).Validate(check))
	require.ErrorIs(t, err, ErrNilFunc)
	assert.Equal(t, []int{1}, seen, "not called on a node bt refused")

	// the check runs before the children are compiled
	_, err = Compile("t", mk(Wait(-1)))
	require.ErrorIs(t, err, errPair)

	tree, err := Compile("t", mk(AlwaysSuccess(), AlwaysFailure()))
	require.NoError(t, err)
	mem := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&mem, &Context{}))

	// a nil check removes it
	_, err = Compile("t", mk(AlwaysSuccess()).Validate(nil))
	require.NoError(t, err)
	assert.Nil(t, (*Node)(nil).Validate(check))
}
