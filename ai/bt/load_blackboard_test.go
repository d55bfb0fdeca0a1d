package bt

import (
	"errors"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type (
	vec2  struct{ X, Y float64 }
	mode  uint8
	color struct{ R, G, B uint8 }
)

// UnmarshalText parses "r,g,b".
func (c *color) UnmarshalText(b []byte) error {
	parts := strings.Split(string(b), ",")
	if len(parts) != 3 {
		return errors.New("want r,g,b")
	}
	var v [3]uint8
	for i, p := range parts {
		x, err := parseLiteral[uint8](p)
		if err != nil {
			return err
		}
		v[i] = x
	}
	*c = color{v[0], v[1], v[2]}
	return nil
}

// typedRegistry has leaves that declare keys of types SetBlackboard has no built-in case
// for: Use reads a vec2 "at", a mode "m" and a color "c" (each optional).
func typedRegistry(t *testing.T) *Registry {
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Use", func(p *Ports) (func(*Context) Status, error) {
		if p.Has("at") {
			InputPort[vec2](p, "at")
		}
		if p.Has("m") {
			InputPort[mode](p, "m")
		}
		if p.Has("c") {
			InputPort[color](p, "c")
		}
		return func(*Context) Status { return Success }, nil
	}))
	return r
}

func TestSetBlackboardOfAnyType(t *testing.T) {
	const doc = `<root BTCPP_format="4" main_tree_to_execute="M">
  <BehaviorTree ID="M">
    <Sequence>
      <Use at="{spot}" m="{mode}" c="{tint}"/>
      <SetBlackboard value="{spot}" output_key="copy"/>
      <SetBlackboard value="3" output_key="mode"/>
      <SetBlackboard value="1,2,3" output_key="{tint}"/>
      <SubTree ID="Inner" level="7" where="{spot}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Inner">
    <Sequence>
      <Use m="{private}"/>
      <SetBlackboard value="{level}" output_key="private"/>
      <SetBlackboard value="{where}" output_key="seen"/>
    </Sequence>
  </BehaviorTree>
</root>`
	r := typedRegistry(t)
	main, err := r.LoadXML("typed.xml", []byte(doc))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	s := r.Schema()
	spot := blackboard.MustDeclare[vec2](s, "spot")
	st := s.NewStore()
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st}
	assert.Equal(t, Failure, tree.Tick(&m, ctx), "copying a key that is not set fails")
	assert.False(t, st.Has("copy"))

	blackboard.Set(st, spot, vec2{1.5, -2})
	require.Equal(t, Success, tree.Tick(&m, ctx))
	value := func(name string) any { v, _ := st.Value(name); return v }
	assert.Equal(t, vec2{1.5, -2}, value("copy"), "an undeclared output takes the copied key's type")
	assert.Equal(t, mode(3), value("mode"), "a literal for a type defined on a number")
	assert.Equal(t, color{1, 2, 3}, value("tint"), "a literal through UnmarshalText")
	assert.Equal(t, mode(7), value("Inner#1.private"), "a literal remapped by the SubTree")
	assert.Equal(t, vec2{1.5, -2}, value("Inner#1.seen"), "a key remapped by the SubTree")

	allocs := testing.AllocsPerRun(100, func() { tree.Tick(&m, ctx) })
	assert.Zero(t, allocs)
}

func TestSetBlackboardOfAnyTypeErrors(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"no literal form", `<Sequence><Use at="{a}"/><SetBlackboard value="1,2" output_key="a"/></Sequence>`,
			[]string{"no literal form for bt.vec2", `port "value"`}},
		{"overflow", `<Sequence><Use m="{m}"/><SetBlackboard value="300" output_key="m"/></Sequence>`,
			[]string{`"300"`, "bt.mode"}},
		{"bad text", `<Sequence><Use c="{c}"/><SetBlackboard value="red" output_key="c"/></Sequence>`,
			[]string{"want r,g,b"}},
		{"copy between types", `<Sequence><Use at="{a}" m="{m}"/><SetBlackboard value="{m}" output_key="a"/></Sequence>`,
			[]string{"key holds another type"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := typedRegistry(t)
			main, err := r.LoadXML("t.xml", []byte(xmlDoc(c.body)))
			require.NoError(t, err)
			_, err = r.Tree(main)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrPort)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestSubTreeScopesOfTwoTreesSharingASchema: two trees built from one registry use the
// same SubTree with keys of different types; their private keys get slots of their own,
// so both build and one store serves both trees (as when a state machine runs both).
func TestSubTreeScopesOfTwoTreesSharingASchema(t *testing.T) {
	const doc = `<root BTCPP_format="4" main_tree_to_execute="A">
  <BehaviorTree ID="Copy">
    <SetBlackboard value="{in}" output_key="tmp"/>
  </BehaviorTree>
  <BehaviorTree ID="A">
    <Sequence><Use at="{spot}"/><SubTree ID="Copy" in="{spot}"/></Sequence>
  </BehaviorTree>
  <BehaviorTree ID="B">
    <Sequence><Use m="{mode}"/><SubTree ID="Copy" in="{mode}"/></Sequence>
  </BehaviorTree>
</root>`
	r := typedRegistry(t)
	_, err := r.LoadXML("two.xml", []byte(doc))
	require.NoError(t, err)
	a, err := r.Tree("A")
	require.NoError(t, err)
	b, err := r.Tree("B")
	require.NoError(t, err, "the Copy subtree's tmp is a vec2 in A and a mode in B")
	st := r.Schema().NewStore()
	blackboard.Set(st, blackboard.MustDeclare[vec2](r.Schema(), "spot"), vec2{1, 2})
	blackboard.Set(st, blackboard.MustDeclare[mode](r.Schema(), "mode"), 5)
	ma, mb := a.NewMemory(), b.NewMemory()
	ctx := &Context{Blackboard: st}
	require.Equal(t, Success, a.Tick(&ma, ctx))
	require.Equal(t, Success, b.Tick(&mb, ctx))
	va, _ := st.Value("Copy#1.tmp")
	vb, _ := st.Value("Copy#2.tmp")
	assert.Equal(t, vec2{1, 2}, va)
	assert.Equal(t, mode(5), vb)
}
