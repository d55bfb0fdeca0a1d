package bt

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBadClocksCountAsZero pins the rule for a bad ctx.DT (NaN, ±Inf, negative) and
// ctx.Time (NaN, ±Inf): Tick uses 0 instead, counts the tick in ClockFaults and gives the
// caller's values back. Before the rule, a NaN or negative dt kept Wait Running forever.
func TestBadClocksCountAsZero(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name   string
		root   *Node
		dt     []float64 // per tick
		time   []float64 // per tick; nil: the sum of the dts so far
		want   string    // status letters per tick
		faults uint64
	}{
		{"wait, good clock", Wait(1), []float64{0.5, 0.5, 0.5}, nil, "RRS", 0},
		{"wait, NaN dt", Wait(1), []float64{0.5, nan, 0.5, 0.5}, []float64{0, 1, 2, 3}, "RRRS", 1},
		{"wait, negative dt", Wait(1), []float64{0.5, -5, 0.5, 0.5}, []float64{0, 1, 2, 3}, "RRRS", 1},
		{"wait, infinite dts", Wait(1), []float64{0.5, inf, math.Inf(-1), 0.5, 0.5}, []float64{0, 1, 2, 3, 4}, "RRRRS", 2},
		{"timeout, negative dt", Timeout(1, Wait(5)), []float64{0.5, -3, 0.5, 0.5}, []float64{0, 1, 2, 3}, "RRRF", 1},
		{"delay, NaN dt", Delay(1, AlwaysSuccess()), []float64{0.5, nan, 0.5, 0.5}, []float64{0, 1, 2, 3}, "RRRS", 1},
		{"repeat of a wait, NaN dt", Repeat(2, Wait(0.5)), []float64{0.5, nan, 0.5, 0.5, 0.5}, []float64{0, 1, 2, 3, 4}, "RRRSR", 1},
		// Completed at NaN time (counted as 0): ready again at 1, not at once.
		{"cooldown, NaN time at completion", Cooldown(1, AlwaysSuccess()), []float64{0, 0, 0}, []float64{nan, 0.5, 1}, "SFS", 1},
		// Cooling down while the clock is NaN or infinite: time 0 is before the ready time.
		{"cooldown, NaN time while cooling", Cooldown(1, AlwaysSuccess()), []float64{0, 0, 0, 0}, []float64{0.5, nan, inf, 1.5}, "SFFS", 2},
		// Time going backwards shrinks the cooldown to seconds from now.
		{"cooldown, time goes back", Cooldown(1, AlwaysSuccess()), []float64{0, 0, 0, 0}, []float64{100, 0, 0.5, 1}, "SFFS", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree, err := Compile(c.name, c.root)
			require.NoError(t, err)
			m := tree.NewMemory()
			ctx := &Context{}
			var got string
			now := 0.0
			for k, dt := range c.dt {
				now += dt
				ctx.DT, ctx.Time = dt, now
				if c.time != nil {
					ctx.Time = c.time[k]
				}
				dtWas, timeWas := ctx.DT, ctx.Time
				got += letter(tree.Tick(&m, ctx))
				assert.Equal(t, math.Float64bits(dtWas), math.Float64bits(ctx.DT), "tick %d: caller's DT restored", k)
				assert.Equal(t, math.Float64bits(timeWas), math.Float64bits(ctx.Time), "tick %d: caller's Time restored", k)
				for i, nm := range m.Nodes() {
					assert.False(t, math.IsNaN(nm.Timer), "tick %d node %d: NaN timer", k, i)
				}
			}
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.faults, ctx.ClockFaults())
		})
	}
}

func TestBadClockLeavesSeeZero(t *testing.T) {
	var seen [2]float64
	tree, err := Compile("see", Action("see", func(c *Context) Status {
		seen = [2]float64{c.DT, c.Time}
		return Success
	}))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: math.NaN(), Time: math.Inf(-1)}
	tree.Tick(&m, ctx)
	assert.Equal(t, [2]float64{0, 0}, seen)
	ctx.DT, ctx.Time = -1, 7
	tree.Tick(&m, ctx)
	assert.Equal(t, [2]float64{0, 7}, seen, "a good Time is kept when only DT is bad")
	assert.Equal(t, uint64(2), ctx.ClockFaults())
}

func TestBadClockTickAllocatesNothing(t *testing.T) {
	tree, err := Compile("t", Sequence(Cooldown(1, Wait(2)), Timeout(1, Delay(0.5, Wait(1)))))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{}
	k := 0
	allocs := testing.AllocsPerRun(200, func() {
		k++
		ctx.DT, ctx.Time = math.NaN(), float64(k)
		if k%2 == 0 {
			ctx.DT, ctx.Time = 0.1, math.Inf(1)
		}
		tree.Tick(&m, ctx)
	})
	assert.Zero(t, allocs)
}

