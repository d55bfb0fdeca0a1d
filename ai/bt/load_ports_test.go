package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// portRegistry registers leaves that record what their ports read, by node name:
// Print (val: int, default "{point}"), PrintSame (val: int, default "{=}"), PrintLit
// (val: int, default "5"), Publish (out: int, default "{=}", writes 11), and list readers
// Ints, Strings, Floats (items).
func portRegistry(t *testing.T, got map[string]any) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	reader := func(def string) ActionFactory {
		return func(p *Ports) (func(*Context) Status, error) {
			name := p.Name()
			in := InputPortDefault[int](p, "val", def)
			return func(c *Context) Status {
				v, ok := in.Get(c)
				if !ok {
					got[name] = "missing"
					return Failure
				}
				got[name] = v
				return Success
			}, nil
		}
	}
	require.NoError(t, r.RegisterAction("Print", reader("{point}")))
	require.NoError(t, r.RegisterAction("PrintSame", reader("{=}")))
	require.NoError(t, r.RegisterAction("PrintLit", reader("5")))
	require.NoError(t, r.RegisterAction("Publish", func(p *Ports) (func(*Context) Status, error) {
		out := OutputPortDefault[int](p, "out", "{=}")
		return func(c *Context) Status { out.Set(c, 11); return Success }, nil
	}))
	require.NoError(t, r.RegisterAction("Message", func(p *Ports) (func(*Context) Status, error) {
		name := p.Name()
		in := InputPort[string](p, "message")
		return func(c *Context) Status {
			v, ok := in.Get(c)
			if !ok {
				got[name] = "missing"
				return Failure
			}
			got[name] = v
			return Success
		}, nil
	}))
	list := func(f func(p *Ports) func(c *Context) (any, bool)) ActionFactory {
		return func(p *Ports) (func(*Context) Status, error) {
			name := p.Name()
			get := f(p)
			return func(c *Context) Status {
				v, ok := get(c)
				if !ok {
					got[name] = "missing"
					return Failure
				}
				got[name] = v
				return Success
			}, nil
		}
	}
	require.NoError(t, r.RegisterAction("Ints", list(func(p *Ports) func(c *Context) (any, bool) {
		in := InputPort[[]int](p, "items")
		return func(c *Context) (any, bool) { return in.Get(c) }
	})))
	require.NoError(t, r.RegisterAction("Strings", list(func(p *Ports) func(c *Context) (any, bool) {
		in := InputPort[[]string](p, "items")
		return func(c *Context) (any, bool) { return in.Get(c) }
	})))
	require.NoError(t, r.RegisterAction("Floats", list(func(p *Ports) func(c *Context) (any, bool) {
		in := InputPort[[]float64](p, "items")
		return func(c *Context) (any, bool) { return in.Get(c) }
	})))
	return r
}

