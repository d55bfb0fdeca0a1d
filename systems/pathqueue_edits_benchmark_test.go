package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// BenchmarkRepathAfterEdit: 10,000 agents each hold a 60-waypoint path
// along a row of a 512×512 grid; every op closes or opens one cell (the
// door) and runs the path queue's check of every held path against it
// (repathEdited; one agent in 512 crosses it: those are asked to repath,
// then given their path back). Reported per agent.
func BenchmarkRepathAfterEdit(b *testing.B) {
	const agents = 10000
	w, g := newWorld(512, 512)
	m := generic.NewMap2[components.Path, components.Position](w)
	for i := 0; i < agents; i++ {
		e := m.New()
		p, pos := m.Get(e)
		y := int32(i % 512)
		x0 := int32(i/512) * 20
		pos.Vec = r2.Vec{X: float64(x0) + 0.5, Y: float64(y) + 0.5}
		p.State, p.Next = components.PathReady, 1
		for k := int32(0); k < 60; k++ {
			p.Waypoints = append(p.Waypoints, grid.Cell{X: x0 + k, Y: y})
		}
		p.Goal = p.Waypoints[59]
	}
	pq := &PathQueue{}
	pq.Initialize(w)
	door := grid.Cell{X: 30, Y: 200}
	b.ReportAllocs()
	b.ResetTimer()
	repathed := 0
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			g.SetCost(door, grid.Blocked)
		} else {
			g.SetCost(door, 1)
		}
		repathed += pq.repathEdited(w)
		b.StopTimer()
		q := pq.filter.Query(w)
		for q.Next() {
			p, _ := q.Get()
			p.Want = false
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/agents, "ns/agent")
	b.ReportMetric(float64(repathed)/float64(b.N), "repathed/op")
}
