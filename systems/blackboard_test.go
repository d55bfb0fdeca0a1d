package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// tallyXML is a BehaviorTree.CPP v4 tree as a designer would write it in Groot2: ports
// bound to blackboard keys ({key}), SetBlackboard with a literal, CheckBlackboard, and a
// SubTree whose ports remap its keys to the parent's, and the TreeNodesModel Groot2 writes.
//
// Each think (the work branch is reactive: every child is ticked on every think) sets
// n = 3, computes scaled = n·factor (factor is the agent's own key), adds
// scaled to sum through the Accumulate subtree (its "total" is the parent's "sum") and
// walks to the agent's goal (Running). Once sum ≥ 20 the ReactiveFallback's first branch
// succeeds: it halts the walk and sets done.
const tallyXML = `<?xml version="1.0"?>
<root BTCPP_format="4" main_tree_to_execute="Tally">
  <BehaviorTree ID="Tally">
    <ReactiveFallback name="tally">
      <Sequence name="finished">
        <CheckBlackboard value_A="{sum}" op="&gt;=" value_B="20"/>
        <SetBlackboard value="true" output_key="done"/>
      </Sequence>
      <ReactiveSequence name="work">
        <SetBlackboard value="3" output_key="n"/>
        <Scale in="{n}" factor="{factor}" out="{scaled}"/>
        <SubTree ID="Accumulate" amount="{scaled}" total="{sum}"/>
        <Walk goal="{goal}"/>
      </ReactiveSequence>
    </ReactiveFallback>
  </BehaviorTree>
  <BehaviorTree ID="Accumulate">
    <Sequence>
      <Add a="{total}" b="{amount}" out="{total}"/>
      <SetBlackboard value="{amount}" output_key="last"/>
    </Sequence>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="Scale">
      <input_port name="in"/>
      <input_port name="factor"/>
      <output_port name="out"/>
    </Action>
    <Action ID="Add">
      <input_port name="a"/>
      <input_port name="b"/>
      <output_port name="out"/>
    </Action>
    <Action ID="Walk">
      <input_port name="goal"/>
    </Action>
  </TreeNodesModel>
</root>`

// tallyRegistry registers the user leaves of tallyXML. Scale multiplies two inputs; Add
// adds two (a missing a counts as 0); Walk sets the agent's Intent toward its goal port
// while Running, and stops it when halted.
func tallyRegistry(t testing.TB) *bt.Registry {
	reg := bt.NewRegistry(nil)
	require.NoError(t, reg.RegisterAction("Scale", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		in, factor := bt.InputPort[float64](p, "in"), bt.InputPort[float64](p, "factor")
		out := bt.OutputPort[float64](p, "out")
		return func(c *bt.Context) bt.Status {
			x, ok1 := in.Get(c)
			f, ok2 := factor.Get(c)
			if !ok1 || !ok2 || !out.Set(c, x*f) {
				return bt.Failure
			}
			return bt.Success
		}, nil
	}))
	require.NoError(t, reg.RegisterAction("Add", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		a, b := bt.InputPort[float64](p, "a"), bt.InputPort[float64](p, "b")
		out := bt.OutputPort[float64](p, "out")
		return func(c *bt.Context) bt.Status {
			x, _ := a.Get(c) // missing: 0
			y, ok := b.Get(c)
			if !ok || !out.Set(c, x+y) {
				return bt.Failure
			}
			return bt.Success
		}, nil
	}))
	require.NoError(t, reg.RegisterAction("Walk", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		goal := bt.InputPort[r2.Vec](p, "goal")
		p.OnHalt(func(c *bt.Context) { systems.AgentOf(c).Intent.Move = false })
		return func(c *bt.Context) bt.Status {
			g, ok := goal.Get(c)
			if !ok {
				return bt.Failure
			}
			in := systems.AgentOf(c).Intent
			in.Move, in.Goal = true, g
			return bt.Running
		}, nil
	}))
	return reg
}

