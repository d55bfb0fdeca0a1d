package flowfield

import (
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// restoreFuzzGrid is a 32×32 grid with a wall, open at both ends, and one dearer cell.
func restoreFuzzGrid() *grid.Grid {
	g := grid.New(32, 32)
	for y := int32(3); y < 28; y++ {
		g.SetCost(grid.Cell{X: 12, Y: y}, grid.Blocked)
	}
	g.SetCost(grid.Cell{X: 5, Y: 5}, 3)
	return g
}

// FuzzCacheRestore feeds Cache.Restore edited states of a real cache (fields of both
// kinds, one stale after a grid edit, builds part done): it returns an error or a cache
// that updates and samples without a panic. Run with:
//
//	go test -run XXX -fuzz FuzzCacheRestore -fuzztime 1m ./nav/flowfield
func FuzzCacheRestore(f *testing.F) {
	g := restoreFuzzGrid()
	c := NewCache(g, 4)
	c.Request(grid.Cell{X: 1, Y: 1})
	c.RequestWide(grid.Cell{X: 20, Y: 20}, 2)
	c.Update(50)
	g.SetCost(grid.Cell{X: 12, Y: 1}, grid.Blocked)
	c.Request(grid.Cell{X: 30, Y: 2})
	c.Update(100000)
	c.Request(grid.Cell{X: 1, Y: 1})
	c.Update(30)
	st, err := c.State()
	if err != nil {
		f.Fatal(err)
	}
	b, _ := json.Marshal(st)
	f.Add(b)
	final := g
	f.Fuzz(func(t *testing.T, data []byte) {
		var st CacheState
		if json.Unmarshal(data, &st) != nil || st.Capacity > 64 {
			return
		}
		c := NewCache(final.Clone(), 4)
		if err := c.Restore(st); err != nil {
			return
		}
		c.Update(1000)
		for _, e := range st.Entries {
			if fl := c.GetWide(e.Goal, e.Clearance); fl != nil {
				fl.Sample(r2.Vec{X: 3.2, Y: 7.7})
			}
		}
	})
}

// FuzzSectorFieldRestore is FuzzCacheRestore for SectorField.Restore: states saved
// before and after a grid edit (one field behind the sectors, one refreshed).
func FuzzSectorFieldRestore(f *testing.F) {
	g := restoreFuzzGrid()
	s, err := NewSectors(g, 8)
	if err != nil {
		f.Fatal(err)
	}
	a, b := NewSectorField(s), NewSectorField(s)
	a.SetGoal(grid.Cell{X: 2, Y: 2})
	a.Request(grid.Cell{X: 30, Y: 30})
	a.Update(3)
	b.SetGoal(grid.Cell{X: 30, Y: 1})
	b.Request(grid.Cell{X: 1, Y: 30})
	b.Update(100)
	for _, fl := range []*SectorField{a, b} {
		st, err := fl.State()
		if err != nil {
			f.Fatal(err)
		}
		d, _ := json.Marshal(st)
		f.Add(d)
	}
	g.SetCost(grid.Cell{X: 12, Y: 1}, grid.Blocked)
	b.Update(100)
	for _, fl := range []*SectorField{a, b} {
		st, err := fl.State()
		if err != nil {
			f.Fatal(err)
		}
		d, _ := json.Marshal(st)
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var st SectorFieldState
		if json.Unmarshal(data, &st) != nil {
			return
		}
		s2, err := NewSectors(g.Clone(), 8)
		if err != nil {
			t.Fatal(err)
		}
		fl := NewSectorField(s2)
		if err := fl.Restore(st); err != nil {
			return
		}
		fl.Update(100)
		fl.Sample(r2.Vec{X: 3.5, Y: 20.5})
		fl.Next(grid.Cell{X: 31, Y: 31})
		fl.Integration(grid.Cell{X: 0, Y: 31})
		fl.State()
	})
}
