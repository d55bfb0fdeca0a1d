package debugview_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Chores holds the villager's two trees run inside states (hybrid.TreeState).
type Chores struct {
	Chop  hybrid.TreeRun
	Carry hybrid.TreeRun
}

// Wolf is what the wolf's utility considerations read.
type Wolf struct {
	Hunger, Fatigue float64 // in [0, 1]
	PreyDist        float64 // cells
}

// decideWorld: a villager on a hierarchical state machine (Day{Work{Chop, Carry}},
// Night) whose Chop and Carry states each run a tree (Chop: Wait 0.25 s then fell;
// Carry: Wait 0.35 s then drop; each state goes to the other when its tree
// succeeds; Night after 3 s), and a wolf choosing by utility between hunt
// (Compensated), rest (WeightedSum) and howl (a constant 0.2), with hysteresis
// 0.25. Ten frames a second, agents think every frame, a snapshot every frame.
type decideWorld struct {
	w                *arche.World
	sched            *ecs.Scheduler
	v                *debugview.Viewer
	villager, wolf   arche.Entity
	wolves           generic.Map[Wolf]
	chop, carry      *bt.Tree
	machine          *fsm.Machine
	reasoner         *utility.Reasoner
	chopSt, carrySt  fsm.StateID
	day, work, night fsm.StateID
}

func newDecideWorld(t testing.TB, viewer bool) *decideWorld {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	dw := &decideWorld{w: w, wolves: generic.NewMap[Wolf](w)}
	chores := generic.NewMap[Chores](w)
	var err error
	succeed := func(*bt.Context) bt.Status { return bt.Success }
	dw.chop, err = bt.Compile("chop", bt.Sequence(bt.Wait(0.25), bt.Action("fell", succeed)).Named("chop"))
	require.NoError(t, err)
	dw.carry, err = bt.Compile("carry", bt.Sequence(bt.Wait(0.35), bt.Action("drop", succeed)).Named("carry"))
	require.NoError(t, err)
	runOf := func(f func(*Chores) *hybrid.TreeRun) func(*fsm.Context) *hybrid.TreeRun {
		return func(c *fsm.Context) *hybrid.TreeRun { return f(chores.Get(systems.StateAgent(c).Entity)) }
	}
	b := fsm.NewBuilder("villager")
	dw.day = b.State("Day", fsm.Hooks{})
	dw.work = b.Substate(dw.day, "Work", fsm.Hooks{})
	dw.chopSt = b.Substate(dw.work, "Chop", hybrid.TreeState(dw.chop, runOf(func(c *Chores) *hybrid.TreeRun { return &c.Chop }),
		func(*fsm.Context, bt.Status) fsm.StateID { return dw.carrySt }))
	dw.carrySt = b.Substate(dw.work, "Carry", hybrid.TreeState(dw.carry, runOf(func(c *Chores) *hybrid.TreeRun { return &c.Carry }),
		func(*fsm.Context, bt.Status) fsm.StateID { return dw.chopSt }))
	dw.night = b.State("Night", fsm.Hooks{})
	b.When(dw.day, func(c *fsm.Context) bool { return c.Time >= 3 }, dw.night)
	dw.machine, err = b.Build()
	require.NoError(t, err)

	wolf := func(f func(*Wolf) float64) func(any) float64 {
		return func(agent any) float64 { return f(dw.wolves.Get(systems.UtilityAgent(agent).Entity)) }
	}
	dw.reasoner, err = utility.New("wolf", utility.Policy{Hysteresis: 0.25},
		utility.Action{Name: "hunt", Considerations: []utility.Consideration{ // Compensated
			{Name: "hungry", Input: wolf(func(x *Wolf) float64 { return x.Hunger }), Curve: utility.Linear(1, 0)},
			{Name: "prey near", Input: wolf(func(x *Wolf) float64 { return x.PreyDist }), Range: utility.Range{Min: 20, Max: 0}, Curve: utility.Linear(1, 0)},
		}},
		utility.Action{Name: "rest", Combine: utility.WeightedSum, Considerations: []utility.Consideration{
			{Name: "tired", Input: wolf(func(x *Wolf) float64 { return x.Fatigue })},
			{Name: "full", Input: wolf(func(x *Wolf) float64 { return x.Hunger }), Curve: utility.Linear(-1, 1), Weight: 3},
		}},
		utility.Action{Name: "howl", Weight: 0.2},
	)
	require.NoError(t, err)

	vs, err := systems.NewSpawner(w, systems.Thinker{Machine: dw.machine, Interval: 0.1}, systems.With(Chores{}))
	require.NoError(t, err)
	dw.villager = vs.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	ws, err := systems.NewSpawner(w, systems.Thinker{Reasoner: dw.reasoner, Interval: 0.1}, systems.With(Wolf{Hunger: 0.6, Fatigue: 0.3, PreyDist: 8}))
	require.NoError(t, err)
	dw.wolf = ws.Spawn(r2.Vec{X: 5, Y: 5}, nil)
	// every agent thinks every frame, from the first
	think := generic.NewMap[components.Think](w)
	for _, e := range []arche.Entity{dw.villager, dw.wolf} {
		*think.Get(e) = components.Think{Interval: 0.1}
	}
	sys := []ecs.System{ecs.NewClockSystem(0.1), &systems.FSM{}, &systems.Utility{}}
	if viewer {
		dw.v = debugview.New()
		dw.v.Speed, dw.v.Every = 0, 1
		sys = append(sys, dw.v)
	}
	dw.sched = ecs.NewScheduler(sys...)
	dw.sched.Initialize(w)
	t.Cleanup(func() {
		if dw.v != nil {
			dw.v.Close()
		}
		dw.sched.Finalize(w)
	})
	return dw
}