func TestXMLTreeWithPortsRunsUnderDecision(t *testing.T) {
	reg := tallyRegistry(t)
	main, err := reg.LoadXML("tally.xml", []byte(tallyXML))
	require.NoError(t, err)
	tree, err := reg.Tree(main)
	require.NoError(t, err)
	schema := reg.Schema()
	// Keys the agents' stores are given at spawn, by the game rather than the tree.
	factor, err := blackboard.Lookup[float64](schema, "factor")
	require.NoError(t, err)
	goal, err := blackboard.Lookup[r2.Vec](schema, "goal")
	require.NoError(t, err)

	// A user's world, agents spawned from the public Thinker bundle.
	world := arche.NewWorld()
	spawner, err := systems.NewSpawner(&world, systems.Thinker{Tree: tree, Registry: reg, Interval: 0.125})
	require.NoError(t, err)
	agents := []struct {
		factor float64
		goal   r2.Vec
		e      arche.Entity
	}{{factor: 2, goal: r2.Vec{X: 4, Y: 5}}, {factor: 5, goal: r2.Vec{X: -1, Y: 0.5}}}
	for i := range agents {
		agents[i].e = spawner.Spawn(r2.Vec{}, func(a *systems.Spawned) {
			require.Same(t, schema, a.Blackboard.Store.Schema(), "the store has the registry's schema")
			blackboard.Set(a.Blackboard.Store, factor, agents[i].factor)
			blackboard.Set(a.Blackboard.Store, goal, agents[i].goal)
		})
	}
	// One agent without a Blackboard: its ports read as missing, so it fails, never panics.
	plain := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](&world)
	bare := plain.NewWith(&components.Brain{Tree: tree, Memory: tree.NewMemory()}, &components.Think{Interval: 0.125},
		&components.Position{}, &components.Intent{})

	dec := &systems.Decision{Workers: 2} // each worker ticks its own agents' stores
	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), dec)
	s.Initialize(&world)
	defer s.Finalize(&world)
	brains := generic.NewMap[components.Brain](&world)
	intents := generic.NewMap[components.Intent](&world)
	traces := make([]string, len(agents)+1)
	moving := make([]string, len(agents))
	for range 6 {
		s.Run(&world, 1)
		for i, a := range agents {
			traces[i] += letterOf(brains.Get(a.e).Memory.Status(0))
			if intents.Get(a.e).Move {
				moving[i] += "M"
			} else {
				moving[i] += "-"
			}
		}
		traces[len(agents)] += letterOf(brains.Get(bare).Memory.Status(0))
	}
	assert.Equal(t, int64(3*6), dec.TotalThought, "every agent thinks every frame")
	// factor 2: sum 6, 12, 18, 24 → done on the 5th think; factor 5: 15, 30 → the 3rd.
	assert.Equal(t, []string{"RRRRSS", "RRSSSS", "FFFFFF"}, traces, "root status per think")
	assert.Equal(t, []string{"MMMM--", "MM----"}, moving, "Walk halted when the tally is done")

	bbs := generic.NewMap[components.Blackboard](&world)
	for i, want := range []struct {
		scaled, sum float64
	}{{6, 24}, {15, 30}} {
		st := bbs.Get(agents[i].e).Store
		value := func(name string) any {
			v, ok := st.Value(name)
			require.True(t, ok, "agent %d key %q", i, name)
			return v
		}
		assert.Equal(t, 3.0, value("n"), "SetBlackboard typed by the Scale port reading it")
		assert.Equal(t, want.scaled, value("scaled"), "computed from ports")
		assert.Equal(t, want.sum, value("sum"), "written through the SubTree's remapped total")
		assert.Equal(t, true, value("done"))
		assert.Equal(t, want.scaled, value("Accumulate#1.last"), "the SubTree's private key")
		assert.False(t, st.Has("last"), "private keys stay in the SubTree's scope")
		assert.False(t, st.Has("total"), "remapped keys are the parent's")
		assert.Equal(t, agents[i].goal, intents.Get(agents[i].e).Goal)
	}
}

// letterOf is a status as one letter: Idle -, Running R, Success S, Failure F.
func letterOf(s bt.Status) string {
	switch s {
	case bt.Running:
		return "R"
	case bt.Success:
		return "S"
	case bt.Failure:
		return "F"
	}
	return "-"
}

