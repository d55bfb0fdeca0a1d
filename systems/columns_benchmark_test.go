package systems

import (
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
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

// BenchmarkColumnsScanShared is BenchmarkColumnsScan for columns.scanShared
// with 2 workers: the calling goroutine's share is the runs alone.
func BenchmarkColumnsScanShared(b *testing.B) {
	w, f, c := benchColumns(b)
	pool := ecs.NewWorkers(2)
	defer pool.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c.scanShared(w, f.Filter(w), pool)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
}

// BenchmarkColumnsEntitiesAt is the read of one entity in six (the due
// agents of a think rate of 10 Hz at 60 frames a second) after scanRuns.
func BenchmarkColumnsEntitiesAt(b *testing.B) {
	w, f, c := benchColumns(b)
	idx := make([]int32, 0, 100_000/6+1)
	for i := int32(0); i < 100_000; i += 6 {
		idx = append(idx, i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		q := f.Query(w)
		c.scanRuns(w, &q.Query)
		c.entitiesAt(w, f.Filter(w), idx)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
}
