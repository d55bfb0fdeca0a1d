package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
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

// guardXML chases a visible foe through the perception keys, else searches where one was
// last seen, else idles.
const guardXML = `<root BTCPP_format="4" main_tree_to_execute="Guard">
  <BehaviorTree ID="Guard">
    <ReactiveFallback>
      <ReactiveSequence name="chase">
        <CheckBlackboard value_A="{target_visible}" op="==" value_B="true"/>
        <Strike target="{target}"/>
        <MoveTo goal="{target_position}"/>
      </ReactiveSequence>
      <ReactiveSequence name="search">
        <CheckBlackboard value_A="{last_seen_time}" op="&gt;=" value_B="0"/>
        <MoveTo goal="{last_seen_position}"/>
      </ReactiveSequence>
      <AlwaysFailure/>
    </ReactiveFallback>
  </BehaviorTree>
</root>`

// guardRegistry registers MoveTo (Intent toward its goal port, Running) and Strike
// (Intent.Attack = its target port).
func guardRegistry(t testing.TB) *bt.Registry {
	reg := bt.NewRegistry(nil)
	require.NoError(t, systems.DeclarePerceptionKeys(reg.Schema()))
	require.NoError(t, reg.RegisterAction("MoveTo", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		goal := bt.InputPort[r2.Vec](p, "goal")
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
	require.NoError(t, reg.RegisterAction("Strike", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		target := bt.InputPort[arche.Entity](p, "target")
		return func(c *bt.Context) bt.Status {
			e, ok := target.Get(c)
			if !ok {
				return bt.Failure
			}
			systems.AgentOf(c).Intent.Attack = e
			return bt.Success
		}, nil
	}))
	return reg
}

func TestPerceptionKeysReachTheTree(t *testing.T) {
	reg := guardRegistry(t)
	main, err := reg.LoadXML("guard.xml", []byte(guardXML))
	require.NoError(t, err)
	tree, err := reg.Tree(main)
	require.NoError(t, err)

	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(20, 20))
	guards := generic.NewMap8[components.Brain, components.Think, components.Position, components.Velocity,
		components.Intent, components.Faction, components.Perception, components.Blackboard](&world)
	guard := guards.NewWith(
		&components.Brain{Tree: tree, Memory: tree.NewMemory()},
		&components.Think{Interval: 0.125},
		&components.Position{Vec: r2.Vec{X: 5.5, Y: 5.5}},
		&components.Velocity{},
		&components.Intent{},
		&components.Faction{Team: 0},
		&components.Perception{SightRange: 8},
		&components.Blackboard{Store: reg.Schema().NewStore()},
	)
	foes := generic.NewMap3[components.Position, components.Velocity, components.Faction](&world)
	foe := foes.NewWith(&components.Position{Vec: r2.Vec{X: 8.5, Y: 5.5}}, &components.Velocity{}, &components.Faction{Team: 1})

	per := &systems.Perception{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), &systems.Spatial{}, per, &systems.Decision{})
	s.Initialize(&world)
	defer s.Finalize(&world)
	intents := generic.NewMap[components.Intent](&world)
	stores := generic.NewMap[components.Blackboard](&world)
	brains := generic.NewMap[components.Brain](&world)
	positions := generic.NewMap[components.Position](&world)
	st := stores.Get(guard).Store

	s.Run(&world, 1) // frame 0 at time 0: the foe is in sight
	require.NoError(t, per.KeyError)
	in := intents.Get(guard)
	assert.True(t, in.Move)
	assert.Equal(t, r2.Vec{X: 8.5, Y: 5.5}, in.Goal, "MoveTo read {target_position}")
	assert.Equal(t, foe, in.Attack, "Strike read {target}")
	v, _ := st.Value(systems.KeyTargetDistance)
	assert.Equal(t, 3.0, v)

	// The foe runs out of sight: the guard searches where it was last seen.
	positions.Get(foe).Vec = r2.Vec{X: 18.5, Y: 18.5}
	*intents.Get(guard) = components.Intent{}
	s.Run(&world, 2)
	in = intents.Get(guard)
	assert.True(t, in.Move)
	assert.Equal(t, r2.Vec{X: 8.5, Y: 5.5}, in.Goal, "MoveTo read {last_seen_position}")
	assert.False(t, st.Has(systems.KeyTarget), "no target while none is visible")
	assert.False(t, st.Has(systems.KeyTargetPosition))
	visible, _ := st.Value(systems.KeyTargetVisible)
	assert.Equal(t, false, visible)
	when, _ := st.Value(systems.KeyLastSeenTime)
	assert.Equal(t, 0.0, when, "seen at time 0")
	assert.Equal(t, bt.Running, brains.Get(guard).Memory.Status(0))

	// It comes back into view elsewhere: the chase resumes toward the new position.
	positions.Get(foe).Vec = r2.Vec{X: 5.5, Y: 9.5}
	s.Run(&world, 1)
	assert.Equal(t, r2.Vec{X: 5.5, Y: 9.5}, intents.Get(guard).Goal)
	when, _ = st.Value(systems.KeyLastSeenTime)
	assert.Equal(t, 0.375, when)
}

