package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent with a components.LOD while no LOD system runs thinks at its Thinker's rate
// wherever it is, and its LOD component stays at level 0: newbie14 spawned 4,000 agents
// with systems.With(components.LOD{}) and left the system out of one schedule, and
// nothing said so (every other component whose system is missing is counted).
func TestDiagnoseReportsALODWithoutItsSystem(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	for _, withLOD := range []bool{false, true} {
		w, _ := newWorld(64, 64)
		sp, err := NewSpawner(w, Thinker{Tree: tree}, With(components.LOD{}))
		require.NoError(t, err)
		a := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		sp.Spawn(r2.Vec{X: 3.5, Y: 2.5}, nil)
		cam := w.NewEntity()
		put(w, cam, components.Position{Vec: r2.Vec{X: 2, Y: 2}})
		put(w, cam, components.Focus{})
		// before any archai system is initialized, a missing one cannot be told
		assert.Zero(t, Diagnose(w).Counts[CauseNoLODSystem])
		list := []ecs.System{ecs.NewClockSystem(1.0 / 60)}
		if withLOD {
			list = append(list, &LOD{Points: []r2.Vec{{X: 2, Y: 2}}})
		}
		s := ecs.NewScheduler(append(list, &Decision{})...)
		s.Initialize(w)
		r := Diagnose(w)
		if withLOD {
			assert.Zero(t, r.Total(), "%s", r)
		} else {
			assert.Equal(t, 2, r.Counts[CauseNoLODSystem], "%s", r)
			assert.Equal(t, a, r.Examples[CauseNoLODSystem])
			assert.Contains(t, r.String(), "no_lod_system 2 (e.g. entity 1, a LOD with a Focus in the world needs systems.LOD, before the decision systems)")
			d := &Diagnostics{Every: 1}
			d.Initialize(w)
			d.Check(w)
			assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }), "the check allocates nothing")
			d.Finalize(w)
		}
		if !withLOD { // without a focus point, a LOD component is no sign a level of detail was meant
			w.RemoveEntity(cam)
			assert.Zero(t, Diagnose(w).Counts[CauseNoLODSystem])
		}
		s.Finalize(w)
	}
}
