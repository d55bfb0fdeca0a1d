package bt

// The tutorials of BehaviorTree.CPP 4.x (its examples/t01…t19), each loaded from its XML
// (reproduced as the test input) and run with Go stand-ins for the C++ leaves, asserting
// the output or trace the tutorial documents. In scope: t01–t10, t12–t14, t16, t18. Out of
// scope: t11 (Groot2's ZeroMQ publisher), t15 (node substitution), t17 (the blackboard
// backup API; saving is the save/load issue's), t19 (C++ polymorphic port types).
//
// Differences from BehaviorTree.CPP, each pinned in the test that meets it:
//   - t03, t06: a Script assigning a string literal to an entry of a user type
//     (OtherGoal='-1;3' on a Position2D entry) converts it with the type's UnmarshalText
//     once, when the tree is built; BehaviorTree.CPP converts each time the Script runs.
//   - t09: a string port reads a number entry as text the way ai/script formats it
//     ("42", "3.14"); BehaviorTree.CPP's scripts hold every number as a double and print
//     it with six decimals ("42.000000", "3.140000").

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tutorialTree loads the document doc into r and builds the tree id ("" for the
// document's main tree).
func tutorialTree(t *testing.T, r *Registry, file, doc, id string) *Tree {
	t.Helper()
	main, err := r.LoadXML(file, []byte(doc))
	require.NoError(t, err)
	if id == "" {
		id = main
	}
	tree, err := r.Tree(id)
	require.NoError(t, err)
	return tree
}

// tutorialRun ticks tree on st every dt seconds until it returns something other
// than Running (BehaviorTree.CPP's tickWhileRunning), at most 100 ticks, and returns the
// last status.
func tutorialRun(t *testing.T, tree *Tree, st *blackboard.Store, dt float64) Status {
	t.Helper()
	m := tree.NewMemory()
	ctx := &Context{DT: dt, Blackboard: st}
	for k := 1; k <= 100; k++ {
		ctx.Time = float64(k) * dt
		if s := tree.Tick(&m, ctx); s != Running {
			assert.Zero(t, ctx.ScriptErrors(), "script errors")
			return s
		}
	}
	t.Fatal("still running after 100 ticks")
	return Running
}

// tutorialSay registers SaySomething (and the same leaf under other names) printing its
// message port to *out as "Robot says: …", as BehaviorTree.CPP's DummyNodes.
func tutorialSay(t *testing.T, r *Registry, out *[]string, names ...string) {
	t.Helper()
	for _, name := range append([]string{"SaySomething"}, names...) {
		require.NoError(t, r.RegisterAction(name, func(p *Ports) (func(*Context) Status, error) {
			msg := InputPort[string](p, "message")
			return func(c *Context) Status {
				m, ok := msg.Get(c)
				if !ok {
					return Failure
				}
				*out = append(*out, "Robot says: "+m)
				return Success
			}, nil
		}))
	}
}

// tutGripper is t01's GripperInterface.
type tutGripper struct {
	opened bool
	out    *[]string
}

func (g *tutGripper) open(*Context) Status {
	g.opened = true
	*g.out = append(*g.out, "GripperInterface::open")
	return Success
}

func (g *tutGripper) close(*Context) Status {
	g.opened = false
	*g.out = append(*g.out, "GripperInterface::close")
	return Success
}

// TestTutorialT01FirstTree is t01: a Sequence of a condition and three actions, two of them
// methods of one object (Go method values stand in for std::bind), one printing its name.
func TestTutorialT01FirstTree(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterCondition("CheckBattery", func(*Ports) (func(*Context) bool, error) {
		return func(*Context) bool { out = append(out, "[ Battery: OK ]"); return true }, nil
	}))
	g := &tutGripper{out: &out}
	require.NoError(t, r.RegisterAction("OpenGripper", func(*Ports) (func(*Context) Status, error) { return g.open, nil }))
	require.NoError(t, r.RegisterAction("CloseGripper", func(*Ports) (func(*Context) Status, error) { return g.close, nil }))
	require.NoError(t, r.RegisterAction("ApproachObject", func(p *Ports) (func(*Context) Status, error) {
		name := p.Name()
		return func(*Context) Status { out = append(out, "ApproachObject: "+name); return Success }, nil
	}))
	tree := tutorialTree(t, r, "t01.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence name="root_sequence">
      <CheckBattery name="battery_ok"/>
      <OpenGripper name="open_gripper"/>
      <ApproachObject name="approach_object"/>
      <CloseGripper name="close_gripper"/>
    </Sequence>
  </BehaviorTree>
</root>`, "")
	assert.Equal(t, Success, tutorialRun(t, tree, nil, 0.1))
	assert.Equal(t, []string{
		"[ Battery: OK ]",
		"GripperInterface::open",
		"ApproachObject: approach_object",
		"GripperInterface::close",
	}, out)
	assert.False(t, g.opened)
}

// TestTutorialT02BasicPorts is t02: input ports from literals and from an entry an output
// port wrote.
func TestTutorialT02BasicPorts(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	tutorialSay(t, r, &out, "SaySomething2")
	require.NoError(t, r.RegisterAction("ThinkWhatToSay", func(p *Ports) (func(*Context) Status, error) {
		text := OutputPort[string](p, "text")
		return func(c *Context) Status {
			text.Set(c, "The answer is 42")
			return Success
		}, nil
	}))
	tree := tutorialTree(t, r, "t02.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence name="root">
      <SaySomething message="hello"/>
      <SaySomething2 message="this works too"/>
      <ThinkWhatToSay text="{the_answer}"/>
      <SaySomething2 message="{the_answer}"/>
    </Sequence>
  </BehaviorTree>
</root>`, "")
	assert.Equal(t, Success, tutorialRun(t, tree, r.Schema().NewStore(), 0.1))
	assert.Equal(t, []string{"Robot says: hello", "Robot says: this works too", "Robot says: The answer is 42"}, out)
}

