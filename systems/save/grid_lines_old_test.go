package save

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
)

// A file written before gridPrint.Lines holds line hashes of the FNV state's low 32
// bits; they still locate a difference (one cell changed), and a new file's folded ones
// are not read as such.
func TestGridLineHashesOfOldFilesStillLocate(t *testing.T) {
	g := grid.New(16, 16)
	p := fingerprint(g)
	assert.Equal(t, foldedLines, p.Lines)
	rows, cols := lineHashes(g, false)
	old := p
	old.Rows, old.Cols, old.Lines = encodeLines(rows), encodeLines(cols), 0

	edited := grid.New(16, 16)
	edited.SetCost(grid.Cell{X: 5, Y: 9}, grid.Blocked)
	want := "they differ at the cell (5, 9) only (blocked in this world)"
	assert.Equal(t, want, old.where(edited), "an old file")
	assert.Equal(t, want, p.where(edited), "a new file")
	assert.NotEqual(t, p.Rows, old.Rows, "the two schemes hash apart")
}