func (dw *decideWorld) run(frames int) {
	for range frames {
		dw.sched.Update(dw.w)
	}
}

// agentJSON returns the selected agent of the /state JSON, decoded.
func agentJSON(t *testing.T, srv *httptest.Server) *debugview.Agent {
	t.Helper()
	s := getState(t, srv)
	require.NotNil(t, s.Selected)
	return s.Selected
}

func treeNamed(trees []debugview.StateTree, name string) *debugview.StateTree {
	for i := range trees {
		if trees[i].Tree != nil && trees[i].Tree.Name == name {
			return &trees[i]
		}
	}
	return nil
}

// The selected villager's state machine: the active path by name, each tree run
// inside a state with its live node statuses and the states that run it, and the
// machine's transitions in the FSM log.
func TestSelectShowsTheStatePathAndItsTree(t *testing.T) {
	dw := newDecideWorld(t, true)
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	dw.run(1)
	selectID(t, srv, dw.villager.ID())
	dw.run(1) // t = 0.1: Chop ticked twice (t = 0, 0.1), its Wait (0.25 s) runs
	a := agentJSON(t, srv)
	require.NotNil(t, a.FSM)
	assert.Equal(t, []string{"Day", "Work", "Chop"}, a.FSM.Active)
	chop := treeNamed(a.FSM.Trees, "chop")
	require.NotNil(t, chop, "the tree inside Chop: %+v", a.FSM.Trees)
	assert.Equal(t, []string{"Day/Work/Chop"}, chop.States)
	assert.True(t, chop.Active)
	assert.Equal(t, "Chores.Chop", chop.Field)
	assert.Equal(t, int(bt.Running), chop.Root)
	assert.Equal(t, []int{int(bt.Running), int(bt.Running), int(bt.Idle)}, chop.Tree.Status, "Sequence and Wait running, fell not yet")
	require.NotEmpty(t, a.FSMLog)
	assert.Equal(t, "selected", a.FSMLog[0].Kind)
	assert.Equal(t, []string{"Day", "Work", "Chop"}, a.FSMLog[0].To)

	dw.run(2) // t = 0.3: the Wait is done at t = 0.3 (0.25 s after it started at 0), fell succeeds: Carry
	a = agentJSON(t, srv)
	assert.Equal(t, []string{"Day", "Work", "Carry"}, a.FSM.Active)
	carry, chop := treeNamed(a.FSM.Trees, "carry"), treeNamed(a.FSM.Trees, "chop")
	require.NotNil(t, carry)
	require.NotNil(t, chop, "the tree of the state left is still listed, inactive")
	assert.False(t, chop.Active)
	assert.Equal(t, []int{0, 0, 0}, chop.Tree.Status, "halted on exit: every node Idle")
	assert.True(t, carry.Active)
	assert.Equal(t, "", carry.Field, "entered by chop's done, after this update's hooks: its TreeRun has not run it yet")
	assert.Equal(t, []int{int(bt.Idle), int(bt.Idle), int(bt.Idle)}, carry.Tree.Status)
	// chop's log: within one update the tree succeeded and the state's exit halted it;
	// the frame sees the net change of each node
	var changes []string
	for _, x := range chop.Log[1:] { // after the baseline ("selected")
		changes = append(changes, chop.Tree.Nodes[x.Node].Name+" "+bt.Status(x.From).String()+"→"+bt.Status(x.To).String())
	}
	assert.Equal(t, []string{"chop Running→Idle", "Wait Running→Idle"}, changes)
	last := a.FSMLog[len(a.FSMLog)-1]
	assert.Equal(t, "transition", last.Kind)
	assert.Equal(t, []string{"Day", "Work", "Chop"}, last.From)
	assert.Equal(t, []string{"Day", "Work", "Carry"}, last.To)
	assert.Equal(t, uint32(1), last.Count)
	assert.InDelta(t, 0.3, last.Time, 1e-9)

	dw.run(1) // t = 0.4: Carry's tree ticked, found in the agent's Chores
	a = agentJSON(t, srv)
	carry = treeNamed(a.FSM.Trees, "carry")
	require.NotNil(t, carry)
	assert.Equal(t, "Chores.Carry", carry.Field)
	assert.Equal(t, []int{int(bt.Running), int(bt.Running), int(bt.Idle)}, carry.Tree.Status)
	require.NotEmpty(t, carry.Log)
	assert.Equal(t, debugview.Transition{Time: carry.Log[0].Time, Node: 0, From: int(bt.Idle), To: int(bt.Running), FromName: "Idle", ToName: "Running", Kind: "transition"}, carry.Log[0])
	assert.InDelta(t, 0.4, carry.Log[0].Time, 1e-9)

	dw.run(29) // to t = 3.3: Night (no tree)
	a = agentJSON(t, srv)
	assert.Equal(t, []string{"Night"}, a.FSM.Active)
	for _, st := range a.FSM.Trees {
		assert.False(t, st.Active, "%s", st.Tree.Name)
	}
	last = a.FSMLog[len(a.FSMLog)-1]
	assert.Equal(t, []string{"Night"}, last.To)
	assert.Equal(t, "Day/Work/", last.Previous[:len("Day/Work/")], "the leaf left: %s", last.Previous)
}