// tutPosition2D is t03's Position2D: "x;y" in files.
type tutPosition2D struct{ X, Y float64 }

// tutConversions logs t03's "Converting string" lines.
var tutConversions *[]string

func (p *tutPosition2D) UnmarshalText(b []byte) error {
	if tutConversions != nil {
		*tutConversions = append(*tutConversions, fmt.Sprintf("Converting string: %q", b))
	}
	xs, ys, ok := strings.Cut(string(b), ";")
	x, err1 := strconv.ParseFloat(xs, 64)
	y, err2 := strconv.ParseFloat(ys, 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("%q: want x;y", b)
	}
	p.X, p.Y = x, y
	return nil
}

const t03Tree = `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence name="root">
      <CalculateGoal goal="{GoalPosition}"/>
      <PrintTarget target="{GoalPosition}"/>
      <Script code="OtherGoal='-1;3'"/>
      <PrintTarget target="{OtherGoal}"/>
    </Sequence>
  </BehaviorTree>
</root>`

// TestTutorialT03GenericPorts is t03: ports of a user type, written by one leaf and
// parsed from a literal by a Script (UnmarshalText stands in for convertFromString).
//
// Difference: the Script's literal is converted once, when the tree is built
// (BehaviorTree.CPP converts when the Script runs), so the conversion is logged first.
func TestTutorialT03GenericPorts(t *testing.T) {
	var out []string
	tutConversions = &out
	defer func() { tutConversions = nil }()
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("CalculateGoal", func(p *Ports) (func(*Context) Status, error) {
		goal := OutputPort[tutPosition2D](p, "goal")
		return func(c *Context) Status { goal.Set(c, tutPosition2D{X: 1.1, Y: 2.3}); return Success }, nil
	}))
	require.NoError(t, r.RegisterAction("PrintTarget", func(p *Ports) (func(*Context) Status, error) {
		target := InputPort[tutPosition2D](p, "target")
		return func(c *Context) Status {
			g, ok := target.Get(c)
			if !ok {
				return Failure
			}
			out = append(out, fmt.Sprintf("Target positions: [ %.1f, %.1f ]", g.X, g.Y))
			return Success
		}, nil
	}))
	tree := tutorialTree(t, r, "t03.xml", t03Tree, "")
	assert.Equal(t, []string{`Converting string: "-1;3"`}, out)
	out = nil
	st := r.Schema().NewStore()
	assert.Equal(t, Success, tutorialRun(t, tree, st, 0.1))
	assert.Equal(t, []string{
		"Target positions: [ 1.1, 2.3 ]",
		"Target positions: [ -1.0, 3.0 ]",
	}, out)
	v, _ := st.Value("OtherGoal")
	assert.Equal(t, tutPosition2D{-1, 3}, v)
}