func TestCorruptTimersExpire(t *testing.T) {
	// A Memory loaded from a save may hold NaN or +Inf timers: they count as expired
	// (Wait, Timeout) or are bounded by the cooldown's length (Cooldown).
	for _, c := range []struct {
		name  string
		root  *Node
		timer float64
		want  Status
	}{
		{"wait, NaN", Wait(5), math.NaN(), Success},
		{"timeout, NaN", Timeout(5, Wait(10)), math.NaN(), Failure},
		{"cooldown, +Inf ready time", Cooldown(1, AlwaysSuccess()), math.Inf(1), Failure},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree, err := Compile(c.name, c.root)
			require.NoError(t, err)
			m := tree.NewMemory()
			ctx := &Context{DT: 0.1}
			tree.Tick(&m, ctx) // enter: Running (or Success and cooling down)
			m.Nodes()[0].Timer = c.timer
			ctx.Time = 0.5
			assert.Equal(t, c.want, tree.Tick(&m, ctx))
			if c.root.kind == kindCooldown {
				ctx.Time = 1.5 // at most 1 s after the tick that saw +Inf
				assert.Equal(t, Success, tree.Tick(&m, ctx))
			}
		})
	}
}

func TestCompileRejectsBadDurations(t *testing.T) {
	for _, c := range []struct {
		name string
		root *Node
	}{
		{"wait NaN", Wait(math.NaN())},
		{"timeout NaN", Timeout(math.NaN(), AlwaysSuccess())},
		{"timeout -Inf", Timeout(math.Inf(-1), AlwaysSuccess())},
		{"delay negative", Delay(-1, AlwaysSuccess())},
		{"delay +Inf", Delay(math.Inf(1), AlwaysSuccess())},
		{"cooldown NaN", Cooldown(math.NaN(), AlwaysSuccess())},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile("d", c.root)
			assert.ErrorIs(t, err, ErrInvalidDuration)
		})
	}
}

// leafRegistry registers the leaves Move and Ready.
func leafRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Move", func(p *Ports) (func(*Context) Status, error) {
		return func(*Context) Status { return Success }, nil
	}))
	require.NoError(t, r.RegisterCondition("Ready", func(p *Ports) (func(*Context) bool, error) {
		return func(*Context) bool { return true }, nil
	}))
	return r
}

// TestLoadReportsUnknownNodesAndBadDurations: LoadXML and LoadJSON report what used to
// pass until Registry.Tree, naming the file and line or JSON path, and add nothing.
func TestLoadReportsUnknownNodesAndBadDurations(t *testing.T) {
	cases := []struct {
		name, doc string
		err       error
		msg       []string
	}{
		{"unknown leaf", xmlDoc(`<Sequence>
  <Ready/>
  <Jump height="2"/>
</Sequence>`), ErrUnknownNode, []string{"bt: t.xml:5: Jump: unknown node type \"Jump\" (not built in, not registered)"}},
		{"unknown action ID", xmlDoc(`<Action ID="Jump"/>`), ErrUnknownNode, []string{"t.xml:3", `Action "Jump"`, `unknown node type "Jump"`}},
		{"action without ID", xmlDoc(`<Action/>`), ErrUnknownNode, []string{"t.xml:3", `unknown node type "Action"`}},
		{"tree ID as a node", `<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Sequence><B/></Sequence></BehaviorTree>
<BehaviorTree ID="B"><Ready/></BehaviorTree>
</root>`, ErrUnknownNode, []string{"t.xml:2", `unknown node type "B" (a tree ID: use <SubTree ID="B"/>)`}},
		{"two unknown", xmlDoc(`<Sequence><X/><Y/></Sequence>`), ErrUnknownNode, []string{`"X"`, `"Y"`}},
		{"unknown in a second tree", `<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Ready/></BehaviorTree>
<BehaviorTree ID="B">
  <Fly/>
</BehaviorTree>
</root>`, ErrUnknownNode, []string{"t.xml:4", `"Fly"`}},
		{"NaN wait", xmlDoc(`<Wait seconds="NaN"/>`), ErrInvalidDuration, []string{"t.xml:3", "Wait", "duration NaN"}},
		{"infinite timeout", xmlDoc(`<Timeout seconds="1e400"><Ready/></Timeout>`), ErrInvalidDuration, []string{"duration +Inf"}},
		{"negative delay", xmlDoc(`<Delay delay_msec="-1"><Ready/></Delay>`), ErrInvalidDuration, []string{"duration -0.001"}},
		{"NaN cooldown", xmlDoc(`<Cooldown msec="nan"><Ready/></Cooldown>`), ErrInvalidDuration, []string{"Cooldown", "duration NaN"}},
		{"json unknown", `{"main": "M", "trees": [{"id": "M", "root": {"type": "Sequence", "children": [
  {"type": "Ready"}, {"type": "Jump"}]}}]}`, ErrUnknownNode, []string{"t.json: $.trees[0].root.children[1]", `unknown node type "Jump"`}},
		{"json NaN sleep", `{"trees": [{"id": "M", "root": {"type": "Sleep", "ports": {"msec": "NaN"}}}]}`,
			ErrInvalidDuration, []string{"$.trees[0].root", "duration NaN"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := leafRegistry(t)
			var err error
			if strings.HasPrefix(c.doc, "<") {
				_, err = r.LoadXML("t.xml", []byte(c.doc))
			} else {
				_, err = r.LoadJSON("t.json", []byte(c.doc))
			}
			require.Error(t, err, "reported at load")
			assert.ErrorIs(t, err, c.err)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
			assert.Empty(t, r.TreeIDs(), "a failed load adds nothing")
		})
	}
}

