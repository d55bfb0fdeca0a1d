package save_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A door of 4 cells in one column, closed when saving and open in the world loaded
// into, is located by its column as well as its rows wherever it stands. The column's
// hash kept only the FNV state's low 32 bits, where a cost 1 ↔ Blocked change leaves a
// trace two bits wide: about one door in four hashed its column alike, and the error
// named the rows alone (a newcomer's 49×49 arena, door at x = 24, y = 30…33).
func TestGridMismatchLocatesAColumnDoor(t *testing.T) {
	missed := 0
	for x := int32(0); x < 16; x++ {
		for y0 := int32(0); y0+4 <= 16; y0 += 3 {
			saved := grid.New(16, 16)
			for y := y0; y < y0+4; y++ {
				saved.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			}
			data, err := save.Save(worldWith(saved), nil)
			require.NoError(t, err)
			_, err = save.LoadInto(data, save.Registry{}, worldWith(grid.New(16, 16)))
			require.ErrorIs(t, err, save.ErrGridMismatch)
			want := fmt.Sprintf("they differ only in cells of the rows y = %d, %d, %d, %d and the columns x = %d:",
				y0, y0+1, y0+2, y0+3, x)
			if !assert.ErrorContains(t, err, want, "door at x = %d, y = %d…%d", x, y0, y0+3) {
				missed++
			}
		}
	}
	assert.Zero(t, missed, "doors whose column the error did not name")
}