// tutPose2D is the Pose2D of BehaviorTree.CPP's samples: "x;y;theta" in files.
type tutPose2D struct{ X, Y, Theta float64 }

func (p *tutPose2D) UnmarshalText(b []byte) error {
	parts := strings.Split(string(b), ";")
	if len(parts) != 3 {
		return fmt.Errorf("%q: want x;y;theta", b)
	}
	var v [3]float64
	for i, s := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%q: want x;y;theta", b)
		}
		v[i] = f
	}
	*p = tutPose2D{v[0], v[1], v[2]}
	return nil
}

// tutorialMoveBase registers the samples' MoveBase: an asynchronous action that sends
// its goal when it starts and finishes once 0.22 s of simulation time have passed (the
// sample's 220 ms), printing what it does to *out.
func tutorialMoveBase(t *testing.T, r *Registry, out *[]string) {
	t.Helper()
	require.NoError(t, r.RegisterAction("MoveBase", func(p *Ports) (func(*Context) Status, error) {
		goal := InputPort[tutPose2D](p, "goal")
		p.OnHalt(func(*Context) { *out = append(*out, "[ MoveBase: ABORTED ]") })
		return func(c *Context) Status {
			mem := c.Node()
			if mem.Count == 0 { // entered: onStart
				g, ok := goal.Get(c)
				if !ok {
					return Failure
				}
				*out = append(*out, fmt.Sprintf("[ MoveBase: SEND REQUEST ]. goal: x=%.1f y=%.1f theta=%.1f", g.X, g.Y, g.Theta))
				mem.Count = 1
				return Running
			}
			if mem.Timer += c.DT; mem.Timer >= 0.22-1e-9 {
				*out = append(*out, "[ MoveBase: FINISHED ]")
				return Success
			}
			return Running
		}, nil
	}))
}

// TestTutorialT04ReactiveSequence is t04: the same mission under a Sequence (the battery
// is checked once) and under a ReactiveSequence (checked on every tick), ticked every
// 0.1 s with the tutorial's loop printing each status.
func TestTutorialT04ReactiveSequence(t *testing.T) {
	const sequence = `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence name="root">
      <BatteryOK/>
      <SaySomething message="mission started..."/>
      <MoveBase goal="1;2;3"/>
      <SaySomething message="mission completed!"/>
    </Sequence>
  </BehaviorTree>
</root>`
	const reactive = `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <ReactiveSequence name="root">
      <BatteryOK/>
      <Sequence>
        <SaySomething message="mission started..."/>
        <MoveBase goal="1;2;3"/>
        <SaySomething message="mission completed!"/>
      </Sequence>
    </ReactiveSequence>
  </BehaviorTree>
</root>`
	run := func(doc string) []string {
		var out []string
		r := NewRegistry(nil)
		require.NoError(t, r.RegisterCondition("BatteryOK", func(*Ports) (func(*Context) bool, error) {
			return func(*Context) bool { out = append(out, "[ Battery: OK ]"); return true }, nil
		}))
		tutorialSay(t, r, &out)
		tutorialMoveBase(t, r, &out)
		tree := tutorialTree(t, r, "t04.xml", doc, "")
		m := tree.NewMemory()
		ctx := &Context{DT: 0.1, Blackboard: r.Schema().NewStore()}
		for s := Idle; s != Success && len(out) < 100; {
			out = append(out, "--- ticking")
			s = tree.Tick(&m, ctx)
			out = append(out, "--- status: "+s.String())
		}
		return out
	}
	assert.Equal(t, []string{
		"--- ticking",
		"[ Battery: OK ]",
		"Robot says: mission started...",
		"[ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0",
		"--- status: Running",
		"--- ticking", "--- status: Running",
		"--- ticking", "--- status: Running",
		"--- ticking",
		"[ MoveBase: FINISHED ]",
		"Robot says: mission completed!",
		"--- status: Success",
	}, run(sequence))
	assert.Equal(t, []string{
		"--- ticking",
		"[ Battery: OK ]",
		"Robot says: mission started...",
		"[ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0",
		"--- status: Running",
		"--- ticking", "[ Battery: OK ]", "--- status: Running",
		"--- ticking", "[ Battery: OK ]", "--- status: Running",
		"--- ticking",
		"[ Battery: OK ]",
		"[ MoveBase: FINISHED ]",
		"Robot says: mission completed!",
		"--- status: Success",
	}, run(reactive))
}