// TestBlackboardThinkAllocatesNothing: a frame of perception and decisions whose
// leaves read and write float64, r2.Vec and arche.Entity keys allocates nothing.
func TestBlackboardThinkAllocatesNothing(t *testing.T) {
	reg := guardRegistry(t)
	require.NoError(t, reg.RegisterAction("Tick", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		hp := bt.InputPort[float64](p, "hp")
		hpOut := bt.OutputPort[float64](p, "hp_out")
		at, atOut := bt.InputPort[r2.Vec](p, "at"), bt.OutputPort[r2.Vec](p, "at_out")
		who, whoOut := bt.InputPort[arche.Entity](p, "who"), bt.OutputPort[arche.Entity](p, "who_out")
		return func(c *bt.Context) bt.Status {
			h, _ := hp.Get(c)
			hpOut.Set(c, h-1)
			v, _ := at.Get(c)
			atOut.Set(c, r2.Add(v, r2.Vec{X: 1}))
			e, _ := who.Get(c)
			whoOut.Set(c, e)
			return bt.Success
		}, nil
	}))
	doc := `<root BTCPP_format="4" main_tree_to_execute="Busy">
  <BehaviorTree ID="Busy">
    <ReactiveSequence>
      <Tick hp="{hp}" hp_out="{hp}" at="{spot}" at_out="{spot}" who="{target}" who_out="{last_target}"/>
      <SetBlackboard value="{spot}" output_key="spot_copy"/>
      <SubTree ID="Guard" _autoremap="true"/>
    </ReactiveSequence>
  </BehaviorTree>` + guardXML[len(`<root BTCPP_format="4" main_tree_to_execute="Guard">`):]
	main, err := reg.LoadXML("busy.xml", []byte(doc))
	require.NoError(t, err)
	tree, err := reg.Tree(main)
	require.NoError(t, err)
	hp, err := blackboard.Lookup[float64](reg.Schema(), "hp")
	require.NoError(t, err)

	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(32, 32))
	guards := generic.NewMap8[components.Brain, components.Think, components.Position, components.Velocity,
		components.Intent, components.Faction, components.Perception, components.Blackboard](&world)
	for i := range 64 {
		st := reg.Schema().NewStore()
		blackboard.Set(st, hp, 1e6)
		guards.NewWith(
			&components.Brain{Tree: tree, Memory: tree.NewMemory()},
			&components.Think{Interval: 0.125, Next: float64(i%4) / 32},
			&components.Position{Vec: r2.Vec{X: 1.5 + float64(i%8)*3, Y: 1.5 + float64(i/8)*3}},
			&components.Velocity{},
			&components.Intent{},
			&components.Faction{Team: uint8(i % 2)},
			&components.Perception{SightRange: 6},
			&components.Blackboard{Store: st},
		)
	}
	dec := &systems.Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/32), &systems.Spatial{}, &systems.Perception{Workers: 1}, dec)
	s.Initialize(&world)
	defer s.Finalize(&world)
	s.Run(&world, 8) // warm up: every agent thought twice
	allocs := testing.AllocsPerRun(40, func() { s.Run(&world, 1) })
	assert.Zero(t, allocs)
	assert.Equal(t, 16, dec.Thought, "a quarter of the agents think per frame")
	spot, err := blackboard.Lookup[r2.Vec](reg.Schema(), "spot_copy")
	require.NoError(t, err)
	var agent arche.Entity
	q := generic.NewFilter1[components.Blackboard]().Query(&world)
	for q.Next() {
		agent = q.Entity()
		st := q.Get().Store
		v, ok := blackboard.Get(st, spot)
		assert.True(t, ok)
		assert.Equal(t, 0.0, v.Y)
		assert.Equal(t, 13.0, v.X, "one step per think: frames 0, 4, ..., 48 of 1/32 s")
		h, _ := blackboard.Get(st, hp)
		assert.Equal(t, 1e6-13, h)
		q.Close()
		break
	}
	assert.False(t, agent.IsZero())
}

