package systems

import (
	"sort"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// bufSpan is the address range of a buffer's backing array up to its capacity.
type bufSpan struct {
	lo, hi uintptr
	who    string
}

// requireDisjoint fails when two of the buffers share a cell of backing array.
func requireDisjoint(t *testing.T, spans []bufSpan) {
	t.Helper()
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	for i := 1; i < len(spans); i++ {
		require.LessOrEqual(t, spans[i-1].hi, spans[i].lo, "%s and %s share a backing array", spans[i-1].who, spans[i].who)
	}
}

func span(b []grid.Cell, who string) (bufSpan, bool) {
	if cap(b) == 0 {
		return bufSpan{}, false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return bufSpan{lo, lo + uintptr(cap(b))*unsafe.Sizeof(grid.Cell{}), who}, true
}

// Agents taking long and short paths in turn, with buffers of every kind (nil,
// below the smallest class, the bundles' 64), some replaced in place by
// Spawner.Respawn (whose recycled buffers may have come from the spares),
// never share a backing array with each other, with the queue's spares or
// with the Spawner's recycled buffers, and each holds its own path.
func TestPathQueueSparesNeverAlias(t *testing.T) {
	t.Parallel()
	w, g := newWorld(96, 96)
	for y := int32(0); y < 90; y++ { // a wall with a gap at the bottom: long detours
		g.SetCost(grid.Cell{X: 48, Y: y}, grid.Blocked)
	}
	m := generic.NewMap2[components.Path, components.Position](w)
	sp, err := NewSpawner(w, Mover{})
	require.NoError(t, err)
	const n = 60
	var es []arche.Entity
	start := func(i int) r2.Vec { return r2.Vec{X: 2.5 + float64(i%40), Y: 2.5 + float64(i/40)} }
	for i := range n {
		es = append(es, sp.Spawn(start(i), nil))
	}
	r := steer.NewRand(7)
	for i, e := range es {
		p, _ := m.Get(e)
		switch i % 3 {
		case 0:
			p.Waypoints = nil
		case 1:
			p.Waypoints = make([]grid.Cell, 0, 8)
		}
	}
	pq := &PathQueue{Budget: 1 << 22}
	pq.Initialize(w)
	for frame := range 30 {
		for i, e := range es {
			if r.Intn(6) == 0 { // replaced in place: the Spawner recycles its buffer
				require.NoError(t, sp.Respawn(e, start(i), nil))
			}
		}
		for _, e := range es {
			p, pos := m.Get(e)
			here := g.CellAt(pos.Vec)
			var goal grid.Cell
			if r.Float64() < 0.5 { // near
				goal = grid.Cell{X: min(here.X+1+int32(r.Intn(5)), 47), Y: here.Y}
			} else { // across the wall, some far
				goal = grid.Cell{X: 50 + int32(r.Intn(45)), Y: int32(r.Intn(95))}
			}
			p.Want, p.Goal = true, goal
		}
		pq.Update(w)
		var spans []bufSpan
		for i, e := range es {
			p, pos := m.Get(e)
			require.Equal(t, components.PathReady, p.State, "frame %d agent %d", frame, i)
			require.Equal(t, g.CellAt(pos.Vec), p.Waypoints[0], "frame %d agent %d starts at its cell", frame, i)
			require.Equal(t, p.Goal, p.Waypoints[len(p.Waypoints)-1], "frame %d agent %d ends at its goal", frame, i)
			if s, ok := span(p.Waypoints, "agent"); ok {
				spans = append(spans, s)
			}
		}
		for _, b := range sp.waypoints {
			if s, ok := span(b, "recycled"); ok {
				spans = append(spans, s)
			}
		}
		for k := range pq.spares.spare {
			for _, b := range pq.spares.spare[k] {
				if s, ok := span(b, "spare"); ok {
					spans = append(spans, s)
				}
			}
		}
		requireDisjoint(t, spans)
	}
	classes := 0
	for _, k := range pq.spares.made {
		classes += boolInt(k > 0)
	}
	require.GreaterOrEqual(t, classes, 2, "buffers were exchanged in several classes")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
