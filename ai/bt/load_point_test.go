package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A r2.Vec port takes BehaviorTree.CPP's "x;y" literal (its tutorial's Position2D;
// newbie20 finding 6: `MoveTo goal="3;4"` was a load error). Other forms are load
// errors naming the port.
func TestPointPortLiteral(t *testing.T) {
	var got r2.Vec
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("MoveTo", func(p *Ports) (func(*Context) Status, error) {
		goal := InputPort[r2.Vec](p, "goal")
		return func(c *Context) Status {
			got, _ = goal.Get(c)
			return Success
		}, nil
	}))
	load := func(goal string) (*Tree, error) {
		id, err := r.LoadXML("p.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="P`+goal+`"><MoveTo goal="`+goal+`"/></BehaviorTree></root>`))
		if err != nil {
			return nil, err
		}
		return r.Tree(id)
	}
	for goal, want := range map[string]r2.Vec{"3;4": {X: 3, Y: 4}, " 2.5 ; -1e1 ": {X: 2.5, Y: -10}} {
		tree, err := load(goal)
		require.NoError(t, err, goal)
		mem := tree.NewMemory()
		require.Equal(t, Success, tree.Tick(&mem, &Context{}))
		assert.Equal(t, want, got, goal)
	}
	for _, goal := range []string{"3", "3;4;5", "a;4", "3;", ""} {
		_, err := load(goal)
		require.ErrorIs(t, err, ErrPort, "%q", goal)
		assert.ErrorContains(t, err, `port "goal"`)
	}
}