// A state that runs a tree the agent has not ticked yet (no TreeRun found for it)
// is listed, all Idle, with no field.
func TestAnActiveStateTreeNotTickedYetIsListed(t *testing.T) {
	dw := newDecideWorld(t, true)
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	selectID(t, srv, dw.villager.ID())
	// before the first update of the machine the villager is in no state; pause it
	// there: stop the FSM from updating by freezing the agent
	thinks := generic.NewMap[components.Think](dw.w)
	thinks.Get(dw.villager).Frozen = true
	dw.run(1)
	a := agentJSON(t, srv)
	require.NotNil(t, a.FSM)
	assert.Empty(t, a.FSM.Active)
	assert.Empty(t, a.FSM.Trees)
	// enter Chop by hand, as a loaded save would leave it, without a tick
	sms := generic.NewMap[components.StateMachine](dw.w)
	sm := sms.Get(dw.villager)
	sm.Memory = fsm.Memory{Active: dw.chopSt, Transitions: 1}
	dw.run(1)
	a = agentJSON(t, srv)
	assert.Equal(t, []string{"Day", "Work", "Chop"}, a.FSM.Active)
	require.Len(t, a.FSM.Trees, 1)
	st := a.FSM.Trees[0]
	assert.Equal(t, "chop", st.Tree.Name)
	assert.Equal(t, "", st.Field)
	assert.True(t, st.Active)
	assert.Equal(t, []int{0, 0, 0}, st.Tree.Status)
}

