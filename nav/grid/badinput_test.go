package grid

import (
	"bytes"
	"errors"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewCheckedSizes(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
		want error // nil: a grid of that size
	}{
		{"one cell", 1, 1, nil},
		{"long corridor", 2_000_000, 1, nil},
		{"zero width", 0, 5, ErrInvalidSize},
		{"negative height", 5, -1, ErrInvalidSize},
		{"million squared", 1e6, 1e6, ErrTooLarge},
		{"overflows int64", math.MaxInt/2 + 1, math.MaxInt/2 + 1, ErrTooLarge},
		{"one cell too many", MaxCells/2 + 1, 2, ErrTooLarge},
		{"largest int", math.MaxInt, math.MaxInt, ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewChecked(tc.w, tc.h)
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				assert.Nil(t, g)
				assert.Panics(t, func() { New(tc.w, tc.h) }, "New panics where NewChecked fails")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.w, g.Width())
			assert.Equal(t, tc.h, g.Height())
			assert.Equal(t, float32(1), g.Cost(Cell{int32(tc.w - 1), int32(tc.h - 1)}))
			assert.False(t, g.InBounds(Cell{int32(tc.w), 0}))
		})
	}
}

func TestNewCheckedLimitIs8192Squared(t *testing.T) {
	// 4096² maps are planned: the limit leaves room for 8192².
	// checkSize decides for NewChecked without allocating 256 MiB here.
	assert.NoError(t, checkSize(8192, 8192))
	assert.NoError(t, checkSize(MaxCells, 1), "either side may take the whole budget")
	assert.ErrorIs(t, checkSize(8192, 8193), ErrTooLarge)
	assert.ErrorIs(t, checkSize(MaxCells+1, 1), ErrTooLarge)
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestReadMapAllocatesWithTheRowsRead(t *testing.T) {
	header := "type octile\nheight 8192\nwidth 8192\nmap\n"
	require.Len(t, header, 39)
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"header only", "", "grid: big.map line 5: unexpected end of input: map has 0 rows, header says height 8192"},
		{"two rows", strings.Repeat(".", 8192) + "\n" + strings.Repeat("@", 8192) + "\n",
			"grid: big.map line 7: unexpected end of input: map has 2 rows, header says height 8192"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = ReadMap(strings.NewReader(header+tc.body), "big.map") })
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.Less(t, bytes, uint64(2<<20), "a 256 MiB claim must not be allocated up front")
		})
	}
}

// A single row's claim is bounded by MaxCells too: a header announcing one row of
// 2^26 tiles followed by a few tiles must not allocate the 256 MiB row up front.
func TestReadMapAllocatesWithTheTilesOfAWideRow(t *testing.T) {
	header := "type octile\nheight 1\nwidth 67108864\nmap\n"
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"header only", "", "grid: wide.map line 5: unexpected end of input: map has 0 rows, header says height 1"},
		{"short row", "...@\n", "grid: wide.map line 5: row 0 has 4 tiles, want width 67108864"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = ReadMap(strings.NewReader(header+tc.body), "wide.map") })
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.Less(t, bytes, uint64(2<<20), "a 256 MiB row claim must not be allocated up front")
		})
	}
}

func TestReadMapLongRows(t *testing.T) {
	const w = 2_000_000
	row := strings.Repeat(".", w-1) + "@"
	for _, tc := range []struct {
		name, input string
	}{
		{"LF", "type octile\nheight 1\nwidth 2000000\nmap\n" + row + "\n"},
		{"CRLF", "type octile\r\nheight 1\r\nwidth 2000000\r\nmap\r\n" + row + "\r\n"},
		{"no final newline", "type octile\nheight 1\nwidth 2000000\nmap\n" + row},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadMap(strings.NewReader(tc.input), "corridor.map")
			require.NoError(t, err)
			assert.Equal(t, w, g.Width())
			assert.Equal(t, 1, g.Height())
			assert.True(t, g.Passable(Cell{w - 2, 0}))
			assert.False(t, g.Passable(Cell{w - 1, 0}))
			assert.Len(t, g.Costs(), w)
		})
	}
	// One tile too many or too few on a long row is reported with the count.
	_, err := ReadMap(strings.NewReader("type octile\nheight 1\nwidth 1999999\nmap\n"+row+"\n"), "corridor.map")
	assert.EqualError(t, err, "grid: corridor.map line 5: row 0 has 2000000 tiles, want width 1999999")
}

