package systems_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The guard domain as a designer first writes it: Wait is task 1.
const guardV1 = `{"name": "guard", "facts": ["alarm", "ammo"], "root": "Guard", "tasks": [
  {"name": "Guard", "methods": [{"name": "Calm", "tasks": ["Wait"]}]},
  {"name": "Wait"}
]}`

// The edit: a fact before the others, a method of higher priority using the new task
// Shout, which now holds index 1 (Wait's in the old domain).
const guardV2 = `{"name": "guard", "facts": ["morale", "alarm", "ammo"], "root": "Guard", "tasks": [
  {"name": "Guard", "methods": [
    {"name": "Rally", "if": "ammo > 0", "tasks": ["Shout"]},
    {"name": "Calm", "tasks": ["Wait"]}]},
  {"name": "Shout"},
  {"name": "Wait"}
]}`

type guardCounts struct{ waits, waitHalts, shouts int }

func reloadRegistry(t *testing.T) (*htn.Registry, *guardCounts) {
	n := &guardCounts{}
	reg := &htn.Registry{}
	require.NoError(t, reg.RegisterOperator("Wait", func(*htn.Context) htn.Status { n.waits++; return htn.Running },
		func(*htn.Context) { n.waitHalts++ }))
	require.NoError(t, reg.RegisterOperator("Shout", func(*htn.Context) htn.Status { n.shouts++; return htn.Running }, nil))
	return reg, n
}

// htnSpawnWorld is a world holding reg, with a spawner of agents planning with domain id.
func htnSpawnWorld(t *testing.T, reg *htn.Registry, id htn.ID) (*arche.World, *systems.Spawner) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	return w, sp
}

// A domain reloaded from its edited file (htn.Registry.ReloadJSON) keeps its ID and
// replaces the definition: every agent running a plan of the old domain has that plan
// halted by the old domain at its next think (Wait's Halt runs) and plans with the new
// one, whose new method it takes; its believed facts follow their names (ammo moved
// from index 1 to 2). Swapping the pointer under the ID instead would carry out the
// old plan's task 1 (Wait) as the new domain's task 1 (Shout), without a halt.
func TestAnHTNDomainReloadedFromItsFileSwapsEveryAgent(t *testing.T) {
	reg, n := reloadRegistry(t)
	id, err := reg.LoadJSON("guard.json", []byte(guardV1))
	require.NoError(t, err)
	old := reg.Domain(id)

	w, sp := htnSpawnWorld(t, reg, id)
	agents := []arche.Entity{sp.Spawn(r2.Vec{}, nil), sp.Spawn(r2.Vec{X: 2}, nil), sp.Spawn(r2.Vec{X: 4}, nil)}
	h := &systems.HTN{Log: true}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), h)
	s.Initialize(w)
	s.Run(w, 3)
	hp := generic.NewMap1[components.HTNPlanner](w)
	for _, e := range agents {
		p := hp.Get(e)
		require.Equal(t, "Wait", p.Cache.TaskName(p.Run.Current()))
		ammo, _ := p.Cache.FactIndex("ammo")
		p.State[ammo] = 3
	}
	require.Equal(t, 0, n.waitHalts)

	nid, err := reg.ReloadJSON("guard.json", []byte(guardV2))
	require.NoError(t, err)
	assert.Equal(t, id, nid, "the reload keeps the domain's ID")
	assert.NotSame(t, old, reg.Domain(id))
	assert.Equal(t, []string{"guard"}, reg.Names())

	shoutsBefore := n.shouts
	s.Run(w, 1)
	assert.Equal(t, len(agents), n.waitHalts, "each agent's running Wait of the old domain was halted")
	assert.Equal(t, uint64(len(agents)), h.Swapped)
	assert.Equal(t, shoutsBefore+len(agents), n.shouts, "the new method Rally plans Shout")
	halts := 0
	for _, ev := range h.Events {
		if ev.Event.Kind == htn.EventHalt {
			halts++
			assert.Equal(t, "Wait", old.TaskName(ev.Event.Task), "the halt names the old domain's task")
		}
	}
	assert.Equal(t, len(agents), halts)
	for _, e := range agents {
		p := hp.Get(e)
		assert.Same(t, reg.Domain(id), p.Cache)
		assert.Equal(t, "Shout", p.Cache.TaskName(p.Run.Current()))
		ammo, _ := p.Cache.FactIndex("ammo")
		assert.Equal(t, int32(3), p.State[ammo], "ammo carried over by name")
		assert.Equal(t, int32(0), p.State[0], "morale, new, starts at 0")
	}
	s.Run(w, 2)
	assert.Equal(t, len(agents), n.waitHalts, "one halt each")
	assert.Equal(t, uint64(len(agents)), h.Swapped)
	s.Finalize(w)
}

