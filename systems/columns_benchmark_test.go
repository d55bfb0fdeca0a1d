package systems

import (
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// benchColumns is a world of 100,000 agents in two archetypes (half with a
// SteeringWeights) and the columns of Movement's size (4 columns).
func benchColumns(b *testing.B) (*arche.World, *generic.Filter3[components.Position, components.Velocity, components.Kinematics], *columns) {
	w := arche.NewWorld()
	posID := arche.ComponentID[components.Position](&w)
	velID := arche.ComponentID[components.Velocity](&w)
	kinID := arche.ComponentID[components.Kinematics](&w)
	wtID := arche.ComponentID[components.SteeringWeights](&w)
	for i := 0; i < 100_000; i++ {
		ids := []arche.ID{posID, velID, kinID}
		if i%2 == 1 {
			ids = append(ids, wtID)
		}
		w.NewEntity(ids...)
	}
	f := generic.NewFilter3[components.Position, components.Velocity, components.Kinematics]()
	c := new(columns)
	c.column(posID, unsafe.Sizeof(components.Position{}))
	c.column(velID, unsafe.Sizeof(components.Velocity{}))
	c.column(kinID, unsafe.Sizeof(components.Kinematics{}))
	c.column(wtID, unsafe.Sizeof(components.SteeringWeights{}))
	return &w, f, c
}

// BenchmarkColumnsScan measures columns.scan (entities and runs) per entity
// of a 100,000-agent query of two archetypes: the serial time a system pays
// before its workers start.
func BenchmarkColumnsScan(b *testing.B) {
	w, f, c := benchColumns(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		q := f.Query(w)
		c.scan(w, &q.Query)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
}

// BenchmarkColumnsScanRuns is BenchmarkColumnsScan for columns.scanRuns
// (runs and count only).
func BenchmarkColumnsScanRuns(b *testing.B) {
	w, f, c := benchColumns(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		q := f.Query(w)
		c.scanRuns(w, &q.Query)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
}
