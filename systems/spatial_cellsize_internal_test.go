package systems

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/archai-go/archai/nav/spatial"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkPanic returns checkHashCell's panic message for c on a w×h map, "" if none.
func checkPanic(c float64, w, h int) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	checkHashCell(c, w, h)
	return ""
}

// The least bucket side a too-small Spatial.CellSize's message names is accepted on maps
// of every shape (the ceilings of the bucket counts make the square-root estimate too
// small on a 1×2^20 or 3×70000 map), and is about the least: 5% less is refused.
func TestHashCellLeastSideFits(t *testing.T) {
	for _, size := range [][2]int{{64, 64}, {8000, 8000}, {1, 1 << 20}, {3, 70000}, {1 << 13, 1 << 13}, {10000, 10000}, {16385, 16385}} {
		msg := checkPanic(1e-9, size[0], size[1])
		const at = "set a bucket side of at least "
		require.Contains(t, msg, at)
		var least float64
		_, err := fmt.Sscanf(msg[strings.Index(msg, at)+len(at):], "%g", &least)
		require.NoError(t, err, msg)
		assert.Empty(t, checkPanic(least, size[0], size[1]), "%v: the least side named (%v) is accepted", size, least)
		assert.NotEmpty(t, checkPanic(least/1.05, size[0], size[1]), "%v: and about the least", size)
		buckets := math.Ceil(float64(size[0])/least) * math.Ceil(float64(size[1])/least)
		assert.LessOrEqual(t, buckets, float64(spatial.MaxBuckets))
	}
}

// review18: the default is suggested only where it fits (on a 16385² map DefaultHashCell
// makes too many buckets too).
func TestHashCellSuggestsTheDefaultOnlyWhereItFits(t *testing.T) {
	assert.Contains(t, checkPanic(1, 10000, 10000), "or 0 for DefaultHashCell")
	msg := checkPanic(1, 16385, 16385)
	require.NotEmpty(t, msg)
	assert.NotContains(t, msg, "DefaultHashCell")
	assert.NotEmpty(t, checkPanic(DefaultHashCell, 16385, 16385))
}