// The selected wolf's reasoner: each option's score and selection value (with the
// hysteresis bonus on the option held), each consideration's raw input, curve x,
// curve output and compensated factor, as used in the last decision; its changes
// of choice in the utility log; a veto's skipped consideration not evaluated.
func TestSelectShowsTheConsiderations(t *testing.T) {
	dw := newDecideWorld(t, true)
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	dw.run(1)
	selectID(t, srv, dw.wolf.ID())
	dw.run(1) // the viewer gives the State its Trace in this frame, after the decision
	a := agentJSON(t, srv)
	require.NotNil(t, a.Utility)
	assert.False(t, a.Utility.Traced, "no decision since the selection: inputs unknown")
	assert.Nil(t, a.Utility.Options[0].Considerations[0].Input)
	dw.run(1)
	u := agentJSON(t, srv).Utility
	require.True(t, u.Traced)
	assert.Equal(t, "Argmax", u.Policy)
	assert.Equal(t, 0.25, u.Hysteresis)
	require.Len(t, u.Options, 3)
	hunt, rest, howl := u.Options[0], u.Options[1], u.Options[2]
	assert.Equal(t, 0, u.Choice)
	assert.Equal(t, 0, u.Held, "hunt held before this decision: it got the bonus")
	// hunt: hungry 0.6 → 0.6; prey near 8 cells on Range{20, 0} → x 0.6 → 0.6; each
	// compensated for 2 considerations: 0.6 + 0.6·0.4·(1 − 1/2) = 0.72; 0.72² = 0.5184
	assert.Equal(t, "Compensated", hunt.Combine)
	prey := hunt.Considerations[1]
	require.NotNil(t, prey.Input)
	require.NotNil(t, prey.X)
	assert.Equal(t, 8.0, *prey.Input, "the raw input, before the Range")
	assert.Equal(t, &[2]float64{20, 0}, prey.Range)
	assert.InDelta(t, 0.6, *prey.X, 1e-12)
	assert.InDelta(t, 0.6, prey.Score, 1e-12)
	assert.InDelta(t, 0.72, prey.Compensated, 1e-12)
	assert.InDelta(t, 0.72, hunt.Considerations[0].Compensated, 1e-12)
	assert.Zero(t, prey.Weight, "a Compensated product ignores weights: none shown")
	assert.InDelta(t, 0.5184, hunt.Score, 1e-12)
	assert.InDelta(t, 0.5184*1.25, hunt.Selection, 1e-12, "held: ×(1 + Hysteresis)")
	// rest: (1·0.3 + 3·(1 − 0.6)) / 4 = 0.375; no compensation in a weighted sum
	assert.Equal(t, "WeightedSum", rest.Combine)
	assert.InDelta(t, 0.375, rest.Score, 1e-12)
	assert.Equal(t, rest.Score, rest.Selection)
	assert.InDelta(t, 0.4, rest.Considerations[1].Compensated, 1e-12)
	assert.Equal(t, 3.0, rest.Considerations[1].Weight)
	assert.InDelta(t, 0.2, howl.Score, 1e-12)
	assert.Empty(t, howl.Considerations)

	// hungry 0.2: hunt 0.28 · 0.72 = 0.2016 (0.252 with the bonus) < rest (0.3 + 3·0.8)/4 = 0.675
	dw.wolves.Get(dw.wolf).Hunger = 0.2
	dw.run(1)
	a = agentJSON(t, srv)
	u = a.Utility
	assert.Equal(t, 1, u.Choice)
	assert.InDelta(t, 0.2016, u.Options[0].Score, 1e-12)
	assert.InDelta(t, 0.252, u.Options[0].Selection, 1e-12)
	assert.InDelta(t, 0.675, u.Options[1].Score, 1e-12)
	require.Len(t, a.UtilityLog, 2)
	assert.Equal(t, "selected", a.UtilityLog[0].Kind)
	assert.Equal(t, "hunt", a.UtilityLog[0].To)
	c := a.UtilityLog[1]
	assert.Equal(t, "choice", c.Kind)
	assert.Equal(t, "hunt", c.From)
	assert.Equal(t, "rest", c.To)
	assert.Equal(t, 1, c.Choice)
	assert.InDelta(t, 0.675, c.Scores[1], 1e-12)
	require.Len(t, c.Options, 3, "the decision of the change in detail")
	require.True(t, c.Traced)
	require.NotNil(t, c.Options[0].Considerations[0].Input)
	assert.Equal(t, 0.2, *c.Options[0].Considerations[0].Input, "hungry's input at the change")
	assert.InDelta(t, 0.28, c.Options[0].Considerations[0].Compensated, 1e-12)
	assert.InDelta(t, 0.252, c.Options[0].Selection, 1e-12, "hunt, held, with its bonus, lost to rest")
	assert.Equal(t, 0, c.Held)

	// not hungry at all: hungry scores 0 and vetoes hunt; prey near is not evaluated
	dw.wolves.Get(dw.wolf).Hunger = 0
	dw.run(1)
	hunt = agentJSON(t, srv).Utility.Options[0]
	assert.True(t, hunt.Vetoed)
	assert.Equal(t, 0.0, hunt.Score)
	assert.True(t, hunt.Considerations[0].Evaluated)
	assert.False(t, hunt.Considerations[1].Evaluated)
	assert.Nil(t, hunt.Considerations[1].Input)
	assert.NotEmpty(t, hunt.Considerations[1].Note)

	// deselected, the wolf's State no longer holds the viewer's Trace
	code, body := post(t, srv, url.Values{"op": {"deselect"}})
	require.Equal(t, 202, code, body)
	dw.run(1)
	brains := generic.NewMap[components.UtilityBrain](dw.w)
	assert.Nil(t, brains.Get(dw.wolf).State.Trace)
}

