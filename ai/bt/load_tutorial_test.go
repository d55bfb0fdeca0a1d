package bt

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// point2D parses "x,y", as tutorial t12's Point2D.
type point2D struct{ X, Y int }

func (p *point2D) UnmarshalText(b []byte) error {
	xs, ys, ok := strings.Cut(string(b), ",")
	if !ok {
		return fmt.Errorf("%q: want x,y", b)
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%q: want x,y", b)
	}
	*p = point2D{x, y}
	return nil
}

// TestTutorialDefaultPorts is BehaviorTree.CPP's tutorial t12: every way to give a port
// a default (a Go value, an entry, a literal, the entry named like the port), and a tree
// written without ID.
func TestTutorialDefaultPorts(t *testing.T) {
	r := NewRegistry(nil)
	var got []point2D
	require.NoError(t, r.RegisterAction("NodeWithDefaultPoints", func(p *Ports) (func(*Context) Status, error) {
		ins := []In[point2D]{
			InputPort[point2D](p, "input"),
			InputPortOr(p, "pointA", point2D{1, 2}),
			InputPortDefault[point2D](p, "pointB", "{point}"),
			InputPortDefault[point2D](p, "pointC", "5,6"),
			InputPortDefault[point2D](p, "pointD", "{=}"),
		}
		return func(c *Context) Status {
			for _, in := range ins {
				v, ok := in.Get(c)
				if !ok {
					return Failure
				}
				got = append(got, v)
			}
			return Success
		}, nil
	}))
	main, err := r.LoadXML("t12.xml", []byte(`<root BTCPP_format="4">
  <BehaviorTree>
    <NodeWithDefaultPoints input="-1,-2"/>
  </BehaviorTree>
</root>`))
	require.NoError(t, err)
	assert.Equal(t, "t12", main)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	st := r.Schema().NewStore()
	point, err := blackboard.Lookup[point2D](r.Schema(), "point")
	require.NoError(t, err)
	pointD, err := blackboard.Lookup[point2D](r.Schema(), "pointD")
	require.NoError(t, err)
	blackboard.Set(st, point, point2D{3, 4})
	blackboard.Set(st, pointD, point2D{7, 8})
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{Blackboard: st}))
	assert.Equal(t, []point2D{{-1, -2}, {1, 2}, {3, 4}, {5, 6}, {7, 8}}, got)
}

// TestTutorialAccessByRef is tutorial t13: one port read and written (inout) holding a
// list, grown by three nodes.
func TestTutorialAccessByRef(t *testing.T) {
	r := NewRegistry(nil)
	var log []string
	require.NoError(t, r.RegisterAction("PushIntoVector", func(p *Ports) (func(*Context) Status, error) {
		in, out := InputPort[[]int](p, "vector"), OutputPort[[]int](p, "vector")
		value := InputPort[int](p, "value")
		return func(c *Context) Status {
			n, ok := value.Get(c)
			if !ok {
				return Failure
			}
			v, ok := in.Get(c)
			if !ok {
				log = append(log, fmt.Sprintf("We created a new vector, containing value [%d]", n))
			} else {
				log = append(log, fmt.Sprintf("Value [%d] pushed into the vector. New size: %d", n, len(v)+1))
			}
			out.Set(c, append(v, n))
			return Success
		}, nil
	}))
	main, err := r.LoadXML("t13.xml", []byte(`<root BTCPP_format="4">
  <BehaviorTree ID="TreeA">
    <Sequence>
      <PushIntoVector vector="{vect}" value="3"/>
      <PushIntoVector vector="{vect}" value="5"/>
      <PushIntoVector vector="{vect}" value="7"/>
    </Sequence>
  </BehaviorTree>
</root>`))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	st := r.Schema().NewStore()
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{Blackboard: st}))
	assert.Equal(t, []string{
		"We created a new vector, containing value [3]",
		"Value [5] pushed into the vector. New size: 2",
		"Value [7] pushed into the vector. New size: 3",
	}, log)
	v, _ := st.Value("vect")
	assert.Equal(t, []int{3, 5, 7}, v)
}