func TestPortsAndBlackboard(t *testing.T) {
	cases := []struct {
		name  string
		trees string         // <BehaviorTree> elements; the first is main
		set   map[string]int // int keys set on the store before the tick
		want  map[string]any // what each named node read
		keys  map[string]any // store entries after the tick (nil: unset)
	}{
		{"default naming an entry", `<BehaviorTree ID="M"><Sequence>
  <Print name="a"/><Print name="b" val="7"/><PrintSame name="c"/><PrintLit name="d"/><Publish/>
</Sequence></BehaviorTree>`,
			map[string]int{"point": 3, "val": 8}, map[string]any{"a": 3, "b": 7, "c": 8, "d": 5}, map[string]any{"out": 11}},
		{"defaults resolve in the subtree's scope", `<BehaviorTree ID="M"><SubTree ID="S" point="{p}"/></BehaviorTree>
<BehaviorTree ID="S"><Sequence><Print name="a"/><PrintSame name="b"/><Publish/></Sequence></BehaviorTree>`,
			map[string]int{"p": 4, "val": 9}, map[string]any{"a": 4, "b": "missing"}, map[string]any{"S#1.out": nil, "out": nil}},
		{"spaces around {key}", `<BehaviorTree ID="M"><Sequence>
  <Print name="a" val=" { p } "/><SubTree ID="S" point="{ p}"/><Publish out="{ o }"/>
</Sequence></BehaviorTree>
<BehaviorTree ID="S"><Print name="b"/></BehaviorTree>`,
			map[string]int{"p": 6}, map[string]any{"a": 6, "b": 6}, map[string]any{"o": 11}},
		{"{=} on a SubTree", `<BehaviorTree ID="M"><SubTree ID="S" point="{=}"/></BehaviorTree>
<BehaviorTree ID="S"><Print name="a"/></BehaviorTree>`,
			map[string]int{"point": 2}, map[string]any{"a": 2}, nil},
		{"_autoremap leaves _private keys alone", `<BehaviorTree ID="M"><Sequence>
  <SubTree ID="S" _autoremap="true"/>
  <Message name="public" message="{public_value}"/>
  <Message name="private" message="{_private_value}"/>
</Sequence></BehaviorTree>
<BehaviorTree ID="S"><Sequence>
  <SetBlackboard output_key="public_value" value="hello"/>
  <SetBlackboard output_key="_private_value" value="world"/>
</Sequence></BehaviorTree>`,
			nil, map[string]any{"public": "hello", "private": "missing"},
			map[string]any{"public_value": "hello", "S#1._private_value": "world", "_private_value": nil}},
		{"@key is the root blackboard in every subtree", `<BehaviorTree ID="M"><Sequence>
  <Print name="main" val="{@value}"/>
  <Print name="main_plain" val="{value}"/>
  <SubTree ID="S"/>
  <SubTree ID="S" value="{other}"/>
</Sequence></BehaviorTree>
<BehaviorTree ID="S"><Sequence>
  <Print name="sub" val="{@value}"/>
  <SubTree ID="Deeper" v="{@value}"/>
  <SetBlackboard output_key="@value_sqr" value="{@value}"/>
  <Publish out="{@published}"/>
</Sequence></BehaviorTree>
<BehaviorTree ID="Deeper"><PrintSame name="deep" val="{v}"/></BehaviorTree>`,
			map[string]int{"value": 3, "other": 100}, map[string]any{"main": 3, "main_plain": 3, "sub": 3, "deep": 3},
			map[string]any{"value_sqr": 3, "published": 11, "S#1.value_sqr": nil, "S#3.value": nil}},
		{"; lists", `<BehaviorTree ID="M"><Sequence>
  <Ints name="i" items="1;2;3"/><Strings name="s" items="a;b c;d"/><Floats name="f" items="1.5; 2.5"/>
  <Ints name="empty" items=""/>
  <SetBlackboard output_key="copy" value="4;5"/><Ints name="key" items="{copy}"/>
  <SubTree ID="S" tl1="7;8"/>
</Sequence></BehaviorTree>
<BehaviorTree ID="S"><Ints name="sub" items="{tl1}"/></BehaviorTree>`,
			nil, map[string]any{"i": []int{1, 2, 3}, "s": []string{"a", "b c", "d"}, "f": []float64{1.5, 2.5},
				"empty": []int{}, "key": []int{4, 5}, "sub": []int{7, 8}},
			map[string]any{"copy": []int{4, 5}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]any{}
			r := portRegistry(t, got)
			_, err := r.LoadXML("p.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="M">`+c.trees+`</root>`))
			require.NoError(t, err)
			tree, err := r.Tree("M")
			require.NoError(t, err)
			keys := map[string]blackboard.Key[int]{}
			for k := range c.set {
				key, err := blackboard.Declare[int](r.Schema(), k)
				require.NoError(t, err)
				keys[k] = key
			}
			st := r.Schema().NewStore()
			for k, v := range c.set {
				blackboard.Set(st, keys[k], v)
			}
			m := tree.NewMemory()
			tree.Tick(&m, &Context{Blackboard: st})
			assert.Equal(t, c.want, got)
			for k, want := range c.keys {
				v, ok := st.Value(k)
				if want == nil {
					assert.False(t, ok, "%s is unset", k)
					continue
				}
				assert.Equal(t, want, v, k)
			}
		})
	}
}

func TestPortErrors(t *testing.T) {
	cases := []struct {
		name, trees string
		line        int
		msg         []string
	}{
		{"default of another type", `<BehaviorTree ID="M">
<Sequence><Ints items="{point}"/>
<Print/></Sequence></BehaviorTree>`, 3, []string{"Print", `port "val"`, `"point"`, "[]int, not int"}},
		{"a string port on an entry that is not a boolean, number or string", `<BehaviorTree ID="M">
<Sequence><Ints items="{point}"/>
<Message message="{point}"/></Sequence></BehaviorTree>`, 3, []string{"Message", `port "message" (text) reads booleans, numbers and strings`, `"point"`, "[]int, not string"}},
		{"bad list element", `<BehaviorTree ID="M">
<Ints items="1;x;3"/></BehaviorTree>`, 2, []string{"Ints", `port "items"`, `element 2 of "1;x;3"`, `"x" cannot be read as int`}},
		{"@ alone", `<BehaviorTree ID="M">
<Print val="{@}"/></BehaviorTree>`, 2, []string{`port "val"`, "empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := portRegistry(t, map[string]any{})
			_, err := r.LoadXML("p.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="M">`+c.trees+`</root>`))
			require.NoError(t, err)
			_, err = r.Tree("M")
			require.ErrorIs(t, err, ErrPort)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "p.xml", le.File)
			assert.Equal(t, c.line, le.Line)
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}