func TestReadMapCarriageReturns(t *testing.T) {
	// '\r' ends a line only right before '\n' or the end of input; elsewhere
	// it is an unknown tile. A '\r' held across the reader's 64 KiB buffer
	// boundary counts the same.
	long := strings.Repeat(".", 64*1024-1)
	for _, tc := range []struct {
		name, input, want string
	}{
		{"inner CR", "type octile\nheight 1\nwidth 3\nmap\n.\r.\n", "grid: cr.map line 5: column 1: unknown tile '\\r'"},
		{"CR at buffer edge then LF", "type octile\nheight 1\nwidth 65535\nmap\n" + long + "\r\n", ""},
		{"CR at buffer edge then tile", "type octile\nheight 1\nwidth 65537\nmap\n" + long + "\r.\n", "grid: cr.map line 5: column 65535: unknown tile '\\r'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMap(strings.NewReader(tc.input), "cr.map")
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.want)
		})
	}
}

func TestReadersQuoteShortly(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name string
		read func() error
		want string
	}{
		{"map header line", func() error {
			_, err := ReadMap(strings.NewReader("type "+huge+"\n"), "q.map")
			return err
		}, "grid: q.map line 1: header line longer than 4096 bytes: \"type xxxx"},
		{"map type", func() error {
			_, err := ReadMap(strings.NewReader("type "+huge[:4000]+"\n"), "q.map")
			return err
		}, "grid: q.map line 1: unsupported map type \"xxx"},
		{"map width", func() error {
			_, err := ReadMap(strings.NewReader("type octile\nwidth 1"+huge[:4000]+"\n"), "q.map")
			return err
		}, "grid: q.map line 2: bad width \"1xx"},
		{"scenario version", func() error {
			_, err := ReadScenario(strings.NewReader("version "+huge+"\n"), "q.scen")
			return err
		}, "grid: q.scen line 1: want \"version 1\", got \"version xx"},
		{"scenario long line", func() error {
			_, err := ReadScenario(strings.NewReader("version 1\n"+huge+"\n"), "q.scen")
			return err
		}, "grid: q.scen line 2: line longer than 65536 bytes"},
		{"scenario field", func() error {
			_, err := ReadScenario(strings.NewReader("version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t"+huge[:60000]+"\n"), "q.scen")
			return err
		}, "grid: q.scen line 2: bad optimal length \"xxx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "got %.120q", err.Error())
			assert.Less(t, len(err.Error()), 200, "quoted input is cut to 64 bytes")
		})
	}
	assert.Equal(t, `"héllo"`, quote("héllo"))
	q := quote(strings.Repeat("é", 40)) // 80 bytes: cut on a rune boundary
	assert.Equal(t, `"`+strings.Repeat("é", 32)+`"… (80 bytes)`, q)
}

func TestReadMapTooLargeIsSentinel(t *testing.T) {
	_, err := ReadMap(strings.NewReader("type octile\nheight 8193\nwidth 8192\nmap\n"), "big.map")
	require.ErrorIs(t, err, ErrTooLarge)
	assert.EqualError(t, err, "grid: big.map line 4: map 8192x8193 too large (at most 67108864 cells)")
	_, err = ReadScenario(strings.NewReader("version 1\n0\tm.map\t100000\t100000\t0\t0\t3\t2\t1\n"), "big.scen")
	assert.EqualError(t, err, "grid: big.scen line 2: bad map size 100000x100000")
}

