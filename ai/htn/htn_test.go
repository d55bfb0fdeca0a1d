package htn

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soldier builds in Go the domain of testdata/soldier.json.
func soldier(t *testing.T, run Operator) *Domain {
	b := NewBuilder("soldier")
	enemy, ammo, cover, suppressed := b.Fact("enemy"), b.Fact("ammo"), b.Fact("cover"), b.Fact("suppressed")
	b.Fact("noise")
	combat := b.Compound("Combat")
	getCover := b.Compound("GetCover")
	reload := b.Primitive("Reload", Primitive{Effects: []Effect{Set(ammo, 2)}, Run: run})
	flank := b.Primitive("MoveFlank", Primitive{Effects: []Effect{Set(cover, 0)}, Run: run})
	fire := b.Primitive("Fire", Primitive{If: []Condition{Is(ammo, Gt, 0)}, Effects: []Effect{Add(ammo, -1), Set(suppressed, 1)}, Run: run})
	hold := b.Primitive("Hold", Primitive{})
	take := b.Primitive("TakeCover", Primitive{If: []Condition{Is(cover, Eq, 0)}, Effects: []Effect{Set(cover, 1)}, Run: run})
	patrol := b.Primitive("Patrol", Primitive{Run: run})
	b.Method(combat, Method{Name: "ReloadFirst", If: []Condition{Is(ammo, Eq, 0)}, Tasks: []TaskID{reload}})
	b.Method(combat, Method{Name: "Flank", If: []Condition{Is(enemy, Ne, 0), Is(suppressed, Ne, 0)}, Tasks: []TaskID{flank, fire}})
	b.Method(combat, Method{Name: "Suppress", If: []Condition{Is(enemy, Ne, 0)}, Tasks: []TaskID{getCover, fire, fire}})
	b.Method(combat, Method{Name: "Patrol", Tasks: []TaskID{patrol}})
	b.Method(getCover, Method{Name: "Stay", If: []Condition{Is(cover, Eq, 1)}, Tasks: []TaskID{hold}})
	b.Method(getCover, Method{Name: "Move", Tasks: []TaskID{take}})
	b.Root(combat)
	d, err := b.Build()
	require.NoError(t, err)
	return d
}

func loaded(t *testing.T, run Operator) *Domain {
	var r Registry
	for _, name := range []string{"Reload", "MoveFlank", "Fire", "TakeCover", "Patrol"} {
		require.NoError(t, r.RegisterOperator(name, run, nil))
	}
	data, err := os.ReadFile("testdata/soldier.json")
	require.NoError(t, err)
	id, err := r.LoadJSON("soldier.json", data)
	require.NoError(t, err)
	return r.Domain(id)
}

func state(d *Domain, kv map[string]int32) State {
	var s State
	for k, v := range kv {
		f, ok := d.FactIndex(k)
		if !ok {
			panic(k)
		}
		s[f] = v
	}
	return s
}

func planNames(d *Domain, p *Plan) string {
	var out []string
	for _, t := range p.TaskList() {
		out = append(out, d.TaskName(t))
	}
	return strings.Join(out, " ")
}

func instant(*Context) Status { return Success }

// TestPlans pins method order, method and task conditions, and effects, on the Go and
// the JSON form of one domain.
func TestPlans(t *testing.T) {
	cases := []struct {
		name  string
		state map[string]int32
		plan  string
		mtr   []uint8
	}{
		// the first method whose conditions hold wins, though Suppress would apply too
		{"method order", map[string]int32{"enemy": 1, "ammo": 0}, "Reload", []uint8{0}},
		// Flank needs suppressed: without it, Suppress
		{"method condition", map[string]int32{"enemy": 1, "ammo": 2}, "TakeCover Fire Fire", []uint8{2, 1}},
		{"method condition holds", map[string]int32{"enemy": 1, "ammo": 2, "suppressed": 1}, "MoveFlank Fire", []uint8{1}},
		// nested compound: already in cover, GetCover's first method
		{"nested order", map[string]int32{"enemy": 1, "ammo": 2, "cover": 1}, "Hold Fire Fire", []uint8{2, 0}},
		// effects: the first Fire spends the only round, the second's condition fails,
		// Suppress is rolled back and Patrol taken
		{"effects", map[string]int32{"enemy": 1, "ammo": 1}, "Patrol", []uint8{3}},
		{"no enemy", map[string]int32{"ammo": 3}, "Patrol", []uint8{3}},
	}
	for _, form := range []struct {
		name string
		d    *Domain
	}{{"go", soldier(t, instant)}, {"json", loaded(t, instant)}} {
		var p Planner
		for _, c := range cases {
			s := state(form.d, c.state)
			before := s
			var plan Plan
			require.NoError(t, p.Plan(form.d, &s, &plan), "%s %s", form.name, c.name)
			assert.Equal(t, c.plan, planNames(form.d, &plan), "%s %s", form.name, c.name)
			assert.Equal(t, c.mtr, plan.MTR[:plan.MTRLen], "%s %s", form.name, c.name)
			assert.Equal(t, before, s, "planning leaves the state alone")
		}
		assert.Zero(t, p.ScriptErrors)
	}
}

