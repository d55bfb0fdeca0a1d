package save_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
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

// guardTree is the tree a guard runs in its state "Normal": wait, then count a patrol
// step. edit changes it as a designer's edit of its file would: "rename" renames the
// leaf, "add" puts a Wait after it, "weight" keeps the tree and changes the weight of
// an action of the reasoner its UtilitySelector runs.
func guardTree(t *testing.T, edit string) *bt.Tree {
	t.Helper()
	leaf := "Patrol"
	if edit == "rename" {
		leaf = "Walk"
	}
	w := 1.0
	if edit == "weight" {
		w = 2
	}
	r, err := utility.New("mood", utility.Policy{}, utility.Action{Name: "calm", Weight: w})
	require.NoError(t, err)
	var st utility.State
	kids := []*bt.Node{bt.Wait(1.5), hybrid.UtilitySelector("Mood", r, func(*bt.Context) (*utility.State, utility.Source) {
		st = utility.State{} // a fresh choice each tick: this test is about the file, not the choice
		return &st, nil
	}, bt.Action(leaf, func(c *bt.Context) bt.Status {
		systems.AgentOf(c).Intent.Goal.X++
		return bt.Success
	}))}
	if edit == "add" {
		kids = append(kids, bt.Wait(0.5))
	}
	tree, err := bt.Compile("guard", bt.Sequence(kids...))
	require.NoError(t, err)
	return tree
}

// guardWorld is the heist's guards reduced: four agents whose machine "guard" runs
// guardTree(edit) in state "Normal" (hybrid.TreeState), the TreeRun in the program's
// own Chores component.
func guardWorld(t *testing.T, edit string) (*arche.World, *fsm.Machine, *systems.FSM, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	cm := generic.NewMap1[Chores](w)
	b := fsm.NewBuilder("guard")
	b.State("Normal", hybrid.TreeState(guardTree(t, edit), func(ctx *fsm.Context) *hybrid.TreeRun {
		return &cm.Get(systems.StateAgent(ctx).Entity).Run
	}, nil))
	b.State("Alert", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	f := &systems.FSM{}
	return w, m, f, ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
}

// A tree run in a machine's state (hybrid.TreeState) edited after a save is refused at
// load as a Brain's tree is (ErrDuplicateID, naming the machine, the state and the
// tree): the machine's own fingerprint covers its states' names and parents only, so
// the edited tree loaded with no error and each guard's saved node memory, of the old
// tree, was reset or run under the new one (a newcomer's heist game, -mistake
// treechanged). The same for the reasoner of a UtilitySelector in that tree. The
// unedited tree, built again, loads and continues as the unbroken run; a file without
// the states' record (written before it) loads unchecked, as before.
func TestLoadRefusesAnEditedTreeOfAState(t *testing.T) {
	w, m, f, s := guardWorld(t, "")
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1}, systems.With(Chores{}))
	require.NoError(t, err)
	for i := range 4 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
	s.Initialize(w)
	s.Run(w, 45) // each guard's Wait is part way through
	data, err := save.Save(w, nil, f)
	require.NoError(t, err)
	s.Run(w, 40)
	want := systems.StateHash(w)
	s.Finalize(w)

	var doc struct {
		Definitions struct {
			States map[string]map[string][]string
		}
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.Len(t, doc.Definitions.States["guard"]["Normal"], 2)
	assert.Regexp(t, `^tree "guard" fnv1a64:[0-9a-f]{16}$`, doc.Definitions.States["guard"]["Normal"][0])
	assert.Regexp(t, `^reasoner "mood" fnv1a64:[0-9a-f]{16}$`, doc.Definitions.States["guard"]["Normal"][1])
	assert.NotContains(t, doc.Definitions.States["guard"], "Alert", "a state that runs nothing")

	reg := func(m *fsm.Machine) save.Registry {
		return save.Registry{Machines: []*fsm.Machine{m}, Components: []reflect.Type{reflect.TypeFor[Chores]()}}
	}
	for _, c := range []struct{ edit, names string }{
		{"rename", `components.StateMachine.ID: machine "guard": state "Normal": tree "guard": `},
		{"add", `components.StateMachine.ID: machine "guard": state "Normal": tree "guard": `},
		{"weight", `components.StateMachine.ID: machine "guard": state "Normal": reasoner "mood": `},
	} {
		w2, m2, _, _ := guardWorld(t, c.edit)
		_, err := save.LoadInto(data, reg(m2), w2)
		require.ErrorIs(t, err, save.ErrDuplicateID, c.edit)
		assert.ErrorContains(t, err, c.names, c.edit)
		assert.ErrorContains(t, err, `in state "Normal", where the saved one ran `, c.edit)
		w3, m3, _, _ := guardWorld(t, c.edit)
		_, errFrom := save.LoadIntoFrom(bytes.NewReader(data), reg(m3), w3)
		require.ErrorIs(t, errFrom, save.ErrDuplicateID, "LoadIntoFrom, which reads the fingerprints after the components")
		assert.Equal(t, err.Error(), errFrom.Error(), c.edit)
	}

	// the same tree built again loads and continues as the unbroken run
	w2, m2, f2, s2 := guardWorld(t, "")
	l, err := save.LoadInto(data, reg(m2), w2)
	require.NoError(t, err)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(f2))
	s2.Run(l.World, 40)
	assert.Equal(t, want, systems.StateHash(l.World), "the loaded world continues as the unbroken one")
	s2.Finalize(l.World)

	// a file written before states were recorded loads unchecked
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &raw))
	var defs map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw["definitions"], &defs))
	delete(defs, "states")
	raw["definitions"], err = json.Marshal(defs)
	require.NoError(t, err)
	old, err := json.Marshal(raw)
	require.NoError(t, err)
	w4, m4, _, _ := guardWorld(t, "rename")
	_, err = save.LoadInto(old, reg(m4), w4)
	assert.NoError(t, err, "a file without the states' record is not checked")
}

// A machine whose state ran nothing at the save but runs a tree in the registry's (the
// same states, so the same machine fingerprint) is refused too, and the reverse.
func TestLoadRefusesAStateThatRunsAnotherActivity(t *testing.T) {
	machine := func(tree *bt.Tree) *fsm.Machine {
		b := fsm.NewBuilder("guard")
		h := fsm.Hooks{}
		if tree != nil {
			h = hybrid.TreeState(tree, func(*fsm.Context) *hybrid.TreeRun { return nil }, nil)
		}
		b.State("Normal", h)
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}
	saveWith := func(m *fsm.Machine) []byte {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(8, 8))
		sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
		data, err := save.Save(w, nil)
		require.NoError(t, err)
		return data
	}
	tree := guardTree(t, "")
	reg := func(m *fsm.Machine) save.Registry { return save.Registry{Machines: []*fsm.Machine{m}} }

	_, err := save.LoadInto(saveWith(machine(nil)), reg(machine(tree)), worldWith(grid.New(8, 8)))
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `machine "guard": state "Normal": tree "guard": `)
	assert.ErrorContains(t, err, `where the saved one ran nothing`)

	_, err = save.LoadInto(saveWith(machine(tree)), reg(machine(nil)), worldWith(grid.New(8, 8)))
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `runs nothing more in state "Normal", where the saved one ran tree "guard" fnv1a64:`)

	_, err = save.LoadInto(saveWith(machine(tree)), reg(machine(guardTree(t, ""))), worldWith(grid.New(8, 8)))
	assert.NoError(t, err, "the same tree built again")
}
