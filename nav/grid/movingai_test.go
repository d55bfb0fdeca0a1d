package grid

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tinyMap = "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.O\n....\n"

func TestReadMap(t *testing.T) {
	g, err := ReadMap(strings.NewReader(tinyMap), "tiny.map")
	require.NoError(t, err)
	assert.Equal(t, 4, g.Width())
	assert.Equal(t, 3, g.Height())
	want := []string{
		"PPBB",
		"PBPB",
		"PPPP",
	}
	for y, row := range want {
		for x, r := range row {
			c := Cell{int32(x), int32(y)}
			assert.Equalf(t, r == 'P', g.Passable(c), "cell %v", c)
			if r == 'P' {
				assert.Equal(t, float32(1), g.Cost(c), "swamp and ground cost 1")
			} else {
				assert.Equal(t, Blocked, g.Cost(c))
			}
		}
	}
	assert.Equal(t, float32(1), g.MinCost())

	// CRLF line endings and trailing blank lines are accepted.
	crlf := strings.ReplaceAll(tinyMap, "\n", "\r\n") + "\r\n\r\n"
	g2, err := ReadMap(strings.NewReader(crlf), "crlf.map")
	require.NoError(t, err)
	assert.Equal(t, g.cost, g2.cost)
}

// TestReadMapSkipsAByteOrderMark: a file saved with a UTF-8 byte order mark
// (newbie23: "unexpected header line \"\ufefftype octile\"") reads as the
// same file without it; a .scen file too.
func TestReadMapSkipsAByteOrderMark(t *testing.T) {
	plain, err := ReadMap(strings.NewReader(tinyMap), "plain.map")
	require.NoError(t, err)
	bom, err := ReadMap(strings.NewReader("\uFEFF"+tinyMap), "bom.map")
	require.NoError(t, err)
	require.Equal(t, plain.Width(), bom.Width())
	require.Equal(t, plain.Height(), bom.Height())
	for y := range plain.Height() {
		for x := range plain.Width() {
			c := Cell{X: int32(x), Y: int32(y)}
			require.Equal(t, plain.Cost(c), bom.Cost(c), "cell %v", c)
		}
	}
	sc, err := ReadScenario(strings.NewReader("\uFEFFversion 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.5\n"), "bom.scen")
	require.NoError(t, err)
	require.Len(t, sc, 1)
}