func TestPlanReads(t *testing.T) {
	d := soldier(t, instant)
	var p Planner
	var plan Plan
	s := state(d, map[string]int32{"ammo": 0})
	require.NoError(t, p.Plan(d, &s, &plan))
	ammo, _ := d.FactIndex("ammo")
	assert.Equal(t, uint64(1)<<ammo, plan.Reads, "only ammo was read: ReloadFirst holds")
	noise, _ := d.FactIndex("noise")
	s = state(d, map[string]int32{"ammo": 2})
	require.NoError(t, p.Plan(d, &s, &plan))
	assert.Zero(t, plan.Reads&(1<<noise), "noise is read by no condition")
	// the JSON form's scripts read every fact they name ("enemy && suppressed" names
	// suppressed, which the Go form's Is conditions skip once enemy fails): a superset
	dj := loaded(t, instant)
	var pj Plan
	require.NoError(t, p.Plan(dj, &s, &pj))
	assert.Equal(t, plan.Reads, pj.Reads&plan.Reads)
	suppressed, _ := d.FactIndex("suppressed")
	assert.Equal(t, plan.Reads|1<<suppressed, pj.Reads)
}

func TestPlanAllocatesNothing(t *testing.T) {
	for _, d := range []*Domain{soldier(t, instant), loaded(t, instant)} {
		var p Planner
		var plan Plan
		s := state(d, map[string]int32{"enemy": 1, "ammo": 2})
		require.NoError(t, p.Plan(d, &s, &plan))
		assert.Zero(t, testing.AllocsPerRun(100, func() { _ = p.Plan(d, &s, &plan) }), d.Name())
	}
}

// TestReplanning runs the soldier with operators that take 0.3 s each and pins the
// plans: a change of a fact the plan read that allows a better method replaces the
// plan; a change that does not is ignored; a failing operator drops the plan.
func TestReplanning(t *testing.T) {
	fail := map[string]bool{}
	var halts []string
	var d *Domain
	run := func(c *Context) Status {
		if fail[d.TaskName(c.Task)] {
			return Failure
		}
		if c.Time-c.Start < 0.3-1e-9 {
			return Running
		}
		return Success
	}
	d = soldier(t, run)
	for i := range d.tasks {
		d.tasks[i].primitive.Halt = func(c *Context) { halts = append(halts, d.TaskName(c.Task)) }
	}
	var p Planner
	var r Run
	s := state(d, map[string]int32{"ammo": 2})
	now := 0.0
	tick := func() Status {
		ctx := Context{Time: now, DT: 0.1}
		st := d.Tick(&r, &s, &p, &ctx)
		now += 0.1
		return st
	}
	assert.Equal(t, Running, tick())
	assert.Equal(t, "Patrol", planNames(d, &r.Plan))
	// noise is read by no condition: no replan
	s[4] = 1
	assert.Equal(t, Running, tick())
	assert.Equal(t, uint32(1), r.Plans)
	// an enemy: Suppress (method 2) ranks before Patrol (3): replaced, Patrol halted
	s[0] = 1
	assert.Equal(t, Running, tick())
	assert.Equal(t, "TakeCover Fire Fire", planNames(d, &r.Plan))
	assert.Equal(t, []string{"Patrol"}, halts)
	assert.Equal(t, uint32(1), r.Replaced)
	// TakeCover done after 0.3 s; then the first Fire runs; its effect will set
	// suppressed, but only when it succeeds
	for range 4 {
		tick()
	}
	assert.Equal(t, "Fire", d.TaskName(r.Current()))
	assert.Equal(t, 1, r.Step)
	// the first Fire succeeds: ammo 1, suppressed 1. Effects applied by the plan itself
	// are not changes from outside: no replan (Flank would rank before Suppress).
	for range 3 {
		tick()
	}
	assert.Equal(t, 2, r.Step)
	assert.Equal(t, uint32(1), r.Replaced)
	// the second Fire fails: the plan is dropped and the root planned again from the
	// believed state (ammo 1, suppressed 1): Flank
	fail["Fire"] = true
	assert.Equal(t, Running, tick())
	assert.Equal(t, "MoveFlank Fire", planNames(d, &r.Plan))
	assert.Equal(t, uint32(1), r.Failures)
	// a running MoveFlank; the enemy goes away: Patrol ranks after Flank, no switch
	s[0] = 0
	tick()
	assert.Equal(t, "MoveFlank Fire", planNames(d, &r.Plan))
	// MoveFlank succeeds; Fire cannot start: its operator fails, the plan is dropped,
	// and the next plan is Patrol
	for range 3 {
		tick()
	}
	assert.Equal(t, "Patrol", planNames(d, &r.Plan))
	assert.Equal(t, uint32(2), r.Failures)
}