func TestPerceptionKeyOfAnotherTypeIsReported(t *testing.T) {
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[string](schema, systems.KeyTarget)
	err := systems.DeclarePerceptionKeys(schema)
	assert.ErrorIs(t, err, blackboard.ErrTypeMismatch)
	assert.Contains(t, err.Error(), `"target"`)

	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(10, 10))
	m := generic.NewMap5[components.Position, components.Faction, components.Perception, components.Think,
		components.Blackboard](&world)
	e := m.NewWith(&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, &components.Faction{},
		&components.Perception{SightRange: 5}, &components.Think{}, &components.Blackboard{Store: schema.NewStore()})
	per := &systems.Perception{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), &systems.Spatial{}, per)
	s.Initialize(&world)
	defer s.Finalize(&world)
	s.Run(&world, 1)
	assert.ErrorIs(t, per.KeyError, blackboard.ErrTypeMismatch)
	stores := generic.NewMap[components.Blackboard](&world)
	bb := stores.Get(e).Store
	assert.False(t, bb.Has(systems.KeyTarget), "the mistyped key is left alone")
	visible, ok := bb.Value(systems.KeyTargetVisible)
	assert.True(t, ok, "the other keys are written")
	assert.Equal(t, false, visible)
}

// A schema that declares the perception keys only after Perception has seen it (a tree
// loaded later, say), and a store made before they were declared: from the next
// perception on the keys are written, the store growing to hold them.
func TestPerceptionKeysDeclaredAfterTheFirstPerception(t *testing.T) {
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[int](schema, "ammo")
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(10, 10))
	m := generic.NewMap5[components.Position, components.Faction, components.Perception, components.Think,
		components.Blackboard](&world)
	e := m.NewWith(&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, &components.Faction{},
		&components.Perception{SightRange: 5}, &components.Think{}, &components.Blackboard{Store: schema.NewStore()})
	foes := generic.NewMap3[components.Position, components.Velocity, components.Faction](&world)
	foes.NewWith(&components.Position{Vec: r2.Vec{X: 4.5, Y: 2.5}}, &components.Velocity{}, &components.Faction{Team: 1})
	per := &systems.Perception{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), &systems.Spatial{}, per)
	s.Initialize(&world)
	defer s.Finalize(&world)
	s.Run(&world, 1)
	_, _, _, _, bb := m.Get(e)
	assert.False(t, bb.Store.Has(systems.KeyTargetVisible), "not declared yet")

	require.NoError(t, systems.DeclarePerceptionKeys(schema))
	_, _, p, _, _ := m.Get(e)
	p.Fresh = false // as if the agent had thought (no Decision system here)
	s.Run(&world, 1)
	require.NoError(t, per.KeyError)
	visible, ok := bb.Store.Value(systems.KeyTargetVisible)
	assert.True(t, ok, "written once declared")
	assert.Equal(t, true, visible)
	d, _ := bb.Store.Value(systems.KeyTargetDistance)
	assert.Equal(t, 2.0, d)
}

// A zero blackboard.Store (new(blackboard.Store), no schema) is bad data, not a crash:
// Perception perceives and writes no key.
func TestPerceptionWithAZeroStore(t *testing.T) {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(10, 10))
	m := generic.NewMap5[components.Position, components.Faction, components.Perception, components.Think,
		components.Blackboard](&world)
	e := m.NewWith(&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, &components.Faction{},
		&components.Perception{SightRange: 5}, &components.Think{}, &components.Blackboard{Store: new(blackboard.Store)})
	foes := generic.NewMap3[components.Position, components.Velocity, components.Faction](&world)
	foes.NewWith(&components.Position{Vec: r2.Vec{X: 4.5, Y: 2.5}}, &components.Velocity{}, &components.Faction{Team: 1})
	per := &systems.Perception{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), &systems.Spatial{}, per)
	s.Initialize(&world)
	defer s.Finalize(&world)
	require.NotPanics(t, func() { s.Run(&world, 1) })
	_, _, p, _, bb := m.Get(e)
	assert.True(t, p.Visible, "perceived")
	assert.False(t, bb.Store.Has(systems.KeyTargetVisible))
	_, ok := bb.Store.Value(systems.KeyTargetVisible)
	assert.False(t, ok)
}
