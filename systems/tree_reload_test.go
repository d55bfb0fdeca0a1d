package systems_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A designer's hot reload in a running world: the tree file is edited, reloaded
// into the same registry (bt.Registry.ReloadDocument), built again and given to
// every agent. Each agent's running action is halted at its next think and the new
// tree starts from its root with the agent's blackboard kept (Decision.Swapped
// counts them), and the world saves and loads with the new tree under the same ID.
func TestATreeReloadedFromItsFileSwapsEveryAgent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.xml")
	write := func(s string) { require.NoError(t, os.WriteFile(path, []byte(s), 0o644)) }
	counts := map[string]int{}
	reg := bt.NewRegistry(nil)
	require.NoError(t, reg.RegisterAction("Work", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		name := bt.InputPort[string](p, "name")
		tally := bt.OutputPort[int](p, "tally")
		var label string
		p.OnHalt(func(c *bt.Context) { counts["halt "+label]++ })
		return func(c *bt.Context) bt.Status {
			label, _ = name.Get(c)
			counts[label]++
			n, _ := blackboard.Get(c.Blackboard, tally.Key())
			tally.Set(c, n+1)
			return bt.Running
		}, nil
	}))
	write(`<root BTCPP_format="4"><BehaviorTree ID="Guard"><Work name="patrol" tally="{tally}"/></BehaviorTree></root>`)
	tree, err := reg.LoadFile(path)
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg, Interval: 1.0 / 60})
	require.NoError(t, err)
	const agents = 20
	es := make([]arche.Entity, agents)
	for i := range es {
		es[i] = sp.Spawn(r2.Vec{X: 2.5 + float64(i%10), Y: 2.5 + float64(i/10)}, nil)
	}
	dec := &systems.Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	require.Equal(t, 3*agents, counts["patrol"])

	write(`<root BTCPP_format="4"><BehaviorTree ID="Guard"><Sequence><AlwaysSuccess/><Work name="chase" tally="{tally}"/></Sequence></BehaviorTree></root>`)
	doc, err := reg.ReloadDocument(path)
	require.NoError(t, err)
	reloaded, err := reg.Tree(doc.Main)
	require.NoError(t, err)
	require.Equal(t, "Guard", reloaded.Name())
	brains := generic.NewMap[components.Brain](w)
	for _, e := range es {
		b := brains.Get(e)
		b.Tree, b.ID = reloaded, reloaded.Name()
	}
	// Saved before the agents thought again, the world holds both builds of
	// "Guard" (the old one in the agents' memories, to be halted): refused, saying so.
	_, err = save.Save(w, nil, dec)
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.Contains(t, err.Error(), "ReloadDocument")
	assert.Contains(t, err.Error(), "save once each has thought since")

	s.Run(w, 2)
	assert.Equal(t, agents, counts["halt patrol"], "every agent's running action halted once")
	assert.Equal(t, 2*agents, counts["chase"], "the new tree runs from the next think")
	assert.Equal(t, 3*agents, counts["patrol"], "the old tree never ticks again")
	assert.Equal(t, uint64(agents), dec.Swapped)
	boards := generic.NewMap[components.Blackboard](w)
	tally, err := blackboard.Lookup[int](reg.Schema(), "tally")
	require.NoError(t, err)
	for _, e := range es {
		n, ok := blackboard.Get(boards.Get(e).Store, tally)
		require.True(t, ok)
		assert.Equal(t, 5, n, "the blackboard is kept across the swap: 3 thinks of the old tree, 2 of the new")
	}

	data, err := save.Save(w, nil, dec)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{reloaded}, Schema: reg.Schema()})
	require.NoError(t, err)
	q := generic.NewFilter2[components.Brain, components.Blackboard]().Query(l.World)
	n := 0
	for q.Next() {
		b, bb := q.Get()
		assert.Same(t, reloaded, b.Tree)
		v, _ := blackboard.Get(bb.Store, tally)
		assert.Equal(t, 5, v)
		n++
	}
	assert.Equal(t, agents, n)
}