// tutCrossDoor is t05's CrossDoor: a closed, locked door that a lock pick opens on the
// fifth attempt (the sample's _pick_attempts++ > 3).
type tutCrossDoor struct {
	open, locked bool
	attempts     int
	calls        []string
}

func (d *tutCrossDoor) register(t *testing.T, r *Registry) {
	t.Helper()
	leaf := func(name string, fn func() bool) {
		require.NoError(t, r.RegisterAction(name, func(*Ports) (func(*Context) Status, error) {
			return func(*Context) Status {
				ok := fn()
				d.calls = append(d.calls, fmt.Sprintf("%s %v", name, ok))
				if ok {
					return Success
				}
				return Failure
			}, nil
		}))
	}
	leaf("IsDoorClosed", func() bool { return !d.open })
	leaf("PassThroughDoor", func() bool { return d.open })
	leaf("OpenDoor", func() bool {
		if d.locked {
			return false
		}
		d.open = true
		return true
	})
	leaf("PickLock", func() bool {
		if d.attempts++; d.attempts > 4 {
			d.locked, d.open = false, true
		}
		return d.open
	})
	leaf("SmashDoor", func() bool { d.locked, d.open = false, true; return true })
}

// TestTutorialT05CrossDoor is t05: a document of two trees, the main one built by ID,
// with Fallback, Inverter, RetryUntilSuccessful and a SubTree. The locked door is opened
// by the fifth lock pick, so SmashDoor never runs.
func TestTutorialT05CrossDoor(t *testing.T) {
	d := &tutCrossDoor{locked: true}
	r := NewRegistry(nil)
	d.register(t, r)
	tree := tutorialTree(t, r, "t05.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Fallback>
        <Inverter>
          <IsDoorClosed/>
        </Inverter>
        <SubTree ID="DoorClosed"/>
      </Fallback>
      <PassThroughDoor/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="DoorClosed">
    <Fallback>
      <OpenDoor/>
      <RetryUntilSuccessful num_attempts="5">
        <PickLock/>
      </RetryUntilSuccessful>
      <SmashDoor/>
    </Fallback>
  </BehaviorTree>
</root>`, "MainTree")
	var dump strings.Builder
	require.NoError(t, tree.Dump(&dump, nil))
	assert.Equal(t, `Sequence
├── Fallback
│   ├── Inverter
│   │   └── IsDoorClosed
│   └── SubTree "DoorClosed"
│       └── Fallback
│           ├── OpenDoor
│           ├── RetryUntilSuccessful
│           │   └── PickLock
│           └── SmashDoor
└── PassThroughDoor
`, dump.String())
	assert.Equal(t, Success, tutorialRun(t, tree, nil, 0.1))
	assert.Equal(t, []string{"IsDoorClosed true", "OpenDoor false",
		"PickLock false", "PickLock false", "PickLock false", "PickLock false", "PickLock true",
		"PassThroughDoor true"}, d.calls)
}

const t06Tree = `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code=" move_goal='1;2;3' "/>
      <SubTree ID="MoveRobot" target="{move_goal}" result="{move_result}"/>
      <SaySomething message="{move_result}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="MoveRobot">
    <Fallback>
      <Sequence>
        <MoveBase goal="{target}"/>
        <Script code=" result:='goal reached' "/>
      </Sequence>
      <ForceFailure>
        <Script code=" result:='error' "/>
      </ForceFailure>
    </Fallback>
  </BehaviorTree>
</root>`

// TestTutorialT06SubTreePortRemapping is t06: a SubTree's ports remapped to the parent's
// entries, so the parent's blackboard holds move_goal (a pose) and move_result (a
// string) and the subtree's target and result are those entries, not its own.
//
// The Script move_goal='1;2;3' converts its literal with the pose's UnmarshalText, as
// in t03.
func TestTutorialT06SubTreePortRemapping(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	tutorialSay(t, r, &out)
	tutorialMoveBase(t, r, &out)
	tree := tutorialTree(t, r, "t06.xml", t06Tree, "MainTree")
	st := r.Schema().NewStore()
	assert.Equal(t, Success, tutorialRun(t, tree, st, 0.1))
	assert.Equal(t, []string{
		"[ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0",
		"[ MoveBase: FINISHED ]",
		"Robot says: goal reached",
	}, out)
	// The first blackboard: move_result (string), move_goal (a pose); the subtree's
	// target and result are remapped to them, so it has no entries of its own.
	var names []string
	for i := range r.Schema().Len() {
		names = append(names, r.Schema().Name(i))
	}
	slices.Sort(names)
	assert.Equal(t, []string{"move_goal", "move_result"}, names)
	v, _ := st.Value("move_goal")
	assert.Equal(t, tutPose2D{1, 2, 3}, v)
	v, _ = st.Value("move_result")
	assert.Equal(t, "goal reached", v)
}

// TestTutorialT07LoadMultipleXML is t07: three documents registered in any order, the main
// tree built by ID, then a subtree on its own.
func TestTutorialT07LoadMultipleXML(t *testing.T) {
	var said []string
	r := NewRegistry(nil)
	tutorialSay(t, r, &said)
	docs := []string{
		`<root BTCPP_format="4"><BehaviorTree ID="SubA"><SaySomething message="Executing SubA"/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="SubB"><SaySomething message="Executing SubB"/></BehaviorTree></root>`,
		`<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <SaySomething message="starting MainTree"/>
      <SubTree ID="SubA"/>
      <SubTree ID="SubB"/>
    </Sequence>
  </BehaviorTree>
</root>`,
	}
	for i, d := range docs {
		_, err := r.LoadXML("doc"+strconv.Itoa(i+1)+".xml", []byte(d))
		require.NoError(t, err)
	}
	ids := r.TreeIDs()
	slices.Sort(ids)
	assert.Equal(t, []string{"MainTree", "SubA", "SubB"}, ids, "registered BehaviorTrees")
	for _, id := range []string{"MainTree", "SubA"} {
		tree, err := r.Tree(id)
		require.NoError(t, err)
		assert.Equal(t, Success, tutorialRun(t, tree, nil, 0.1))
	}
	assert.Equal(t, []string{"Robot says: starting MainTree", "Robot says: Executing SubA",
		"Robot says: Executing SubB", "Robot says: Executing SubA"}, said)
}

// tutNoCopy is t08's NoCopyObj: an object the leaf uses by reference.
type tutNoCopy struct{ value int }

// TestTutorialT08AdditionalNodeArgs is t08: leaves that take extra arguments. In Go these
// are closures: Action_A's factory captures an int, a string and a pointer when it is
// registered; Action_B's captures a variable set after the tree is built and before it
// is ticked (the tutorial's visitor calling initialize).
func TestTutorialT08AdditionalNodeArgs(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	nc := &tutNoCopy{value: 88}
	actionA := func(argInt int, argStr string, nc *tutNoCopy) ActionFactory {
		return func(p *Ports) (func(*Context) Status, error) {
			name := p.Name()
			return func(*Context) Status {
				out = append(out, fmt.Sprintf("%s: %d / %s / %d", name, argInt, argStr, nc.value))
				return Success
			}, nil
		}
	}
	require.NoError(t, r.RegisterAction("Action_A", actionA(42, "hello world", nc)))
	var b struct {
		argInt int
		argStr string
	}
	require.NoError(t, r.RegisterAction("Action_B", func(p *Ports) (func(*Context) Status, error) {
		name := p.Name()
		return func(*Context) Status {
			out = append(out, fmt.Sprintf("%s: %d / %s", name, b.argInt, b.argStr))
			return Success
		}, nil
	}))
	tree := tutorialTree(t, r, "t08.xml", `<root BTCPP_format="4">
  <BehaviorTree>
    <Sequence>
      <Action_A/>
      <Action_B/>
    </Sequence>
  </BehaviorTree>
</root>`, "")
	b.argInt, b.argStr = 69, "interesting_value" // initialize, after the tree is built
	assert.Equal(t, Success, tutorialRun(t, tree, nil, 0.1))
	assert.Equal(t, []string{"Action_A: 42 / hello world / 88", "Action_B: 69 / interesting_value"}, out)
}

const t09Tree = `<root BTCPP_format="4">
  <BehaviorTree>
    <Sequence>
      <Script code=" msg:='hello world' "/>
      <Script code=" A:=THE_ANSWER; B:=3.14; color:=RED "/>
      <Precondition if="A&gt;-B &amp;&amp; color != BLUE" else="FAILURE">
        <Sequence>
          <SaySomething message="{A}"/>
          <SaySomething message="{B}"/>
          <SaySomething message="{msg}"/>
          <SaySomething message="{color}"/>
        </Sequence>
      </Precondition>
    </Sequence>
  </BehaviorTree>
</root>`

// TestTutorialT09Scripting is t09: Script with strings, numbers and registered enums, and
// a Precondition whose script reads them; SaySomething's string port reads the number
// entries as text.
//
// Difference: the tutorial documents "Robot says: 42.000000", "3.140000" and
// "1.000000": BehaviorTree.CPP's scripts hold every number as a double, which its string
// conversion prints with six decimals. Here A and color are ints (an enum is an int) and
// B a float64, and a string port prints them as ai/script does: 42, 3.14, 1.
func TestTutorialT09Scripting(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	tutorialSay(t, r, &out)
	for name, v := range map[string]int{"RED": 1, "BLUE": 2, "GREEN": 3, "THE_ANSWER": 42} {
		require.NoError(t, r.RegisterEnum(name, v))
	}
	tree := tutorialTree(t, r, "t09.xml", t09Tree, "")
	st := r.Schema().NewStore()
	assert.Equal(t, Success, tutorialRun(t, tree, st, 0.1))
	assert.Equal(t, []string{
		"Robot says: 42",
		"Robot says: 3.14",
		"Robot says: hello world",
		"Robot says: 1",
	}, out)
	for k, want := range map[string]any{"A": 42, "B": 3.14, "color": 1, "msg": "hello world"} {
		v, _ := st.Value(k)
		assert.Equal(t, want, v, k)
	}
}

// TestTutorialT10Observer is t10: BehaviorTree.CPP's TreeObserver counts each node's
// transitions, successes and failures; here a [Tracer] records them, and the counts
// are taken from its log. Each node runs once: failing_action fails, every other node
// succeeds, SubTreeB's action twice (two SubTree instances).
func TestTutorialT10Observer(t *testing.T) {
	tree := tutorialTree(t, NewRegistry(nil), "t10.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Fallback>
        <AlwaysFailure name="failing_action"/>
        <SubTree ID="SubTreeA" name="mysub"/>
      </Fallback>
      <AlwaysSuccess name="last_action"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="SubTreeA">
    <Sequence>
      <AlwaysSuccess name="action_subA"/>
      <SubTree ID="SubTreeB" name="sub_nested"/>
      <SubTree ID="SubTreeB"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="SubTreeB">
    <AlwaysSuccess name="action_subB"/>
  </BehaviorTree>
</root>`, "MainTree")
	tr := NewTracer(tree, 0)
	m := tree.NewMemory()
	assert.Equal(t, Success, tr.Tick(&m, &Context{DT: 0.1, Time: 0.1}))
	type stats struct{ transitions, success, failure int }
	got := map[string]stats{}
	var names []string
	for i := range tree.Len() {
		names = append(names, tree.NodeName(i))
	}
	for _, x := range tr.Log() {
		s := got[names[x.Node]]
		s.transitions++
		if x.To == Success {
			s.success++
		}
		if x.To == Failure {
			s.failure++
		}
		got[names[x.Node]] = s
	}
	assert.Equal(t, []string{"Sequence", "Fallback", "failing_action", "mysub", "Sequence", "action_subA",
		"sub_nested", "action_subB", "SubTreeB", "action_subB", "last_action"}, names)
	assert.Equal(t, map[string]stats{
		"Sequence":       {2, 2, 0}, // the main tree's and SubTreeA's
		"Fallback":       {1, 1, 0},
		"failing_action": {1, 0, 1},
		"mysub":          {1, 1, 0},
		"action_subA":    {1, 1, 0},
		"sub_nested":     {1, 1, 0},
		"SubTreeB":       {1, 1, 0}, // a SubTree without name is named by its ID
		"action_subB":    {2, 2, 0},
		"last_action":    {1, 1, 0},
	}, got)
	assert.Positive(t, got["last_action"].transitions)
}

