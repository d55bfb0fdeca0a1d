package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowHeading: the axes of the last heading the collect pass prefetches
// along: an axis counts when its part is over 0.4 of the other's; none
// without a sample (Steer false).
func TestFlowHeading(t *testing.T) {
	p := r2.Vec{X: 10.5, Y: 20.5}
	for _, c := range []struct {
		aim    r2.Vec
		steer  bool
		dx, dy int
	}{
		{r2.Vec{X: 14.5, Y: 20.5}, true, 1, 0},
		{r2.Vec{X: 6.5, Y: 20.5}, true, -1, 0},
		{r2.Vec{X: 10.5, Y: 16.5}, true, 0, -1},
		{r2.Vec{X: 13.5, Y: 23.5}, true, 1, 1},        // diagonal
		{r2.Vec{X: 14.5, Y: 22.1}, true, 1, 1},        // 1.6 of 4: over 0.4
		{r2.Vec{X: 14.5, Y: 21.9}, true, 1, 0},        // 1.4 of 4: under
		{r2.Vec{X: 7.5, Y: 24.5}, true, -1, 1},        // 3 of 4
		{r2.Vec{X: 14.5, Y: 20.5}, false, 0, 0},       // no sample
		{r2.Vec{X: 10.5, Y: 20.5}, true, 0, 0},        // at the aim
		{r2.Vec{X: 10.5, Y: math.Inf(1)}, true, 0, 1}, // +Inf: straight down
	} {
		ff := components.FlowFollower{Aim: c.aim, Steer: c.steer}
		dx, dy := heading(&ff, p)
		assert.Equal(t, [2]int{c.dx, c.dy}, [2]int{dx, dy}, "aim %v steer %v", c.aim, c.steer)
	}
}