func TestTickAllocatesNothing(t *testing.T) {
	d := loaded(t, func(c *Context) Status {
		if c.Time-c.Start < 0.2 {
			return Running
		}
		return Success
	})
	var p Planner
	var r Run
	s := state(d, map[string]int32{"enemy": 1, "ammo": 2})
	ctx := Context{}
	for range 10 {
		d.Tick(&r, &s, &p, &ctx)
		ctx.Time += 0.1
	}
	allocs := testing.AllocsPerRun(200, func() {
		s[0] ^= 1 // the enemy comes and goes: replans
		d.Tick(&r, &s, &p, &ctx)
		ctx.Time += 0.1
	})
	assert.Zero(t, allocs)
	assert.Greater(t, r.Plans, uint32(10))
}

// TestBuildRefusesLeftRecursion: a method whose first subtask leads back to its own
// task recurses in an unchanged state until MaxDepth and never plans (newbie20
// finding 4: a root decomposing only into itself loaded, and its agents idled).
// Build refuses it with ErrCycle naming the cycle, direct or through other tasks'
// first subtasks, whatever the method's conditions; recursion after a primitive
// task (right recursion, a loop that ends when its condition fails) is fine.
func TestBuildRefusesLeftRecursion(t *testing.T) {
	b := NewBuilder("self")
	x := b.Compound("X")
	b.Method(x, Method{Name: "Again", Tasks: []TaskID{x}})
	b.Root(x)
	_, err := b.Build()
	require.ErrorIs(t, err, ErrCycle)
	assert.Contains(t, err.Error(), `domain "self": task "X"`)
	assert.Contains(t, err.Error(), `"X" → "X"`)
	// the same from a file: a load error
	_, err = (&Registry{}).LoadJSON("x.json", []byte(`{"name": "x", "facts": [], "root": "X",
		"tasks": [{"name": "X", "methods": [{"tasks": ["X"]}]}]}`))
	require.ErrorIs(t, err, ErrCycle)
	assert.Contains(t, err.Error(), `task "X"`)

	b = NewBuilder("indirect")
	f := b.Fact("hungry")
	eat := b.Primitive("Eat", Primitive{Effects: []Effect{Set(f, 0)}})
	root := b.Compound("Root")
	y, z := b.Compound("Y"), b.Compound("Z")
	b.Method(root, Method{Name: "Go", Tasks: []TaskID{eat, y}})
	b.Method(y, Method{Name: "ToZ", If: []Condition{Is(f, Eq, 1)}, Tasks: []TaskID{z, eat}})
	b.Method(y, Method{Name: "Done"})
	b.Method(z, Method{Name: "Eat", Tasks: []TaskID{eat}})
	b.Method(z, Method{Name: "Back", Tasks: []TaskID{y}})
	b.Root(root)
	_, err = b.Build()
	require.ErrorIs(t, err, ErrCycle)
	assert.Contains(t, err.Error(), `"Y" → "Z" → "Y"`)

	b = NewBuilder("right")
	f = b.Fact("left")
	step := b.Primitive("Step", Primitive{If: []Condition{Is(f, Gt, 0)}, Effects: []Effect{Add(f, -1)}})
	loop := b.Compound("Loop")
	b.Method(loop, Method{Name: "More", If: []Condition{Is(f, Gt, 0)}, Tasks: []TaskID{step, loop}})
	b.Method(loop, Method{Name: "Done"})
	b.Root(loop)
	d, err := b.Build()
	require.NoError(t, err)
	var p Planner
	var plan Plan
	require.NoError(t, p.Plan(d, &State{3}, &plan))
	assert.Equal(t, 3, plan.Len)
}

