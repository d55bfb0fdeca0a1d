package bt_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dumpText keeps the first 64 KiB of a Dump, its last line and its size.
type dumpText struct {
	head strings.Builder
	tail []byte
	n    int
}

func (d *dumpText) Write(p []byte) (int, error) {
	d.n += len(p)
	if room := 64<<10 - d.head.Len(); room > 0 {
		d.head.Write(p[:min(room, len(p))])
	}
	d.tail = append(d.tail, p...)
	if len(d.tail) > 4096 {
		d.tail = append(d.tail[:0], d.tail[len(d.tail)-4096:]...)
	}
	return len(p), nil
}

func (d *dumpText) lastLine() string {
	lines := strings.Split(strings.TrimSuffix(string(d.tail), "\n"), "\n")
	return lines[len(lines)-1]
}

// A line of Dump was indented 4 runes a level, so a chain of 10,000 decorators was
// about 200 MB of text (a third of a GB for 12,000). Past 64 levels a line now gives
// its depth as a number in place of the indentation, so the text grows linearly with
// the nodes; the first 64 levels are written as before.
func TestDumpOfAVeryDeepTreeIsLinear(t *testing.T) {
	dump := func(depth int, tick bool) *dumpText {
		n := bt.AlwaysSuccess()
		for range depth {
			n = bt.Inverter(n)
		}
		tree, err := bt.Compile("deep", n)
		require.NoError(t, err)
		var d dumpText
		if tick {
			m := tree.NewMemory()
			tree.Tick(&m, &bt.Context{})
			require.NoError(t, tree.Dump(&d, &m))
		} else {
			require.NoError(t, tree.Dump(&d, nil))
		}
		return &d
	}
	d := dump(10000, false)
	assert.Less(t, d.n, 400_000, "bytes at depth 10,000")
	d2 := dump(20000, false)
	assert.InDelta(t, 2, float64(d2.n)/float64(d.n), 0.1, "bytes at depth 20,000 over 10,000")

	lines := strings.Split(d.head.String(), "\n")
	assert.Equal(t, "Inverter", lines[0])
	assert.Equal(t, "└── Inverter", lines[1])
	assert.Equal(t, strings.Repeat("    ", 63)+"└── Inverter", lines[64])
	assert.Equal(t, "[65] └── Inverter", lines[65])
	assert.Equal(t, "[66] └── Inverter", lines[66])
	assert.Equal(t, "[10000] └── AlwaysSuccess", d.lastLine())

	d = dump(10000, true)
	assert.Less(t, d.n, 600_000, "bytes at depth 10,000 with statuses")
	lines = strings.Split(d.head.String(), "\n")
	assert.Equal(t, "Inverter                                     Success", lines[0])
	assert.Equal(t, strings.Repeat("    ", 63)+"└── Inverter Success", lines[64]) // 9,936 Inverters over a Success
	assert.Equal(t, "[65] └── Inverter Failure", lines[65])
	assert.Equal(t, "[10000] └── AlwaysSuccess Success", d.lastLine())

	// under both kinds of guide: a deep comb's lines past 64 keep their branch
	comb := bt.Sequence(bt.AlwaysSuccess(), bt.AlwaysFailure())
	for range 100 {
		comb = bt.Sequence(comb, bt.AlwaysSuccess())
	}
	tree, err := bt.Compile("comb", comb)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, tree.Dump(&b, nil))
	lines = strings.Split(b.String(), "\n")
	assert.Equal(t, strings.Repeat("│   ", 63)+"├── Sequence", lines[64])
	assert.Equal(t, "[65] ├── Sequence", lines[65])
	assert.Equal(t, "[101] └── AlwaysFailure", lines[102])
	assert.Equal(t, "[100] └── AlwaysSuccess", lines[103])
}
