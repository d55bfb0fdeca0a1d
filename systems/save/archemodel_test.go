package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/resource"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// roamer is an arche-model game of 8 roamers (a tree picks a random cell when the
// agent arrives) thinking every 0.5 s or 1 s by their level of detail, with the
// systems' state and a saver at a place in the schedule.
type roamer struct {
	m    *model.Model
	pq   *systems.PathQueue
	dec  *systems.Decision
	diag *systems.Diagnostics
}

// states are the systems' states to save and restore.
func (g *roamer) states() []save.State { return []save.State{g.pq, g.dec, g.diag} }

func roamTree(t *testing.T) *bt.Tree {
	tree, err := bt.Compile("roam", bt.Action("roam", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		if !a.Intent.Move || r2.Norm(r2.Sub(a.Position.Vec, a.Intent.Goal)) < 1.5 {
			a.Intent.Move = true
			a.Intent.Goal = r2.Vec{X: 1.5 + float64(a.Rand.Intn(22)), Y: 1.5 + float64(a.Rand.Intn(10))}
		}
		return bt.Running
	}))
	require.NoError(t, err)
	return tree
}

// newRoamers builds the game; with spawn, it spawns the roamers (not for a load), and
// with sv, it schedules it at place: "first", "afterclock", "mid" (between Decision and
// the PathQueue) or "last".
func newRoamers(t *testing.T, tree *bt.Tree, spawn bool, sv ecs.System, place string) *roamer {
	g := &roamer{m: model.New(), pq: &systems.PathQueue{Budget: 150}, dec: &systems.Decision{}, diag: &systems.Diagnostics{Every: 60}}
	w := &g.m.World
	arche.AddResource(w, corridorMap())
	if spawn {
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Interval: 0.5}, systems.With(components.LOD{}))
		require.NoError(t, err)
		sp.SpawnBatch(8, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: 1.5 + 2.5*float64(i), Y: 20.5} })
	}
	list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{},
		&systems.LOD{Points: []r2.Vec{{X: 1.5, Y: 20.5}}, Levels: []systems.LODLevel{{Distance: 10, Interval: 0.5}, {Distance: 40, Interval: 1}}},
		g.dec, g.pq, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, g.diag}
	at := map[string]int{"first": 0, "afterclock": 1, "mid": 4, "last": len(list)}
	if sv != nil {
		i := at[place]
		list = append(list[:i], append([]ecs.System{sv}, list[i:]...)...)
	}
	for _, s := range list {
		g.m.AddSystem(s)
	}
	return g
}

// tickSaver saves from inside the Model's frame in which the Tick resource reads At.
type tickSaver struct {
	At     int64
	G      *roamer
	Data   []byte
	Err    error
	Frames int64 // frames the saved world had run (its Clock's Frame+1)
}

func (s *tickSaver) Initialize(*arche.World) {}
func (s *tickSaver) Finalize(*arche.World)   {}
func (s *tickSaver) Update(w *arche.World) {
	if ecs.Resource[resource.Tick](w).Tick == s.At {
		s.Data, s.Err = save.Save(w, nil, s.G.states()...)
		if c := ecs.Resource[ecs.Clock](w); c.Started {
			s.Frames = c.Frame + 1
		}
	}
}

// Under arche-model's Model (archai's systems added one by one, no ecs.Scheduler), a
// save from a system between two of archai's is refused naming them (before, it was
// taken and the loaded run parted from the unbroken one, every call returning nil: a
// newcomer's village), from right after the ClockSystem too (the frame begun, no
// system run); from a system scheduled before or after all of them it is taken, in a
// frame where the Diagnostics (Every 60) and the Decision (agents thinking every 0.5 s
// and 1 s) skip their work, and the loaded run continues as the unbroken one.
func TestSaveInsideArcheModelFrame(t *testing.T) {
	const total = 150
	tree := roamTree(t)
	g := newRoamers(t, tree, true, nil, "")
	g.m.Initialize()
	for range total {
		g.m.Update()
	}
	unbroken := systems.StateHash(&g.m.World)
	g.m.Finalize()

	for place, want := range map[string]string{
		"afterclock": "clock has run this frame, spatial has not",
		"mid":        "decision has run this frame, pathqueue has not",
	} {
		sv := &tickSaver{At: 45}
		g := newRoamers(t, tree, true, sv, place)
		sv.G = g
		g.m.Initialize()
		for range 50 {
			g.m.Update()
		}
		require.ErrorIs(t, sv.Err, save.ErrState, place)
		assert.Contains(t, sv.Err.Error(), want, place)
		assert.Nil(t, sv.Data, place)
		g.m.Finalize()
	}

	for place, frames := range map[string]int64{"first": 45, "last": 46} {
		sv := &tickSaver{At: 45}
		g := newRoamers(t, tree, true, sv, place)
		sv.G = g
		g.m.Initialize()
		for range 50 {
			g.m.Update()
		}
		require.NoError(t, sv.Err, place)
		require.Equal(t, frames, sv.Frames, place)
		assert.NotZero(t, 45%g.diag.Every, "Diagnostics skipped its check in the frame saved")
		g.m.Finalize()

		l := newRoamers(t, tree, false, nil, "")
		loaded, err := save.LoadInto(sv.Data, save.Registry{Trees: []*bt.Tree{tree}}, &l.m.World)
		require.NoError(t, err, place)
		l.m.Initialize()
		require.NoError(t, loaded.Restore(l.states()...), place)
		for range total - frames {
			l.m.Update()
		}
		assert.Equal(t, unbroken, systems.StateHash(&l.m.World), "saved from the system scheduled %s", place)
		l.m.Finalize()
	}
}