// TestUtilityAndFSMReadTheBlackboard: a utility consideration reads a key through
// utility.KeyInput, a state machine's guard through ctx.Blackboard; agents without a
// Blackboard read the keys as missing.
func TestUtilityAndFSMReadTheBlackboard(t *testing.T) {
	schema := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](schema, "threat")
	alarm := blackboard.MustDeclare[bool](schema, "alarm")

	r, err := utility.New("watch", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{
			{Name: "threat", Input: utility.KeyInput(threat), Curve: utility.Linear(1, 0)}},
			Act: func(agent any) { systems.UtilityAgent(agent).Intent.Move = true }},
		utility.Action{Name: "stay", Weight: 0.5,
			Act: func(agent any) { systems.UtilityAgent(agent).Intent.Move = false }})
	require.NoError(t, err)
	b := fsm.NewBuilder("sentry")
	calm := b.State("Calm", fsm.Hooks{})
	alert := b.State("Alert", fsm.Hooks{})
	b.When(calm, func(c *fsm.Context) bool {
		v, _ := blackboard.Get(c.Blackboard, alarm)
		return v && systems.StateAgent(c).Blackboard == c.Blackboard
	}, alert)
	machine, err := b.Build()
	require.NoError(t, err)

	world := arche.NewWorld()
	thinkers := generic.NewMap5[components.Think, components.Position, components.Intent,
		components.UtilityBrain, components.Blackboard](&world)
	sentries := generic.NewMap5[components.Think, components.Position, components.Intent,
		components.StateMachine, components.Blackboard](&world)
	var withBB, noBB []arche.Entity
	for i, level := range []float64{0.9, 0.1} {
		st := schema.NewStore()
		blackboard.Set(st, threat, level)
		blackboard.Set(st, alarm, i == 0)
		withBB = append(withBB, thinkers.NewWith(&components.Think{Interval: 0.125}, &components.Position{},
			&components.Intent{}, &components.UtilityBrain{Reasoner: r, State: r.NewState()},
			&components.Blackboard{Store: st}))
		withBB = append(withBB, sentries.NewWith(&components.Think{Interval: 0.125}, &components.Position{},
			&components.Intent{}, &components.StateMachine{Machine: machine}, &components.Blackboard{Store: st}))
	}
	plainU := generic.NewMap4[components.Think, components.Position, components.Intent, components.UtilityBrain](&world)
	plainS := generic.NewMap4[components.Think, components.Position, components.Intent, components.StateMachine](&world)
	noBB = append(noBB,
		plainU.NewWith(&components.Think{Interval: 0.125}, &components.Position{}, &components.Intent{Move: true},
			&components.UtilityBrain{Reasoner: r, State: r.NewState()}),
		plainS.NewWith(&components.Think{Interval: 0.125}, &components.Position{}, &components.Intent{},
			&components.StateMachine{Machine: machine}))

	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), &systems.Utility{}, &systems.FSM{})
	s.Initialize(&world)
	defer s.Finalize(&world)
	s.Run(&world, 3)
	brains := generic.NewMap[components.UtilityBrain](&world)
	machines := generic.NewMap[components.StateMachine](&world)
	intents := generic.NewMap[components.Intent](&world)
	assert.Equal(t, "flee", r.ActionName(brains.Get(withBB[0]).State.Choice), "threat 0.9")
	assert.True(t, intents.Get(withBB[0]).Move)
	assert.Equal(t, "stay", r.ActionName(brains.Get(withBB[2]).State.Choice), "threat 0.1")
	assert.Equal(t, "stay", r.ActionName(brains.Get(noBB[0]).State.Choice), "no blackboard: threat missing, scores 0")
	assert.False(t, intents.Get(noBB[0]).Move)
	assert.Equal(t, alert, machines.Get(withBB[1]).Memory.Active, "alarm set")
	assert.Equal(t, calm, machines.Get(withBB[3]).Memory.Active, "alarm false")
	assert.Equal(t, calm, machines.Get(noBB[1]).Memory.Active, "no blackboard: alarm missing")
}