func TestSearchOptionsValidate(t *testing.T) {
	g := New(8, 8)
	for _, tc := range []struct {
		name  string
		opt   Options
		field string // "" when valid
	}{
		{"zero value", Options{}, ""},
		{"4-connected", Options{Moves: Moves4}, ""},
		{"weight 0.5", Options{Weight: 0.5}, ""},
		{"weight 3", Options{Weight: 3, JumpPoints: true}, ""},
		{"moves 7", Options{Moves: 7}, "Moves 7"},
		{"heuristic 9", Options{Heuristic: 9}, "Heuristic 9"},
		{"weight NaN", Options{Weight: math.NaN()}, "Weight NaN"},
		{"weight +Inf", Options{Weight: math.Inf(1)}, "Weight +Inf"},
		{"weight -1", Options{Weight: -1}, "Weight -1"},
		{"jump points 4-connected", Options{JumpPoints: true, Moves: Moves4}, "JumpPoints needs Moves8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opt.Validate()
			s := NewSearchOptions(g, tc.opt)
			path, cost, perr := s.Path(Cell{0, 0}, Cell{7, 7}, nil)
			serr := s.Start(Cell{0, 0}, Cell{7, 7})
			if tc.field == "" {
				require.NoError(t, err)
				require.NoError(t, perr)
				assert.NoError(t, serr)
				return
			}
			require.ErrorIs(t, err, ErrBadOptions)
			assert.Contains(t, err.Error(), tc.field)
			assert.Equal(t, err, perr, "Path reports the options error")
			assert.Equal(t, err, serr, "Start reports the options error")
			assert.Empty(t, path)
			assert.Zero(t, cost)
			assert.Equal(t, err, NewSearch(g).SetOptions(tc.opt), "SetOptions returns it too")
			// Sliced: nothing is pending after the failed Start.
			n, done := s.Step(100)
			assert.Zero(t, n)
			assert.True(t, done)
			_, _, rerr := s.Result(nil)
			assert.ErrorIs(t, rerr, ErrPending)
			// Valid options make the same Search usable again.
			require.NoError(t, s.SetOptions(Options{}))
			_, cost, err = s.Path(Cell{0, 0}, Cell{7, 7}, nil)
			require.NoError(t, err)
			assert.InDelta(t, 7*Sqrt2, cost, 1e-9)
		})
	}
}

func TestSearchBadHeuristicValuesCountAsZero(t *testing.T) {
	g := New(20, 20)
	for y := int32(2); y < 18; y++ {
		g.SetCost(Cell{10, y}, Blocked) // a wall makes the path bend
	}
	start, goal := Cell{2, 10}, Cell{17, 10}
	_, want, err := NewSearch(g).Path(start, goal, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		h      func(c, goal Cell) float64
		faults bool
	}{
		{"octile", func(c, goal Cell) float64 { return Octile(c, goal) }, false},
		{"NaN", func(c, goal Cell) float64 { return math.NaN() }, true},
		{"negative", func(c, goal Cell) float64 { return -100 }, true},
		{"+Inf", func(c, goal Cell) float64 { return math.Inf(1) }, true},
		{"+Inf on the short side", func(c, goal Cell) float64 {
			if c.Y <= 1 { // the detour above the wall
				return math.Inf(1)
			}
			return Octile(c, goal)
		}, true},
		{"NaN on one side", func(c, goal Cell) float64 {
			if c.X < 10 {
				return math.NaN()
			}
			return Octile(c, goal)
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSearchOptions(g, Options{HeuristicFunc: tc.h})
			path, cost, err := s.Path(start, goal, nil)
			require.NoError(t, err)
			assert.InDelta(t, want, cost, 1e-9, "still the shortest path")
			assert.InDelta(t, checkPath(t, g, path, start, goal), cost, 1e-9)
			assert.Equal(t, tc.faults, s.HeuristicFaults() > 0, "faults %d", s.HeuristicFaults())
		})
	}
}

func TestReadScenarioLongMapName(t *testing.T) {
	// A map name of 60,000 bytes is within MaxScenarioLine and is kept whole.
	name := strings.Repeat("m", 60000)
	qs, err := ReadScenario(bytes.NewReader([]byte("version 1\n0\t"+name+"\t4\t3\t0\t0\t3\t2\t3.5\n")), "s.scen")
	require.NoError(t, err)
	require.Len(t, qs, 1)
	assert.Equal(t, name, qs[0].Map)
}

func TestReadersReportReadErrors(t *testing.T) {
	fire := errors.New("disk on fire")
	in := io.MultiReader(strings.NewReader("type octile\nheight 3\nwidth 2\nmap\n..\n"), iotest.ErrReader(fire))
	_, err := ReadMap(in, "fire.map")
	require.ErrorIs(t, err, fire)
	assert.EqualError(t, err, "grid: fire.map line 6: disk on fire")

	in = io.MultiReader(strings.NewReader("version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.5\n0\tm.m"), iotest.ErrReader(fire))
	_, err = ReadScenario(in, "fire.scen")
	require.ErrorIs(t, err, fire)
	assert.EqualError(t, err, "grid: fire.scen line 3: disk on fire")
}
