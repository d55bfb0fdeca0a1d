package flowfield_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// resizes are (width, height) of a map and of the map of another size copied over
// it in place, larger, smaller, reshaped and down to one cell.
var resizes = [][4]int{{16, 16, 40, 40}, {40, 40, 16, 16}, {16, 16, 8, 64}, {30, 30, 1, 1}, {1, 1, 9, 5}}

// A map of another size copied over the grid in place (*g = *other.Clone(), the way
// grid.Grid.Clone's doc gives to change the map the systems hold): a Field, a Cache
// and a SectorField made on the old map indexed the new one with the old size and
// panicked (index out of range) or read another cell's value. Now each answers, from
// its old build, only for cells within its old size until rebuilt, and its next
// build (Field.Start, Cache.Request, SectorField.Update or SetGoal) equals one made
// on the new map from nothing; a Cache drops the old map's fields.
func TestFieldsOfAGridResizedInPlace(t *testing.T) {
	for _, sz := range resizes {
		t.Run(fmt.Sprint(sz), func(t *testing.T) {
			far := grid.Cell{X: int32(sz[2] - 1), Y: int32(sz[3] - 1)}
			fresh := func(g *grid.Grid) *flowfield.Field {
				f := flowfield.New(g)
				f.Build(grid.Cell{})
				return f
			}
			requireSameField := func(t *testing.T, got, want *flowfield.Field) {
				t.Helper()
				for y := int32(-1); y <= int32(sz[3]); y++ {
					for x := int32(-1); x <= int32(sz[2]); x++ {
						c := grid.Cell{X: x, Y: y}
						n, ok := got.Next(c)
						n2, ok2 := want.Next(c)
						require.Equal(t, want.Integration(c), got.Integration(c), "%v", c)
						require.Equal(t, [2]any{n2, ok2}, [2]any{n, ok}, "%v", c)
					}
				}
			}

			g := grid.New(sz[0], sz[1])
			f := flowfield.New(g)
			f.Build(grid.Cell{X: int32(sz[0] - 1), Y: int32(sz[1] - 1)})
			*g = *grid.New(sz[2], sz[3]).Clone()
			require.True(t, f.Stale())
			require.NotPanics(t, func() { // reads before the rebuild: the old cells only
				for y := int32(-1); y <= int32(max(sz[1], sz[3])); y++ {
					for x := int32(-1); x <= int32(max(sz[0], sz[2])); x++ {
						c := grid.Cell{X: x, Y: y}
						f.Next(c)
						f.Integration(c)
						f.Walk(c, make([]grid.Cell, 4))
						f.Prefetch(c)
						f.Sample(g.Center(c))
					}
				}
			})
			f.Build(grid.Cell{})
			require.False(t, f.Stale())
			requireSameField(t, f, fresh(g))

			g = grid.New(sz[0], sz[1])
			c := flowfield.NewCache(g, 1)
			c.Get(grid.Cell{X: 1 % int32(sz[0]), Y: 0})
			*g = *grid.New(sz[2], sz[3]).Clone()
			require.NotPanics(t, func() { requireSameField(t, c.Get(grid.Cell{}), fresh(g)) })
			require.Equal(t, 1, c.Len())
			st, err := c.State()
			require.NoError(t, err)
			require.Len(t, st.Entries, 1)

			g = grid.New(sz[0], sz[1])
			c = flowfield.NewCache(g, 2)
			c.Get(grid.Cell{X: int32(sz[0] - 1), Y: int32(sz[1] - 1)}) // a field for a cell of the old map only
			*g = *grid.New(sz[2], sz[3]).Clone()
			st, err = c.State() // the old map's field is dropped, not described
			require.NoError(t, err)
			require.Empty(t, st.Entries)
			require.NotPanics(t, func() { requireSameField(t, c.Get(grid.Cell{}), fresh(g)) })

			g = grid.New(sz[0], sz[1])
			s, err := flowfield.NewSectors(g, 4)
			require.NoError(t, err)
			sf := flowfield.NewSectorField(s)
			sf.SetGoal(grid.Cell{X: int32(sz[0] - 1), Y: int32(sz[1] - 1)})
			sf.Update(1 << 30)
			*g = *grid.New(sz[2], sz[3]).Clone()
			require.True(t, sf.Stale())
			require.NotPanics(t, func() { // before the field's Update: no direction, no panic
				for y := int32(-1); y <= int32(max(sz[1], sz[3])); y++ {
					for x := int32(-1); x <= int32(max(sz[0], sz[2])); x++ {
						c := grid.Cell{X: x, Y: y}
						sf.Next(c)
						sf.Integration(c)
						sf.Request(c)
						sf.Sample(g.Center(c))
					}
				}
			})
			_, err = sf.State()
			require.Error(t, err, "not caught up: no state to save")
			sf.SetGoal(grid.Cell{})
			s2, err := flowfield.NewSectors(g, 4)
			require.NoError(t, err)
			sf2 := flowfield.NewSectorField(s2)
			sf2.SetGoal(grid.Cell{})
			acr, down := s.Count()
			acr2, down2 := s2.Count()
			require.Equal(t, [2]int{acr2, down2}, [2]int{acr, down})
			require.Equal(t, s2.Nodes(), s.Nodes())
			for _, f := range []*flowfield.SectorField{sf, sf2} {
				f.Request(far)
				f.Update(1 << 30)
			}
			for y := int32(-1); y <= int32(sz[3]); y++ {
				for x := int32(-1); x <= int32(sz[2]); x++ {
					c := grid.Cell{X: x, Y: y}
					n, ok := sf.Next(c)
					n2, ok2 := sf2.Next(c)
					require.Equal(t, [2]any{n2, ok2}, [2]any{n, ok}, "%v", c)
					require.Equal(t, sf2.Integration(c), sf.Integration(c), "%v", c)
				}
			}
			_, err = sf.State()
			require.NoError(t, err)
			v, ok := sf.Sample(r2.Vec{X: float64(far.X) + 0.5, Y: float64(far.Y) + 0.5})
			v2, ok2 := sf2.Sample(r2.Vec{X: float64(far.X) + 0.5, Y: float64(far.Y) + 0.5})
			require.Equal(t, [2]any{v2, ok2}, [2]any{v, ok})
		})
	}
}
