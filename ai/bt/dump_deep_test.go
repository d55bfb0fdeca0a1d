package bt_test

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Dump writes as it goes, with one prefix for the path: a tree of depth d writes O(d²)
// bytes, and before, all of them were held in memory at once, with a prefix string per
// level, and garbage of the same order on top: a chain of 4,000 Inverters allocated 250
// MiB, one of 65,535 (a tree Compile accepts) about 8.6 GB held at once, and save.Save,
// which fingerprints every tree with its Dump, ran out of memory. The lines past
// bt.DumpIndentDepth are numbered since, not indented (TestDumpOfAVeryDeepTreeIsLinear);
// Fingerprint still hashes the indented text (saved fingerprints hold).
func TestDumpOfADeepTreeKeepsLittleInMemory(t *testing.T) {
	n := bt.AlwaysSuccess()
	const depth = 4000
	for range depth {
		n = bt.Inverter(n)
	}
	tree, err := bt.Compile("deep", n)
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	require.NoError(t, tree.Dump(io.Discard, nil))
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "bytes allocated")

	var b strings.Builder
	m := tree.NewMemory()
	tree.Tick(&m, &bt.Context{})
	require.NoError(t, tree.Dump(&b, &m))
	lines := strings.Split(b.String(), "\n")
	require.Len(t, lines, depth+2)
	assert.Equal(t, "Inverter                                     Success", lines[0])
	assert.Equal(t, "└── Inverter                                 Failure", lines[1])
	assert.Equal(t, "[4000] └── AlwaysSuccess Success", lines[depth], "numbered past DumpIndentDepth (TestDumpOfAVeryDeepTreeIsLinear)")
}
