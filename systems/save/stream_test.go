package save_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadBothWays loads data parsing every value whole and then decoding every value token
// by token, and checks that both accept it, to the same state hash, or both refuse it.
func loadBothWays(t *testing.T, data []byte, reg save.Registry) {
	t.Helper()
	old := save.SetStreamAbove(math.MaxInt)
	parsed, errParsed := save.Load(data, reg)
	save.SetStreamAbove(-1)
	streamed, errStreamed := save.Load(data, reg)
	save.SetStreamAbove(old)
	require.Equal(t, errParsed == nil, errStreamed == nil, "parsed: %v; streamed: %v", errParsed, errStreamed)
	if errParsed == nil {
		assert.Equal(t, systems.StateHash(parsed.World), systems.StateHash(streamed.World))
	}
}

// FuzzStreamMatchesParse: the token-by-token decoding of a large value accepts and
// refuses what the whole parse does, to the same world.
func FuzzStreamMatchesParse(f *testing.F) {
	fx := newFixture(f)
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, s := range seeds {
		raw, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, data []byte) { loadBothWays(t, data, fx.reg) })
}

// peakHeap runs f three times and returns the most heap its objects took while it ran
// (sampled every millisecond, less the heap before), the largest of the three: a sample
// can only miss a peak, never make one up. The collector runs at a tenth of its usual
// growth meanwhile, so that the heap follows what is live rather than when it last ran.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	var most uint64
	for range 3 {
		runtime.GC()
		base := read()
		done := make(chan struct{})
		var peak uint64
		go func() {
			for {
				peak = max(peak, read())
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		f()
		done <- struct{}{}
		peak = max(peak, read())
		most = max(most, peak-min(peak, base))
	}
	return most
}

// A file with one very long slice (a path of 100,000 waypoints, 1.5 MB of
// `{"X":1,"Y":2},`) loads without a parse of the whole slice first: a parsed value takes
// 20 to 70 times its text (a 30 MB file of such a path took 1.2 GB at its peak), while the
// path it decodes to takes 16 bytes a waypoint. The bound (a third) leaves room for a
// loaded machine's late collections: on a quiet one the ratio is about a tenth.
// A bad waypoint in the middle of the path is refused alike both ways, with its index:
// in a path of 10,000 waypoints (150 KB, above streamAbove, so streamed), and of 100,000
// with ARCHAI_LONG=1 (15 loads of 1.5 MB, about 2 s).
func TestALongSliceLoadsWithoutAParseOfIt(t *testing.T) {
	fx := newFixture(t)
	data, err := save.Save(fx.w, nil)
	require.NoError(t, err)
	const n = 100_000
	const wp = `{"X":1,"Y":2}`
	s := string(data)
	i := strings.Index(s, `"Waypoints":[]`)
	require.GreaterOrEqual(t, i, 0, "the fixture has an agent without waypoints")
	withPath := func(n int, mid string) []byte {
		return []byte(s[:i] + `"Waypoints":[` + strings.Repeat(wp+",", n/2) + mid + strings.Repeat(","+wp, n/2) + `]` + s[i+len(`"Waypoints":[]`):])
	}
	long := withPath(n, wp)
	var errParsed, errStreamed error
	old := save.SetStreamAbove(math.MaxInt)
	parsed := peakHeap(func() { _, errParsed = save.Load(long, fx.reg) })
	save.SetStreamAbove(old)
	streamed := peakHeap(func() { _, errStreamed = save.Load(long, fx.reg) })
	require.NoError(t, errParsed, "a long path of valid cells loads")
	require.NoError(t, errStreamed, "a long path of valid cells loads")
	t.Logf("peak heap for a file of %d bytes: %d parsed whole, %d token by token", len(long), parsed, streamed)
	assert.Less(t, streamed, parsed/3)
	loadBothWays(t, long, fx.reg)
	nBad := 10_000
	if os.Getenv("ARCHAI_LONG") != "" {
		nBad = n
	}
	for _, mid := range []string{`{"Z":1}`, `[]`, `{"X":1e99}`, `null`} {
		bad := withPath(nBad, mid)
		require.Greater(t, len(bad), save.StreamAbove(), "a path streamed")
		_, err := save.Load(bad, fx.reg)
		assert.ErrorIs(t, err, save.ErrDomain, mid)
		assert.ErrorContains(t, err, fmt.Sprintf("Waypoints[%d]", nBad/2), mid)
		loadBothWays(t, bad, fx.reg)
	}
	// a key twice is refused before any parse, streamed or not
	_, err = save.Load(withPath(nBad, `{"X":1,"X":"a"}`), fx.reg)
	assert.ErrorIs(t, err, save.ErrFormat)
	assert.ErrorContains(t, err, fmt.Sprintf(`Waypoints[%d] holds the key "X" twice`, nBad/2))
}