func TestReadMapErrors(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
	}{
		{"empty", "", "grid: bad.map line 1: unexpected end of input"},
		{"missing header", ".G@T\n", "grid: bad.map line 1: unexpected header line"},
		{"wrong type", "type tile\nheight 1\nwidth 1\nmap\n.\n", "grid: bad.map line 1: unsupported map type"},
		{"bad height", "type octile\nheight x3\nwidth 4\nmap\n", "grid: bad.map line 2: bad height"},
		{"zero width", "type octile\nheight 3\nwidth 0\nmap\n", "grid: bad.map line 3: bad width"},
		{"negative height", "type octile\nheight -2\nwidth 4\nmap\n", "grid: bad.map line 2: bad height"},
		{"no width", "type octile\nheight 3\nmap\n", "grid: bad.map line 3: header lacks \"width\""},
		{"height twice", "type octile\nheight 3\nwidth 4\nheight 2\nmap\n", "grid: bad.map line 4: height given twice"},
		{"no type", "height 1\nwidth 1\nmap\n.\n", "grid: bad.map line 3: header lacks \"type octile\""},
		{"no map line", "type octile\nheight 3\nwidth 4\n", "grid: bad.map line 4: unexpected end of input"},
		{"short row", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.\n....\n", "grid: bad.map line 6: row 1 has 3 tiles, want width 4"},
		{"long row", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.O\n.....\n", "grid: bad.map line 7: row 2 has 5 tiles, want width 4"},
		{"unknown tile", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.O\n..x.\n", "grid: bad.map line 7: column 2: unknown tile 'x'"},
		{"trailing space", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.O \n....\n", "grid: bad.map line 6: row 1 has 5 tiles, want width 4 (it ends with 1 spaces or tabs: trailing whitespace?)"},
		{"trailing tabs and spaces", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.O\n... \t \r\n", "grid: bad.map line 7: row 2 has 6 tiles, want width 4 (it ends with 3 spaces or tabs: trailing whitespace?)"},
		{"short row ending with a space", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW \n....\n", "grid: bad.map line 6: row 1 has 3 tiles, want width 4 (it ends with 1 spaces or tabs"},
		{"a BOM inside", "type octile\n\uFEFFheight 3\nwidth 4\nmap\n", "grid: bad.map line 2: unexpected header line"},
		{"too few rows", "type octile\nheight 3\nwidth 4\nmap\n.G@T\nSW.O\n", "grid: bad.map line 7: unexpected end of input: map has 2 rows, header says height 3"},
		{"extra rows", tinyMap + "....\n", "grid: bad.map line 8: unexpected data after 3 map rows"},
		{"huge", "type octile\nheight 100000\nwidth 100000\nmap\n", "grid: bad.map line 4: map 100000x100000 too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadMap(strings.NewReader(tc.input), "bad.map")
			require.Error(t, err)
			assert.Nil(t, g)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadMapMissingFile(t *testing.T) {
	_, err := LoadMap("does/not/exist.map")
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "grid: ")
	assert.Contains(t, err.Error(), "does/not/exist.map")
	_, err = LoadScenario("does/not/exist.map.scen")
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "does/not/exist.map.scen")
}

func TestReadScenario(t *testing.T) {
	in := "version 1\n" +
		"0\tarena.map\t49\t49\t19\t26\t19\t29\t3.00000000\n" +
		"\n" +
		"3\tarena.map\t49\t49\t44\t30\t43\t28\t2.41421356\r\n"
	qs, err := ReadScenario(strings.NewReader(in), "arena.map.scen")
	require.NoError(t, err)
	require.Len(t, qs, 2)
	assert.Equal(t, Query{Bucket: 0, Map: "arena.map", Width: 49, Height: 49,
		Start: Cell{19, 26}, Goal: Cell{19, 29}, Optimal: 3}, qs[0])
	assert.Equal(t, 3, qs[1].Bucket)
	assert.Equal(t, Cell{44, 30}, qs[1].Start)
	assert.Equal(t, Cell{43, 28}, qs[1].Goal)
	assert.InDelta(t, 2.41421356, qs[1].Optimal, 1e-12)
}

func TestReadScenarioErrors(t *testing.T) {
	const ok = "0\tm.map\t4\t3\t0\t0\t3\t2\t3.5\n"
	for _, tc := range []struct {
		name, input, want string
	}{
		{"empty", "", "grid: s.scen line 1: unexpected end of input: missing \"version 1\" line"},
		{"no version", ok, "grid: s.scen line 1: want \"version 1\""},
		{"version 2", "version 2\n" + ok, "grid: s.scen line 1: want \"version 1\""},
		{"few fields", "version 1\n" + ok + "0\tm.map\t4\t3\t0\t0\t3\n", "grid: s.scen line 3: want 9 fields"},
		{"bad bucket", "version 1\nb\tm.map\t4\t3\t0\t0\t3\t2\t3.5\n", "grid: s.scen line 2: bad bucket \"b\""},
		{"bad goal", "version 1\n0\tm.map\t4\t3\t0\t0\t3\ty\t3.5\n", "grid: s.scen line 2: bad goal y \"y\""},
		{"bad optimal", "version 1\n" + ok + ok + "0\tm.map\t4\t3\t0\t0\t3\t2\tlong\n", "grid: s.scen line 4: bad optimal length \"long\""},
		{"negative optimal", "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t-1\n", "grid: s.scen line 2: bad optimal length"},
		{"bad size", "version 1\n0\tm.map\t0\t3\t0\t0\t3\t2\t1\n", "grid: s.scen line 2: bad map size 0x3"},
		{"start outside", "version 1\n0\tm.map\t4\t3\t4\t0\t3\t2\t1\n", "grid: s.scen line 2: start (4, 0) outside 4x3 map"},
		{"goal outside", "version 1\n0\tm.map\t4\t3\t0\t0\t3\t3\t1\n", "grid: s.scen line 2: goal (3, 3) outside 4x3 map"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := ReadScenario(strings.NewReader(tc.input), "s.scen")
			require.Error(t, err)
			assert.Nil(t, qs)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadBenchmarkFiles(t *testing.T) {
	g, qs := loadBench(t, "arena.map")
	assert.Equal(t, 49, g.Width())
	assert.Equal(t, 49, g.Height())
	assert.Len(t, qs, 130)
	assert.False(t, g.Passable(Cell{0, 0}), "arena's border is trees")
	assert.True(t, g.Passable(Cell{3, 1}))
}
