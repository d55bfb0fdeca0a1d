package save_test

import (
	"reflect"
	"sync"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/jsonedit"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// A save of every decision model but trees (HTN, GOAP, utility, state machine agents,
// mid-plan, with think budgets so that cursors are saved) edited by hand: one number (or
// two) replaced by an awkward value. Loading must fail with an error, or give a world
// whose systems run a few frames without a panic. Run with:
//
//	go test -run XXX -fuzz FuzzDecidersEdited -fuzztime 2m -parallel 1 ./systems/save

type decidersWorld struct {
	reg  save.Registry
	htn  *htn.Registry
	goap *goap.Registry
	data []byte
	nums [][2]int
}

var (
	decidersOnce sync.Once
	deciders     *decidersWorld
)

func decidersSystems() []ecs.System {
	return []ecs.System{ecs.NewClockSystem(0.05), &systems.Spatial{}, &systems.Perception{}, &systems.HTN{Budget: 3},
		&systems.GOAP{Budget: 2}, &systems.Utility{Budget: 2}, &systems.FSM{Budget: 2}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}}
}

func newDeciders(t testing.TB) *decidersWorld {
	decidersOnce.Do(func() {
		hreg, hid := plannerDomain(t)
		deciders = buildDeciders(t, hreg, hid)
	})
	return deciders
}

func buildDeciders(t testing.TB, hreg *htn.Registry, hid htn.ID) *decidersWorld {
	gb := goap.NewBuilder("chores")
	done := gb.Fact("done")
	tired := gb.Fact("tired")
	gb.Action(goap.Action{Name: "Work", Cost: 1, Pre: []goap.Cond{{Fact: tired, Op: goap.Eq, Value: 0}},
		Effects: []goap.Effect{{Fact: done, Value: 1}, {Fact: tired, Value: 1}},
		Run: func(c *goap.Context) goap.Status {
			if c.Time-c.Start < 0.3 {
				return goap.Running
			}
			return goap.Success
		}})
	gb.Action(goap.Action{Name: "Rest", Cost: 2, Effects: []goap.Effect{{Fact: tired, Value: 0}},
		Run: func(c *goap.Context) goap.Status { return goap.Success }})
	gb.Goal(goap.Goal{Name: "Done", Priority: 1, Want: []goap.Cond{{Fact: done, Op: goap.Eq, Value: 1}}})
	gd, err := gb.Build()
	must(t, err)
	greg := &goap.Registry{}
	gid, err := greg.Add(gd)
	must(t, err)
	r, err := utility.New("pick", utility.Policy{Kind: utility.Softmax, Temperature: 0.2},
		utility.Action{Name: "go", Weight: 1, Considerations: []utility.Consideration{{Name: "t",
			Input: utility.Fact(func(a *systems.Agent) float64 { return a.Rand.Float64() }), Curve: utility.Quadratic(), Weight: 1}},
			Act: func(agent any) {
				a := agent.(*systems.Agent)
				a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 6.5, Y: 6.5}
			}},
		utility.Action{Name: "stay", Weight: 0.5})
	must(t, err)
	b := fsm.NewBuilder("mode")
	calm := b.State("calm", fsm.Hooks{})
	alert := b.State("alert", fsm.Hooks{})
	b.When(calm, func(c *fsm.Context) bool { return c.Memory.Elapsed > 0.3 }, alert)
	b.When(alert, func(c *fsm.Context) bool { return c.Memory.Elapsed > 0.2 }, calm)
	m, err := b.Build()
	must(t, err)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(12, 12))
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)
	spawn := func(n int, bundles ...systems.Bundle) {
		sp, err := systems.NewSpawner(w, bundles...)
		must(t, err)
		sp.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: 1.5 + float64(i), Y: 1.5 + float64(i%3)} })
	}
	spawn(4, systems.Mover{}, systems.HTNThinker{Registry: hreg, Domain: hid})
	spawn(4, systems.Mover{}, systems.GOAPThinker{Registry: greg, Domain: gid})
	spawn(4, systems.Mover{}, systems.Thinker{Reasoner: r})
	spawn(4, systems.Mover{}, systems.Thinker{Machine: m})
	sys := decidersSystems()
	sc := ecs.NewScheduler(sys...)
	sc.Initialize(w)
	sc.Run(w, 13)
	data, err := save.Save(w, nil, stateSystems(sys)...)
	must(t, err)
	sc.Finalize(w)
	reg := save.Registry{HTN: hreg, GOAP: greg, Reasoners: []*utility.Reasoner{r}, Machines: []*fsm.Machine{m},
		Components: []reflect.Type{reflect.TypeFor[components.HTNPlanner](), reflect.TypeFor[components.GOAPPlanner]()}}
	return &decidersWorld{reg: reg, htn: hreg, goap: greg, data: data, nums: jsonedit.Numbers(data)}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// stateSystems returns the systems of sys that save a state.
func stateSystems(sys []ecs.System) []save.State {
	var out []save.State
	for _, s := range sys {
		if st, ok := s.(save.State); ok {
			out = append(out, st)
		}
	}
	return out
}

var awkwardNumbers = []string{`"NaN"`, `"+Inf"`, `"-Inf"`, `-1`, `0`, `1e300`, `-1e300`, `4294967295`, `4294967296`,
	`9223372036854775807`, `-2147483648`, `65535`, `255`, `256`, `1`, `2`, `3`, `0.5`, `1e-300`, `100000`, `32`, `33`, `16`, `17`}

func runDeciders(t *testing.T, d *decidersWorld, data []byte) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(12, 12))
	arche.AddResource(w, d.htn)
	arche.AddResource(w, d.goap)
	l, err := save.LoadInto(data, d.reg, w)
	if err != nil {
		return
	}
	sys := decidersSystems()
	sc := ecs.NewScheduler(sys...)
	sc.Initialize(l.World)
	defer sc.Finalize(l.World)
	if err := l.Restore(stateSystems(sys)...); err != nil {
		return
	}
	sc.Run(l.World, 8)
	systems.Diagnose(l.World)
}

func FuzzDecidersEdited(f *testing.F) {
	d := newDeciders(f)
	for k := range len(awkwardNumbers) + 1 {
		for _, n := range []int{k * 41, k*97 + 5, len(d.nums) - 1 - k*13} {
			f.Add(uint16(n), uint16(k), 0.25, uint16(0), uint16(0))
		}
	}
	f.Fuzz(func(t *testing.T, num, kind uint16, val float64, num2, kind2 uint16) {
		data := jsonedit.Replace(d.data, d.nums, num, kind, val, awkwardNumbers)
		if num2 != 0 { // a second number of the edited file
			data = jsonedit.Replace(data, jsonedit.Numbers(data), num2, kind2, val, awkwardNumbers)
		}
		runDeciders(t, d, data)
	})
}