func TestLoadAcceptsSubTreesDefinedLaterOrElsewhere(t *testing.T) {
	r := leafRegistry(t)
	// B is defined after A uses it; C comes from a file loaded later.
	main, err := r.LoadXML("a.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Sequence><SubTree ID="B"/><SubTree ID="C"/><Action ID="Move"/></Sequence></BehaviorTree>
<BehaviorTree ID="B"><Condition ID="Ready"/></BehaviorTree>
</root>`))
	require.NoError(t, err)
	_, err = r.Tree(main)
	assert.ErrorIs(t, err, ErrUnknownTree, "C is not loaded yet")
	_, err = r.LoadJSON("c.json", []byte(`{"trees": [{"id": "C", "root": {"type": "Wait", "ports": {"seconds": 0}}}]}`))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{}))
}

// TestLoadMessagesAreShort: text from a file is quoted cut to 64 bytes, and a LoadError
// is never longer than a few hundred bytes, however big the attribute.
func TestLoadMessagesAreShort(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	cases := []struct {
		name, doc string
		build     bool // the error comes from Registry.Tree
		msg       string
	}{
		{"unknown node type", xmlDoc(`<` + huge + `/>`), false, `unknown node type "xxxx`},
		{"name of an unknown node", xmlDoc(`<Jump name="` + huge + `"/>`), false, `Jump "xxxx`},
		{"literal that does not parse", xmlDoc(`<Move speed="` + huge + `" arrived="{a}"/>`), true, `port "speed": "xxxx`},
		{"unknown port", xmlDoc(`<Ready ` + huge + `="1"/>`), true, `unknown port "xxxx`},
		{"unknown main tree", `<root BTCPP_format="4" main_tree_to_execute="` + huge + `"><BehaviorTree ID="A"><Ready/></BehaviorTree></root>`, false, `unknown tree "xxxx`},
		{"format", `<root BTCPP_format="` + huge + `"/>`, false, `BTCPP_format "xxxx`},
		{"text", xmlDoc(huge), false, `unexpected text "xxxx`},
		{"xml syntax", `<root BTCPP_format="4"><BehaviorTree ID="M"><` + huge + `></Sequence></BehaviorTree></root>`, false, "syntax error"},
		{"blackboard key", xmlDoc(`<Sequence><Move speed="{` + huge + `}" arrived="{a}"/><Move speed="1" arrived="{` + huge + `}"/></Sequence>`), true, "port error"},
		{"json unknown field", `{"trees": [{"id": "M", "` + huge + `": 1}]}`, false, "unknown field"},
		{"json port", `{"trees": [{"id": "M", "root": {"type": "Ready", "ports": {"` + huge + `": [1]}}}]}`, false, `port "xxxx`},
		{"long name, nothing wrong", xmlDoc(`<Inverter name="` + huge + `"><Ready/></Inverter>`), true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := loadRegistry(t)
			var main string
			var err error
			if strings.HasPrefix(c.doc, "<") {
				main, err = r.LoadXML("t.xml", []byte(c.doc))
			} else {
				main, err = r.LoadJSON("t.json", []byte(c.doc))
			}
			if c.build {
				require.NoError(t, err)
				_, err = r.Tree(main)
				if c.msg == "" {
					require.NoError(t, err, "a long name is fine where nothing is wrong")
					return
				}
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
			assert.Less(t, len(err.Error()), 700, "message: %.200q", err.Error())
		})
	}
	_, err := Compile(huge, Sequence(Wait(math.NaN()).Named(huge)))
	require.ErrorIs(t, err, ErrInvalidDuration)
	assert.Less(t, len(err.Error()), 400, "Compile quotes names shortly: %.200q", err.Error())
	assert.Equal(t, `"héllo"`, quote("héllo"))
	assert.Equal(t, `"`+strings.Repeat("é", 32)+`"…(80 bytes)`, quote(strings.Repeat("é", 40)), "cut on a rune boundary")
}

// loadRegistry is leafRegistry with ports on Move, as loadErr's.
func loadRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Move", func(p *Ports) (func(*Context) Status, error) {
		InputPort[float64](p, "speed")
		OutputPort[bool](p, "arrived")
		return func(*Context) Status { return Success }, nil
	}))
	require.NoError(t, r.RegisterCondition("Ready", func(p *Ports) (func(*Context) bool, error) {
		return func(*Context) bool { return true }, nil
	}))
	return r
}
