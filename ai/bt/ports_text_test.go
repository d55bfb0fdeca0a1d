package bt

import (
	"strconv"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type textMode int8

// TestStringPortReadsEntriesAsText: a string input port of a loaded node bound to a
// boolean or number entry reads it as text, formatted as ai/script formats values.
func TestStringPortReadsEntriesAsText(t *testing.T) {
	r := NewRegistry(nil)
	var got []string
	require.NoError(t, r.RegisterAction("Say", func(p *Ports) (func(*Context) Status, error) {
		in := InputPort[string](p, "message")
		return func(c *Context) Status {
			m, ok := in.Get(c)
			if !ok {
				got = append(got, "<missing>")
				return Failure
			}
			got = append(got, m)
			return Success
		}, nil
	}))
	s := r.Schema()
	b := blackboard.MustDeclare[bool](s, "b")
	i8 := blackboard.MustDeclare[int8](s, "i8")
	u16 := blackboard.MustDeclare[uint16](s, "u16")
	f32 := blackboard.MustDeclare[float32](s, "f32")
	mode := blackboard.MustDeclare[textMode](s, "mode")
	big := blackboard.MustDeclare[float64](s, "big")
	main, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>
  <Script code="n := -7; x := 0.1 + 0.2; s := 'text'"/>
  <Say message="{b}"/><Say message="{i8}"/><Say message="{u16}"/><Say message="{f32}"/>
  <Say message="{mode}"/><Say message="{big}"/><Say message="{n}"/><Say message="{x}"/>
  <Say message="{s}"/>
  <Say message="{unset}"/>
</Sequence>`)))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	assert.Equal(t, "string", s.Type("unset").String(), "a key only a string port names is a string")
	st := s.NewStore()
	blackboard.Set(st, b, true)
	blackboard.Set(st, i8, -128)
	blackboard.Set(st, u16, 65535)
	blackboard.Set(st, f32, 3.14)
	blackboard.Set(st, mode, 2)
	blackboard.Set(st, big, 1e21)
	m := tree.NewMemory()
	assert.Equal(t, Failure, tree.Tick(&m, &Context{Blackboard: st}))
	assert.Equal(t, []string{"true", "-128", "65535", "3.14", "2", "1e+21", "-7", "0.30000000000000004", "text", "<missing>"}, got)
}

// TestStringPortTextAllocs pins what reading an entry as text costs: nothing for a
// string, a boolean and the integers 0–99; the text otherwise.
func TestStringPortTextAllocs(t *testing.T) {
	r := NewRegistry(nil)
	var n int
	require.NoError(t, r.RegisterAction("Say", func(p *Ports) (func(*Context) Status, error) {
		in := InputPort[string](p, "message")
		return func(c *Context) Status {
			m, _ := in.Get(c)
			n += len(m)
			return Success
		}, nil
	}))
	s := r.Schema()
	b := blackboard.MustDeclare[bool](s, "b")
	i := blackboard.MustDeclare[int](s, "i")
	f := blackboard.MustDeclare[float64](s, "f")
	blackboard.MustDeclare[string](s, "s")
	for _, c := range []struct {
		key    string
		set    func(*blackboard.Store)
		allocs float64
	}{
		{"s", func(st *blackboard.Store) { blackboard.Set(st, blackboard.MustDeclare[string](s, "s"), "hello") }, 0},
		{"b", func(st *blackboard.Store) { blackboard.Set(st, b, true) }, 0},
		{"i", func(st *blackboard.Store) { blackboard.Set(st, i, 42) }, 0},
		{"i", func(st *blackboard.Store) { blackboard.Set(st, i, 4242) }, 1},
		{"f", func(st *blackboard.Store) { blackboard.Set(st, f, 3.14) }, 1},
		{"d", func(*blackboard.Store) {}, 0}, // a string entry declared by a script after the port was built
	} {
		id := c.key + strconv.Itoa(int(c.allocs))
		_, err := r.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="`+id+`"><Sequence>
  <Script code="d := 'hello'"/><Say message="{`+c.key+`}"/></Sequence></BehaviorTree></root>`))
		require.NoError(t, err)
		tree, err := r.Tree(id)
		require.NoError(t, err)
		st := s.NewStore()
		c.set(st)
		m := tree.NewMemory()
		ctx := &Context{Blackboard: st}
		assert.Equal(t, c.allocs, testing.AllocsPerRun(100, func() { tree.Tick(&m, ctx) }), c.key)
	}
}
