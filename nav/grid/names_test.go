package grid_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
)

// TestOptionsPrintByName: Moves and Heuristic print as their constants'
// names, so that fmt.Printf("%+v", opts) reads; a value that is none prints
// as its type and number.
func TestOptionsPrintByName(t *testing.T) {
	for h, want := range []string{"AutoHeuristic", "OctileHeuristic", "ManhattanHeuristic", "EuclideanHeuristic", "ZeroHeuristic", "Heuristic(5)"} {
		assert.Equal(t, want, grid.Heuristic(h).String())
	}
	assert.Equal(t, "Moves8 Moves4 Moves(2)", fmt.Sprint(grid.Moves8, grid.Moves4, grid.Moves(2)))
	assert.Equal(t, "{Moves:Moves4 Heuristic:ManhattanHeuristic}", fmt.Sprintf("%+v", struct {
		Moves     grid.Moves
		Heuristic grid.Heuristic
	}{grid.Moves4, grid.ManhattanHeuristic}))
}