// point2D parses "x,y", as tutorial t12's Point2D, or JSON after "json:" (t12's JSON
// converter).
type point2D struct{ X, Y int }

func (p *point2D) UnmarshalText(b []byte) error {
	if js, ok := strings.CutPrefix(string(b), "json:"); ok {
		var v struct{ X, Y *int }
		if err := json.Unmarshal([]byte(js), &v); err != nil || v.X == nil || v.Y == nil {
			return fmt.Errorf("%q: want json:{\"x\":…,\"y\":…}", b)
		}
		*p = point2D{*v.X, *v.Y}
		return nil
	}
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

// TestTutorialT12DefaultPorts is t12: every way to give a port a default (a Go value, an
// entry, a literal, the entry named like the port, JSON read by the type's UnmarshalText),
// and a tree written without ID.
func TestTutorialT12DefaultPorts(t *testing.T) {
	r := NewRegistry(nil)
	var got []point2D
	require.NoError(t, r.RegisterAction("NodeWithDefaultPoints", func(p *Ports) (func(*Context) Status, error) {
		ins := []In[point2D]{
			InputPort[point2D](p, "input"),
			InputPortOr(p, "pointA", point2D{1, 2}),
			InputPortDefault[point2D](p, "pointB", "{point}"),
			InputPortDefault[point2D](p, "pointC", "5,6"),
			InputPortDefault[point2D](p, "pointD", "{=}"),
			InputPortDefault[point2D](p, "pointE", `json:{"x":9,"y":10}`),
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
	assert.Equal(t, []point2D{{-1, -2}, {1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}}, got, "Result: SUCCESS")
}

// TestTutorialT13AccessByRef is t13: one port read and written (inout) holding a list,
// grown by three nodes. BehaviorTree.CPP locks the entry to change it in place; here a
// leaf reads the slice and writes it back (one agent's store is never shared).
func TestTutorialT13AccessByRef(t *testing.T) {
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

// TestTutorialT14SubTreeModel is t14 as written: the SubTree model's defaults reach the
// subtree's scripts (sub_in_value the literal 42, sub_out_result remapped to out_result),
// the SubTree remaps the other two ports, and the main tree's ScriptCondition checks the
// results. (TestSubTreeModel pins the model's errors.)
func TestTutorialT14SubTreeModel(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("t14_sub.xml", []byte(`<root BTCPP_format="4">
  <TreeNodesModel>
    <SubTree ID="MySub">
      <input_port name="sub_in_value" default="42"/>
      <input_port name="sub_in_name"/>
      <output_port name="sub_out_result" default="{out_result}"/>
      <output_port name="sub_out_state"/>
    </SubTree>
  </TreeNodesModel>
  <BehaviorTree ID="MySub">
    <Sequence>
      <ScriptCondition code="sub_in_value==42 &amp;&amp; sub_in_name=='john'"/>
      <Script code="sub_out_result:=69; sub_out_state:='ACTIVE'"/>
    </Sequence>
  </BehaviorTree>
</root>`))
	require.NoError(t, err)
	tree := tutorialTree(t, r, "t14_main.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code="in_name:= 'john' "/>
      <SubTree ID="MySub" sub_in_name="{in_name}" sub_out_state="{out_state}"/>
      <ScriptCondition code=" out_result==69 &amp;&amp; out_state=='ACTIVE' "/>
    </Sequence>
  </BehaviorTree>
</root>`, "MainTree")
	st := r.Schema().NewStore()
	assert.Equal(t, Success, tutorialRun(t, tree, st, 0.1))
	v, _ := st.Value("out_result")
	assert.EqualValues(t, 69, v)
	v, _ = st.Value("out_state")
	assert.Equal(t, "ACTIVE", v)
	assert.False(t, st.Has("sub_out_result"), "remapped by the model's default")
}

// TestTutorialT16GlobalBlackboard is t16: {@value} and @value name the root blackboard's
// entry from the main tree and from a SubTree that remaps nothing. BehaviorTree.CPP's
// global blackboard (a parent of the root one, written between ticks) is the agent's
// store here, written between ticks the same way.
func TestTutorialT16GlobalBlackboard(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("PrintNumber", func(p *Ports) (func(*Context) Status, error) {
		val := InputPort[int](p, "val")
		name := p.Name()
		return func(c *Context) Status {
			v, ok := val.Get(c)
			if !ok {
				return Failure
			}
			out = append(out, fmt.Sprintf("[%s] val: %d", name, v))
			return Success
		}, nil
	}))
	tree := tutorialTree(t, r, "t16.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <PrintNumber name="main_print" val="{@value}"/>
      <SubTree ID="MySub"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="MySub">
    <Sequence>
      <PrintNumber name="sub_print" val="{@value}"/>
      <Script code="@value_sqr := @value * @value"/>
    </Sequence>
  </BehaviorTree>
</root>`, "MainTree")
	value, err := blackboard.Lookup[int](r.Schema(), "value")
	require.NoError(t, err)
	sqr, err := blackboard.Lookup[int](r.Schema(), "value_sqr")
	require.NoError(t, err, "the script's @value_sqr is the root entry value_sqr")
	st := r.Schema().NewStore()
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1, Blackboard: st}
	for i := 1; i <= 3; i++ {
		blackboard.Set(st, value, i)
		assert.Equal(t, Success, tree.Tick(&m, ctx))
		s, _ := blackboard.Get(st, sqr)
		out = append(out, fmt.Sprintf("[While loop] value: %d value_sqr: %d", i, s))
	}
	assert.Zero(t, ctx.ScriptErrors())
	assert.Equal(t, []string{
		"[main_print] val: 1", "[sub_print] val: 1", "[While loop] value: 1 value_sqr: 1",
		"[main_print] val: 2", "[sub_print] val: 2", "[While loop] value: 2 value_sqr: 4",
		"[main_print] val: 3", "[sub_print] val: 3", "[While loop] value: 3 value_sqr: 9",
	}, out)
}

// TestTutorialT18Waypoints is t18: LoopDouble over a literal queue, and a loop over a
// queue of the user's type written by a leaf (LoopPose, BehaviorTree.CPP's
// LoopNode<Pose2D>, registered with [RegisterLoop]) whose child is asynchronous
// (UseWaypoint is Running for one tick, then succeeds: the sample's threaded action).
func TestTutorialT18Waypoints(t *testing.T) {
	var out []string
	r := NewRegistry(nil)
	require.NoError(t, RegisterLoop[tutPose2D](r, "LoopPose"))
	require.NoError(t, r.RegisterAction("GenerateWaypoints", func(p *Ports) (func(*Context) Status, error) {
		wps := OutputPort[[]tutPose2D](p, "waypoints")
		return func(c *Context) Status {
			q := make([]tutPose2D, 5)
			for i := range q {
				q[i] = tutPose2D{X: float64(i), Y: float64(i)}
			}
			wps.Set(c, q)
			return Success
		}, nil
	}))
	require.NoError(t, r.RegisterAction("PrintNumber", func(p *Ports) (func(*Context) Status, error) {
		value := InputPort[float64](p, "value")
		return func(c *Context) Status {
			v, ok := value.Get(c)
			if !ok {
				return Failure
			}
			out = append(out, fmt.Sprintf("PrintNumber: %g", v))
			return Success
		}, nil
	}))
	require.NoError(t, r.RegisterAction("UseWaypoint", func(p *Ports) (func(*Context) Status, error) {
		wp := InputPort[tutPose2D](p, "waypoint")
		return func(c *Context) Status {
			w, ok := wp.Get(c)
			if !ok {
				return Failure
			}
			if c.Node().Count == 0 { // the thread is still working
				c.Node().Count = 1
				return Running
			}
			out = append(out, fmt.Sprintf("Using waypoint: %g/%g", w.X, w.Y))
			return Success
		}, nil
	}))
	tree := tutorialTree(t, r, "t18.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="TreeA">
    <Sequence>
      <LoopDouble queue="1;2;3" value="{number}">
        <PrintNumber value="{number}"/>
      </LoopDouble>
      <GenerateWaypoints waypoints="{waypoints}"/>
      <LoopPose queue="{waypoints}" value="{wp}">
        <UseWaypoint waypoint="{wp}"/>
      </LoopPose>
    </Sequence>
  </BehaviorTree>
</root>`, "")
	assert.Equal(t, "LoopPose", tree.NodeName(4))
	assert.Equal(t, Success, tutorialRun(t, tree, r.Schema().NewStore(), 0.1))
	assert.Equal(t, []string{
		"PrintNumber: 1", "PrintNumber: 2", "PrintNumber: 3",
		"Using waypoint: 0/0", "Using waypoint: 1/1", "Using waypoint: 2/2", "Using waypoint: 3/3", "Using waypoint: 4/4",
	}, out)
}
