package bt

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileErrors(t *testing.T) {
	ok := func(*Context) bool { return true }
	act := func(*Context) Status { return Success }
	deep := Wait(0)
	for range MaxNodes {
		deep = Inverter(deep)
	}
	wide := make([]*Node, MaxNodes)
	for i := range wide {
		wide[i] = Wait(0)
	}
	cases := []struct {
		name string
		root *Node
		err  error
		msg  string // substring of the message
	}{
		{"nil root", nil, ErrNilNode, `bt: tree "t": root: nil node`},
		{"nil child", Sequence(Wait(1), nil), ErrNilNode, "root/Sequence[1]: nil node"},
		{"nil decorator child", Selector(Inverter(nil)), ErrNilNode, "root/Selector[0]/Inverter[0]"},
		{"nil cooldown child", Cooldown(1, nil), ErrNilNode, "Cooldown[0]"},
		{"zero node", Sequence(&Node{}), ErrInvalidNode, "root/Sequence[0]"},
		{"empty sequence", Sequence(), ErrEmptyComposite, "root/Sequence"},
		{"empty selector", Selector(Selector()).Named("top"), ErrEmptyComposite, `root/Selector("top")[0]/Selector`},
		{"empty reactive sequence", ReactiveSequence(), ErrEmptyComposite, ""},
		{"empty reactive selector", ReactiveSelector(), ErrEmptyComposite, ""},
		{"negative wait", Wait(-1), ErrInvalidDuration, "got -1"},
		{"NaN wait", Wait(math.NaN()), ErrInvalidDuration, "NaN"},
		{"infinite cooldown", Cooldown(math.Inf(1), Wait(0)), ErrInvalidDuration, "+Inf"},
		{"negative cooldown", Cooldown(-0.5, Wait(0)), ErrInvalidDuration, ""},
		{"nil condition", Condition("c", nil), ErrNilFunc, `root/Condition("c")`},
		{"nil action", Sequence(Action("a", nil)), ErrNilFunc, ""},
		{"hook on condition", Condition("c", ok).OnHalt(func(*Context) {}), ErrHookNotAction, ""},
		{"hook on sequence", Sequence(Wait(0)).OnStart(func(*Context) {}), ErrHookNotAction, ""},
		{"too deep", deep, ErrTooManyNodes, "more than 65535"},
		{"too wide", Sequence(wide...), ErrTooManyNodes, ""},
		{"first error wins", Sequence(Action("a", act), Wait(-1), nil), ErrInvalidDuration, "[1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree, err := Compile("t", c.root)
			assert.Nil(t, tree)
			require.ErrorIs(t, err, c.err)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
}

func TestCompileLimit(t *testing.T) {
	kids := make([]*Node, MaxNodes-1)
	for i := range kids {
		kids[i] = Wait(0)
	}
	tree, err := Compile("max", Sequence(kids...))
	require.NoError(t, err)
	assert.Equal(t, MaxNodes, tree.Len())
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{}))
}

func TestNilNodeMethods(t *testing.T) {
	var n *Node
	assert.Nil(t, n.Named("x").OnHalt(nil).OnStart(nil))
}

// A node given a type with Node.Typed is named by that type in Compile's error path,
// not by the kind it is built on.
func TestCompileErrorPathUsesTypedName(t *testing.T) {
	_, err := Compile("t", Selector(Choose("pick", nil, Wait(1)).Typed("Picker")))
	require.ErrorIs(t, err, ErrNilFunc)
	assert.EqualError(t, err, `bt: tree "t": root/Selector[0]/Picker("pick"): leaf function is nil`)
	_, err = Compile("t", Inverter(Sequence().Typed("Steps")))
	require.ErrorIs(t, err, ErrEmptyComposite)
	assert.EqualError(t, err, `bt: tree "t": root/Inverter[0]/Steps: composite without children`)
}