func TestRecursionIsBounded(t *testing.T) {
	// a task whose method starts with the task itself is refused at Build (ErrCycle);
	// one that starts with a primitive task without a condition nor an effect
	// recurses for ever too: the planner bounds it
	b := NewBuilder("loop")
	loop := b.Compound("Loop")
	noop := b.Primitive("Noop", Primitive{})
	b.Method(loop, Method{Name: "Again", Tasks: []TaskID{noop, loop}})
	b.Root(loop)
	d, err := b.Build()
	require.NoError(t, err)
	var p Planner
	var plan Plan
	assert.ErrorIs(t, p.Plan(d, &State{}, &plan), ErrDepth)

	// two methods that both recurse: 2^MaxDepth tries without the budget
	b = NewBuilder("fork")
	fork := b.Compound("Fork")
	noop = b.Primitive("Noop", Primitive{})
	b.Method(fork, Method{Name: "A", Tasks: []TaskID{noop, fork}})
	b.Method(fork, Method{Name: "B", Tasks: []TaskID{noop, fork}})
	b.Root(fork)
	d, err = b.Build()
	require.NoError(t, err)
	assert.ErrorIs(t, p.Plan(d, &State{}, &plan), ErrBudget)
	assert.Equal(t, DefaultMaxVisits, p.Visits)

	b = NewBuilder("long")
	step := b.Primitive("Step", Primitive{})
	long := b.Compound("Long")
	tasks := make([]TaskID, MaxPlan+1)
	for i := range tasks {
		tasks[i] = step
	}
	b.Method(long, Method{Name: "All", Tasks: tasks})
	b.Root(long)
	d, err = b.Build()
	require.NoError(t, err)
	assert.ErrorIs(t, p.Plan(d, &State{}, &plan), ErrLength)
}

