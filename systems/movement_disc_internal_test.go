package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// The bits of the cells beside a wall that Movement keeps (besideWall) are
// the same after patches for a few edits at a time, up to 300 edits in all
// (blocking and opening cells, the border included), as built whole from
// the grid.
func TestBesideWallBitsPatchedAsRebuilt(t *testing.T) {
	g := grid.New(37, 23)
	rng := rand.New(rand.NewPCG(3, 4))
	patched := wallBits{bitsOnly: true, withBeside: true}
	patched.update(g)
	for round := range 60 {
		for range 1 + rng.IntN(5) {
			c := grid.Cell{X: int32(rng.IntN(37)), Y: int32(rng.IntN(23))}
			if rng.IntN(3) == 0 {
				g.SetCost(c, 1)
			} else {
				g.SetCost(c, grid.Blocked)
			}
		}
		patched.update(g)
		whole := wallBits{bitsOnly: true, withBeside: true}
		whole.update(g)
		require.Equal(t, whole.besideWall, patched.besideWall, "round %d", round)
		for y := range int32(23) {
			for x := range int32(37) {
				beside := false
				for dy := int32(-1); dy <= 1; dy++ {
					for dx := int32(-1); dx <= 1; dx++ {
						c := grid.Cell{X: x + dx, Y: y + dy}
						beside = beside || !g.InBounds(c) || !g.Passable(c)
					}
				}
				require.Equal(t, !beside, patched.roomy(x, y), "round %d: cell (%d, %d)", round, x, y)
			}
		}
	}
	require.False(t, patched.roomy(-1, 0))
	require.False(t, patched.roomy(0, 23))
}
