package save_test

import (
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A registry whose tree (machine, reasoner) under a saved ID is not the one the saved
// agents ran is an error wrapping ErrDuplicateID naming the ID, not agents silently
// running the registry's: the save records a fingerprint of each. The same definition
// built again (another pointer) loads; a file from before fingerprints loads unchecked.
func TestRegistryDefinitionOtherThanTheSavedIsAnError(t *testing.T) {
	f := newFixture(t) // tree "patrol": Sequence(Action "a", Wait 2)
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)

	idle := func(*bt.Context) bt.Status { return bt.Running }
	other, err := bt.Compile("patrol", bt.Sequence(bt.Action("b", idle), bt.Wait(2))) // same shape, another leaf
	require.NoError(t, err)
	reg := f.reg
	reg.Trees = []*bt.Tree{other}
	_, err = save.LoadInto(data, reg, worldWith(grid.New(16, 16)))
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `components.Brain.ID: tree "patrol": `)
	assert.ErrorContains(t, err, `the registry's tree "patrol" (fnv1a64:`)
	assert.ErrorContains(t, err, "is not the one the save was made with")

	again, err := bt.Compile("patrol", bt.Sequence(bt.Action("a", idle), bt.Wait(2))) // the same tree, compiled again
	require.NoError(t, err)
	reg.Trees = []*bt.Tree{again}
	_, err = save.LoadInto(data, reg, worldWith(grid.New(16, 16)))
	assert.NoError(t, err)

	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.JSONEq(t, `{"trees":{"patrol":"`+treePrint(t, data)+`"}}`, string(doc["definitions"]))
	delete(doc, "definitions")
	old, err := json.Marshal(doc)
	require.NoError(t, err)
	reg.Trees = []*bt.Tree{other}
	_, err = save.LoadInto(old, reg, worldWith(grid.New(16, 16)))
	assert.NoError(t, err, "a file without fingerprints is not checked")
}

// treePrint returns the fingerprint a save file records for tree "patrol".
func treePrint(t *testing.T, data []byte) string {
	var doc struct {
		Definitions struct{ Trees map[string]string }
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	p := doc.Definitions.Trees["patrol"]
	require.Regexp(t, `^fnv1a64:[0-9a-f]{16}$`, p)
	return p
}

// The same for machines and reasoners.
func TestRegistryMachineOrReasonerOtherThanTheSavedIsAnError(t *testing.T) {
	machine := func(second string) *fsm.Machine {
		b := fsm.NewBuilder("mode")
		b.State("calm", fsm.Hooks{})
		b.State(second, fsm.Hooks{})
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}
	reasoner := func(second string, w float64) *utility.Reasoner {
		r, err := utility.New("pick", utility.Policy{}, utility.Action{Name: "a"}, utility.Action{Name: second, Weight: w})
		require.NoError(t, err)
		return r
	}
	w := worldWith(grid.New(8, 8))
	r, m := reasoner("b", 1), machine("alert")
	us, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r})
	require.NoError(t, err)
	ms, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: m})
	require.NoError(t, err)
	us.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	ms.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	data, err := save.Save(w, nil)
	require.NoError(t, err)

	load := func(r *utility.Reasoner, m *fsm.Machine) error {
		_, err := save.LoadInto(data, save.Registry{Reasoners: []*utility.Reasoner{r}, Machines: []*fsm.Machine{m}}, worldWith(grid.New(8, 8)))
		return err
	}
	assert.NoError(t, load(reasoner("b", 1), machine("alert")), "the same definitions, built again")
	err = load(reasoner("b", 1), machine("alarm"))
	assert.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `components.StateMachine.ID: machine "mode": `)
	err = load(reasoner("b", 2), machine("alert"))
	assert.ErrorIs(t, err, save.ErrDuplicateID, "another weight")
	assert.ErrorContains(t, err, `components.UtilityBrain.ID: reasoner "pick": `)
}

// Planner domains too: a registry whose HTN or GOAP domain under the saved name is
// another (other tasks, another action cost) is ErrDuplicateID naming the field; the same
// domain built again loads.
func TestRegistryPlannerDomainOtherThanTheSavedIsAnError(t *testing.T) {
	reg, id := plannerDomain(t)
	_, data := savedRun(t, reg, systems.HTNThinker{Registry: reg, Domain: id}, 3, &systems.HTN{})
	assert.Contains(t, string(data), `"definitions":{"htn":{"g":"fnv1a64:`)
	other := &htn.Registry{}
	_, err := other.Add(plannerDomainNamed(t, "g"))
	require.NoError(t, err)
	_, err = save.Load(data, save.Registry{HTN: other})
	assert.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `components.HTNPlanner.Name: htn "g": `)
	again, _ := plannerDomain(t)
	_, err = save.Load(data, save.Registry{HTN: again})
	assert.NoError(t, err, "the same domain built again")

	chores := func(cost float64) *goap.Registry {
		b := goap.NewBuilder("chores")
		done := b.Fact("done")
		b.Action(goap.Action{Name: "Work", Cost: cost, Effects: []goap.Effect{{Fact: done, Value: 1}},
			Run: func(c *goap.Context) goap.Status { return goap.Running }})
		b.Goal(goap.Goal{Name: "Done", Priority: 1, Want: []goap.Cond{{Fact: done, Op: goap.Eq, Value: 1}}})
		d, err := b.Build()
		require.NoError(t, err)
		reg := &goap.Registry{}
		_, err = reg.Add(d)
		require.NoError(t, err)
		return reg
	}
	greg := chores(1)
	_, data = savedRun(t, greg, systems.GOAPThinker{Registry: greg, Domain: 1}, 2, &systems.GOAP{})
	_, err = save.Load(data, save.Registry{GOAP: chores(1)})
	assert.NoError(t, err)
	_, err = save.Load(data, save.Registry{GOAP: chores(2)})
	assert.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `components.GOAPPlanner.Name: goap "chores": `)
}