func TestLoadErrorsNameFileAndPath(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	cases := []struct{ json, want string }{
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "if": "a >", "tasks": ["G"]}]}, {"name": "G", "operator": "Go"}]}`,
			"htn: bad.json:1:94: tasks[0].methods[0].if:"},
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "tasks": ["Nope"]}]}]}`,
			`htn: bad.json:1:104: tasks[0].methods[0].tasks[0]: unknown task "Nope"`},
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "effects": "b = 1", "operator": "Go"}]}`,
			"htn: bad.json:1:68: tasks[0].effects:"},
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "effects": "b := 1", "operator": "Go"}]}`,
			"effect writes something that is not a fact"},
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R"}]}`,
			`htn: bad.json:1:54: tasks[0].operator: no operator "R" registered`},
		{`{"name": "x", "facts": ["a"], "root": "S", "tasks": [{"name": "R", "operator": "Go"}]}`,
			`htn: bad.json:1:31: root: no root task: "S"`},
		{`{"name": "x", "facts": ["a", "a"], "root": "R", "tasks": []}`, "htn: bad.json:1:30: facts[1]:"},
		{`{"name": "x", "facts": ["true"], "root": "R", "tasks": []}`, "htn: bad.json:1:25: facts[0]: name empty or used twice: \"true\" is not an identifier"},
		{`{"name": "x", "fact": []}`, `htn: bad.json:1:15: unknown field "fact"`},
		{"{\n\"name\": \"x\",\n,}", "htn: bad.json:3:"},
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "methods": []}]}`,
			"htn: bad.json:1:68: tasks[0].methods: compound task without a method"},
		// newbie23's slips: = for == in a condition, == for = in an effect
		{`{"name": "x", "facts": ["hunger"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "if": "hunger = 60", "tasks": ["G"]}]}, {"name": "G", "operator": "Go"}]}`,
			`htn: bad.json:1:99: tasks[0].methods[0].if: condition assigns a fact (== compares): "hunger = 60"`},
		{`{"name": "x", "facts": ["hunger"], "root": "R", "tasks": [{"name": "R", "while": "hunger = 0", "operator": "Go"}]}`,
			`htn: bad.json:1:73: tasks[0].while: condition assigns a fact (== compares): "hunger = 0"`},
		{`{"name": "x", "facts": ["a", "b"], "root": "R", "tasks": [{"name": "R", "if": "a > 0 && (b += 1) > 0", "operator": "Go"}]}`,
			`condition assigns a fact (== compares)`},
		{`{"name": "x", "facts": ["hunger"], "root": "R", "tasks": [{"name": "R", "effects": "hunger == 0", "operator": "Go"}]}`,
			`htn: bad.json:1:73: tasks[0].effects: effect statement assigns nothing (= assigns): "hunger == 0"`},
		{`{"name": "x", "facts": ["a", "b"], "root": "R", "tasks": [{"name": "R", "effects": "a = 1; b", "operator": "Go"}]}`,
			`effect statement assigns nothing (= assigns)`},
		{`{"name": "x", "facts": ["wood"], "root": "R", "tasks": [{"name": "R", "effects": "wood += 0.5", "operator": "Go"}]}`,
			`htn: bad.json:1:71: tasks[0].effects: effect assigns a fractional number to a fact (facts are integers): "wood += 0.5"`},
		{`{"name": "x", "facts": ["a", "b"], "root": "R", "tasks": [{"name": "R", "effects": "a = b / 2", "operator": "Go"}]}`,
			`effect assigns a fractional number to a fact`},
	}
	for _, c := range cases {
		_, err := r.LoadJSON("bad.json", []byte(c.json))
		require.Error(t, err, c.json)
		assert.Contains(t, err.Error(), c.want, c.json)
	}
}

func TestTickDropsAPlanItCannotRun(t *testing.T) {
	d := soldier(t, instant)
	var p Planner
	s := state(d, map[string]int32{"ammo": 3})
	for _, r := range []Run{
		{Plan: Plan{Len: 99}},
		{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{0}}}, // the compound root
		{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{500}}},
		{Plan: Plan{Len: 1}, Step: -3},
	} {
		ctx := Context{}
		assert.NotPanics(t, func() { d.Tick(&r, &s, &p, &ctx) })
		assert.Equal(t, "Patrol", planNames(d, &r.Plan), "replanned from the root")
	}
}

// TestEvents pins the transition log of a short run: a plan, its tasks, a better plan
// replacing it (the running task halted), a failure and the replan.
func TestEvents(t *testing.T) {
	fail := false
	var d *Domain
	d = soldier(t, func(c *Context) Status {
		if fail && d.TaskName(c.Task) == "Fire" {
			return Failure
		}
		if c.Memory[0]++; c.Memory[0] < 2 {
			return Running
		}
		return Success
	})
	var log []string
	var p Planner
	var r Run
	s := state(d, map[string]int32{"ammo": 2})
	ctx := Context{Observe: func(ev Event) {
		e := ev.Kind.String()
		if ev.Task != NoTask {
			e += " " + d.TaskName(ev.Task)
		}
		log = append(log, e)
	}}
	tick := func() {
		d.Tick(&r, &s, &p, &ctx)
		log = append(log, "|")
	}
	tick()   // Patrol starts
	s[0] = 1 // an enemy
	tick()   // Suppress replaces Patrol
	tick()   // TakeCover done, Fire starts
	fail = true
	tick() // Fire fails: replan (ammo 2, suppressed 0, cover 1): Hold Fire Fire
	assert.Equal(t, []string{
		"plan", "start Patrol", "|",
		"halt Patrol", "replace", "start TakeCover", "|",
		"success TakeCover", "start Fire", "|",
		"failure Fire", "plan", "start Hold", "success Hold", "start Fire", "failure Fire",
		"plan", "start Hold", "success Hold", "start Fire", "failure Fire",
		"plan", "start Hold", "success Hold", "start Fire", "failure Fire", "|",
	}, log)
	assert.Equal(t, Failure, r.Status, "three plans in one think at most")
	log = log[:0]
	tick()
	tick()
	assert.Equal(t, []string{"plan", "start Hold", "success Hold", "start Fire", "failure Fire", "plan", "start Hold", "success Hold",
		"start Fire", "failure Fire", "plan", "start Hold", "success Hold", "start Fire", "failure Fire", "|",
		"plan", "start Hold", "success Hold", "start Fire", "failure Fire", "plan", "start Hold", "success Hold",
		"start Fire", "failure Fire", "plan", "start Hold", "success Hold", "start Fire", "failure Fire", "|"}, log)
}

// TestWhile: a running task whose While condition fails is halted and the agent
// replans, in the same think.
func TestWhile(t *testing.T) {
	var r Registry
	var halted []string
	require.NoError(t, r.RegisterOperator("Guard", func(*Context) Status { return Running },
		func(*Context) { halted = append(halted, "Guard") }))
	require.NoError(t, r.RegisterOperator("Rest", func(*Context) Status { return Running }, nil))
	id, err := r.LoadJSON("w.json", []byte(`{"name": "w", "facts": ["alarm", "tired"], "root": "R", "tasks": [
	  {"name": "R", "methods": [{"name": "Alarm", "if": "alarm", "tasks": ["Guard"]}, {"name": "Else", "tasks": ["Rest"]}]},
	  {"name": "Guard", "while": "!tired"},
	  {"name": "Rest"}]}`))
	require.NoError(t, err)
	d := r.Domain(id)
	var p Planner
	var run Run
	s := State{1, 0}
	ctx := Context{}
	d.Tick(&run, &s, &p, &ctx)
	assert.Equal(t, "Guard", d.TaskName(run.Current()))
	s[1] = 1 // tired: read by no planning condition, but by Guard's While
	assert.Equal(t, Running, d.Tick(&run, &s, &p, &ctx))
	assert.Equal(t, []string{"Guard"}, halted)
	// the replan cannot take Guard (its While is checked while planning): Rest
	assert.Equal(t, "Rest", d.TaskName(run.Current()))
	assert.Equal(t, uint32(1), run.Failures)
}

// A name of 50 KB in a file (a task, fact, operator, sensor, root, unknown field, a cycle
// through 40 tasks) makes a short error: names are quoted cut to 64 bytes with their
// length, another package's message is cut in the middle, a long cycle is named by its
// ends.
func TestLoadErrorsQuoteLongNamesShort(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	big := strings.Repeat("Q", 50000)
	cut := `"` + strings.Repeat("Q", 64) + `"…(50000 bytes)`
	var cycle strings.Builder
	for i := range 40 {
		fmt.Fprintf(&cycle, `, {"name": "C%d", "methods": [{"name": "m", "tasks": ["C%d"]}]}`, i, (i+1)%40)
	}
	cases := []struct{ json, want string }{
		{`{"name": "x", "facts": ["a"], "root": "` + big + `", "tasks": [{"name": "P", "operator": "Go"}]}`,
			"htn: bad.json:1:31: root: no root task: " + cut + " is not a task of the file"},
		{`{"name": "x", "facts": ["a"], "root": "P", "tasks": [{"name": "P", "operator": "` + big + `"}]}`,
			"htn: bad.json:1:68: tasks[0].operator: no operator " + cut + " registered"},
		{`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "tasks": ["` + big + `"]}]}]}`,
			"htn: bad.json:1:104: tasks[0].methods[0].tasks[0]: unknown task " + cut},
		{`{"name": "x", "facts": ["` + big + `?"], "root": "P", "tasks": []}`, "htn: bad.json:1:25: facts[0]: name empty or used twice: \"QQQQ"},
		{`{"name": "x", "facts": ["a"], "sensor": "` + big + `", "root": "P", "tasks": []}`, "htn: bad.json:1:31: sensor: no sensor " + cut + " registered"},
		{`{"name": "x", "` + big + `": 1}`, `htn: bad.json:1:15: unknown field "QQQQ`},
		{`{"name": "` + big + `", "facts": ["a"], "root": "P", "tasks": [{"name": "P", "operator": "Go"}, {"name": "` + big + `", "operator": "Go"}, {"name": "P", "operator": "Go"}]}`,
			"htn: bad.json:1:100119: tasks[2].name: name empty or used twice: \"P\""},
		{`{"name": "x", "facts": ["a"], "root": "C0", "tasks": [{"name": "P", "operator": "Go"}` + cycle.String() + `]}`,
			`htn: bad.json: domain "x": task "C0": method recurses into its own task before any effect (left recursion): "C0" → "C1" → "C2" → "C3" → …(34 more) → "C38" → "C39" → "C0"`},
	}
	for _, c := range cases {
		_, err := r.LoadJSON("bad.json", []byte(c.json))
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
		assert.Less(t, len(err.Error()), 400, "%.300s", err.Error())
	}
}