// A broken edit is refused whole: ReloadJSON returns the loader's error (ErrSyntax),
// the registry keeps the old domain and the agents carry on with their plans, nothing
// halted.
func TestABrokenHTNReloadKeepsTheOldDomain(t *testing.T) {
	reg, n := reloadRegistry(t)
	id, err := reg.LoadJSON("guard.json", []byte(guardV1))
	require.NoError(t, err)
	old := reg.Domain(id)
	w, sp := htnSpawnWorld(t, reg, id)
	e := sp.Spawn(r2.Vec{}, nil)
	h := &systems.HTN{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), h)
	s.Initialize(w)
	s.Run(w, 2)

	for _, broken := range []string{
		`{"name": "guard", "facts": ["alarm"], "root": "Guard", "tasks": [`, // cut short
		`{"name": "guard", "facts": ["alarm"], "root": "Guard", "tasks": [
		  {"name": "Guard", "methods": [{"tasks": ["Dance"]}]}, {"name": "Dance"}]}`, // no operator Dance
		`{"name": "guard", "facts": ["alarm"], "root": "Guard", "tasks": [
		  {"name": "Guard", "methods": [{"if": "alarm = 1", "tasks": ["Wait"]}]}, {"name": "Wait"}]}`, // = for ==
	} {
		_, err := reg.ReloadJSON("guard.json", []byte(broken))
		require.Error(t, err)
		assert.True(t, errors.Is(err, htn.ErrSyntax), "%v", err)
		assert.ErrorContains(t, err, "guard.json")
		assert.Same(t, old, reg.Domain(id), "the old domain is kept")
	}
	waits := n.waits
	s.Run(w, 2)
	assert.Zero(t, n.waitHalts)
	assert.Zero(t, h.Swapped)
	assert.Equal(t, waits+2, n.waits, "the running plan goes on")
	hp := generic.NewMap1[components.HTNPlanner](w)
	assert.Same(t, old, hp.Get(e).Cache)
	s.Finalize(w)
}

// An agent without a plan when its domain is reloaded (idle: no method applied) plans
// with the new domain at its next think, its facts carried over by name; nothing is
// halted and no swap is counted.
func TestAnIdleHTNAgentPlansWithTheReloadedDomain(t *testing.T) {
	reg, n := reloadRegistry(t)
	id, err := reg.LoadJSON("guard.json", []byte(`{"name": "guard", "facts": ["alarm", "ammo"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"name": "Alarm", "if": "alarm == 1", "tasks": ["Wait"]}]},
	  {"name": "Wait"}]}`))
	require.NoError(t, err)
	w, sp := htnSpawnWorld(t, reg, id)
	e := sp.Spawn(r2.Vec{}, nil)
	h := &systems.HTN{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), h)
	s.Initialize(w)
	s.Run(w, 2)
	hp := generic.NewMap1[components.HTNPlanner](w)
	require.False(t, hp.Get(e).Run.HasPlan(), "no alarm: no plan")
	hp.Get(e).State[1] = 5 // ammo

	_, err = reg.ReloadJSON("guard.json", []byte(guardV2))
	require.NoError(t, err)
	s.Run(w, 1)
	p := hp.Get(e)
	assert.Equal(t, "Shout", p.Cache.TaskName(p.Run.Current()))
	assert.Equal(t, int32(5), p.State[2], "ammo, now fact 2")
	assert.Equal(t, 1, n.shouts)
	assert.Zero(t, h.Swapped)
	s.Finalize(w)
}

// goap.Registry.Replace is the same hot reload for a GOAP domain rebuilt in Go: the
// old domain's running action is halted at the next think and the new domain plans,
// its new cheaper action taken; the old plan's action 0 (Dig) is never run as the new
// domain's action 0.
func TestAGOAPDomainReplacedInItsRegistrySwapsTheAgent(t *testing.T) {
	reg := &goap.Registry{}
	digs, digHalts, trenches, walks := 0, 0, 0, 0
	running := func(n *int) goap.Operator {
		return func(*goap.Context) goap.Status { *n++; return goap.Running }
	}
	build := func(acts ...goap.Action) *goap.Domain {
		b := goap.NewBuilder("dig")
		f := b.Fact("hole")
		for _, a := range acts {
			a.Effects = []goap.Effect{{Fact: f, Value: 1}}
			b.Action(a)
		}
		b.Goal(goap.Goal{Name: "Hole", Priority: 1, Want: []goap.Cond{{Fact: f, Op: goap.Eq, Value: 1}}})
		return must(b.Build())
	}
	id, err := reg.Add(build(goap.Action{Name: "Dig", Cost: 3, Run: running(&digs), Halt: func(*goap.Context) { digHalts++ }}))
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	g := &systems.GOAP{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), g)
	s.Initialize(w)
	s.Run(w, 2)
	require.Equal(t, 2, digs)

	nid, err := reg.Replace(build(
		goap.Action{Name: "Trench", Cost: 9, Run: running(&trenches)},
		goap.Action{Name: "Walk", Cost: 1, Run: running(&walks)}))
	require.NoError(t, err)
	assert.Equal(t, id, nid)
	s.Run(w, 2)
	gp := generic.NewMap1[components.GOAPPlanner](w)
	assert.Equal(t, 1, digHalts, "the old domain's running Dig was halted")
	assert.Zero(t, trenches, "the old plan's action 0 did not run as the new domain's")
	assert.Equal(t, 2, walks, "the new domain plans its cheaper action")
	assert.Equal(t, "Walk", gp.Get(e).Cache.ActionName(gp.Get(e).Run.Current()))
	assert.Equal(t, uint64(1), g.Swapped)
	s.Finalize(w)
}