// Following a villager and a wolf in every frame changes nothing of the simulation:
// the state hash equals that of the same world without a viewer.
func TestFollowingDecisionsChangesNoState(t *testing.T) {
	plain := newDecideWorld(t, false)
	plain.run(40)
	seen := newDecideWorld(t, true)
	seen.run(1)
	require.True(t, seen.v.Select(seen.wolf.ID()))
	seen.run(15)
	require.True(t, seen.v.Select(seen.villager.ID()))
	seen.run(24)
	assert.Equal(t, systems.StateHash(plain.w), systems.StateHash(seen.w))
}

// The JSON names of the new sections, as the page reads them.
func TestDecisionJSONNames(t *testing.T) {
	dw := newDecideWorld(t, true)
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	dw.run(1)
	selectID(t, srv, dw.wolf.ID())
	dw.run(2)
	var raw struct {
		Selected struct {
			Utility struct {
				Options []struct {
					Considerations []map[string]any `json:"considerations"`
				} `json:"options"`
			} `json:"utility"`
			UtilityLog []map[string]any `json:"utilityLog"`
			FSMLog     []map[string]any `json:"fsmLog"`
		} `json:"selected"`
	}
	res, err := srv.Client().Get(srv.URL + "/state")
	require.NoError(t, err)
	defer res.Body.Close()
	require.NoError(t, json.NewDecoder(res.Body).Decode(&raw))
	c := raw.Selected.Utility.Options[0].Considerations[1]
	for _, k := range []string{"name", "input", "range", "x", "curve", "score", "compensated", "veto", "evaluated", "note"} {
		assert.Contains(t, c, k)
	}
	// weights count in a WeightedSum only: hunt (Compensated) has none in the JSON,
	// as the page shows none; rest (WeightedSum) has each as it counts
	assert.NotContains(t, c, "weight")
	assert.NotContains(t, raw.Selected.Utility.Options[0].Considerations[0], "weight")
	assert.Equal(t, 1.0, raw.Selected.Utility.Options[1].Considerations[0]["weight"], "tired: zero Weight counts as 1")
	assert.Equal(t, 3.0, raw.Selected.Utility.Options[1].Considerations[1]["weight"])
	assert.Equal(t, "Linear(M=1 K=0 B=0 C=0)", c["curve"])
	require.NotEmpty(t, raw.Selected.UtilityLog)
	assert.Contains(t, raw.Selected.UtilityLog[0], "scores")
}
