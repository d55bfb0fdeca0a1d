package systems_test

import (
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

// An agent whose HTNPlanner.Name is set to another domain while a plan runs (the
// documented way to give it another domain: Name is the truth) starts afresh with the
// new domain. Before, the old plan's TaskIDs were carried out as the new domain's
// tasks of those indices: here the guard domain's Shout, a task its root never plans
// without an alarm, ran on every think after the swap.
func TestAnHTNDomainSwappedMidPlanStartsAfresh(t *testing.T) {
	reg := &htn.Registry{}
	walkHalts := 0
	{
		b := htn.NewBuilder("patrol")
		b.Fact("x")
		walk := b.Primitive("Walk", htn.Primitive{Run: func(*htn.Context) htn.Status { return htn.Running },
			Halt: func(*htn.Context) { walkHalts++ }})
		root := b.Compound("Patrol")
		b.Method(root, htn.Method{Name: "Walk", Tasks: []htn.TaskID{walk}})
		b.Root(root)
		d, err := b.Build()
		require.NoError(t, err)
		_, err = reg.Add(d)
		require.NoError(t, err)
	}
	shouts, waits := 0, 0
	{
		b := htn.NewBuilder("guard")
		alarm := b.Fact("alarm")
		shout := b.Primitive("Shout", htn.Primitive{Run: func(*htn.Context) htn.Status { shouts++; return htn.Running }})
		wait := b.Primitive("Wait", htn.Primitive{Run: func(*htn.Context) htn.Status { waits++; return htn.Running }})
		root := b.Compound("Guard")
		b.Method(root, htn.Method{Name: "Alarm", If: []htn.Condition{htn.Is(alarm, htn.Eq, 1)}, Tasks: []htn.TaskID{shout}})
		b.Method(root, htn.Method{Name: "Calm", Tasks: []htn.TaskID{wait}})
		b.Root(root)
		d, err := b.Build()
		require.NoError(t, err)
		_, err = reg.Add(d)
		require.NoError(t, err)
	}
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	id, ok := reg.Lookup("patrol")
	require.True(t, ok)
	sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	h := &systems.HTN{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), h)
	s.Initialize(w)
	s.Run(w, 3)
	hp := generic.NewMap1[components.HTNPlanner](w)
	require.Equal(t, "Walk", hp.Get(e).Cache.TaskName(hp.Get(e).Run.Current()))

	hp.Get(e).Name = "guard"
	s.Run(w, 3)
	p := hp.Get(e)
	assert.Equal(t, 0, shouts, "no alarm: the guard domain never plans Shout")
	assert.Equal(t, 3, waits, "the guard domain plans Wait and carries it out")
	assert.Equal(t, "Wait", p.Cache.TaskName(p.Run.Current()))
	assert.Equal(t, uint64(1), h.Swapped)
	assert.Equal(t, 1, walkHalts, "the old domain's running task was halted")
	s.Finalize(w)
}

// The same for GOAP: the old domain's running action is halted and the new domain
// plans; before, the new domain's action of the old plan's index ran.
func TestAGOAPDomainSwappedMidPlanStartsAfresh(t *testing.T) {
	reg := &goap.Registry{}
	digHalts, shouts, waits := 0, 0, 0
	add := func(name string, acts ...goap.Action) {
		b := goap.NewBuilder(name)
		f := b.Fact("f")
		for _, a := range acts {
			a.Effects = []goap.Effect{{Fact: f, Value: 1}}
			b.Action(a)
		}
		b.Goal(goap.Goal{Name: "F", Priority: 1, Want: []goap.Cond{{Fact: f, Op: goap.Eq, Value: 1}}})
		_, err := reg.Add(must(b.Build()))
		require.NoError(t, err)
	}
	running := func(n *int) goap.Operator {
		return func(*goap.Context) goap.Status {
			if n != nil {
				*n++
			}
			return goap.Running
		}
	}
	add("dig", goap.Action{Name: "Dig", Cost: 1, Run: running(nil), Halt: func(*goap.Context) { digHalts++ }})
	add("guard", goap.Action{Name: "Shout", Cost: 5, Run: running(&shouts)}, goap.Action{Name: "Wait", Cost: 1, Run: running(&waits)})

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	id, ok := reg.Lookup("dig")
	require.True(t, ok)
	sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	g := &systems.GOAP{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), g)
	s.Initialize(w)
	s.Run(w, 3)
	gp := generic.NewMap1[components.GOAPPlanner](w)
	gp.Get(e).Name = "guard"
	s.Run(w, 3)
	assert.Equal(t, "Wait", gp.Get(e).Cache.ActionName(gp.Get(e).Run.Current()))
	assert.Equal(t, 0, shouts, "Shout costs more than Wait: the guard domain plans Wait")
	assert.Equal(t, 3, waits)
	assert.Equal(t, 1, digHalts, "the old domain's running action was halted")
	assert.Equal(t, uint64(1), g.Swapped)
	s.Finalize(w)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
