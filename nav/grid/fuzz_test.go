package grid

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// Fuzz targets for the MovingAI readers: no input may panic, hang or make
// them allocate far beyond its own size (a header's claim is not enough).
// Run one with, for example:
//
//	go test -run XXX -fuzz FuzzReadMap -fuzztime 30s ./nav/grid

// allocSlack is what a reader may allocate beyond a few bytes per input
// byte: the 64 KiB read buffer and the first 64 Ki cells of costs.
const allocSlack = 1 << 20

func FuzzReadMap(f *testing.F) {
	for _, seed := range []string{
		tinyMap,
		"type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\nTGS\r\n\r\n",
		"type octile\nheight 1\nwidth 5\nmap\n.....",
		"type octile\nwidth 2\nheight 2\nmap\n..\n.@\n",
		"type octile\nheight 8192\nwidth 8192\nmap\n",
		"type octile\nheight 4294967296\nwidth 4294967296\nmap\n",
		"type octile\nheight 2\nwidth 2\nmap\n.\r\n..\n",
		"type tile\nheight 1\nwidth 1\nmap\n.\n",
		"height 1\nwidth 1\nmap\n.\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var g *Grid
		var err error
		n := allocated(func() { g, err = ReadMap(bytes.NewReader(data), "fuzz.map") })
		if limit := uint64(allocSlack + 16*len(data)); n > limit {
			t.Fatalf("allocated %d bytes for %d input bytes (limit %d)", n, len(data), limit)
		}
		if err != nil {
			if g != nil {
				t.Fatal("grid and error")
			}
			if len(err.Error()) > 400 {
				t.Fatalf("error of %d bytes: %.100q…", len(err.Error()), err.Error())
			}
			return
		}
		w, h := g.Width(), g.Height()
		if w <= 0 || h <= 0 || w > MaxCells/h || len(g.Costs()) != w*h || w*h > len(data) {
			t.Fatalf("grid %dx%d with %d costs from %d bytes", w, h, len(g.Costs()), len(data))
		}
		for i, c := range g.Costs() {
			if c != 1 && !isBlocked(c) {
				t.Fatalf("cell %d costs %v", i, c)
			}
		}
		if w*h <= 4096 {
			s := NewSearch(g)
			_, cost, err := s.Path(Cell{0, 0}, Cell{int32(w - 1), int32(h - 1)}, nil)
			switch {
			case err == nil && (math.IsNaN(cost) || cost < 0):
				t.Fatalf("cost %v", cost)
			case err != nil && !errors.Is(err, ErrBlocked) && !errors.Is(err, ErrUnreachable):
				t.Fatalf("search: %v", err)
			}
		}
	})
}

func FuzzReadScenario(f *testing.F) {
	for _, seed := range []string{
		"version 1\n0\tarena.map\t49\t49\t19\t26\t19\t29\t3.00000000\n",
		"version 1.0\r\n3\tarena.map\t49\t49\t44\t30\t43\t28\t2.41421356\r\n\r\n",
		"version 1\n0 m.map 4 3 0 0 3 2 3.5\n",
		"version 1\n0\tm.map\t4\t3\t4\t0\t3\t2\t1\n",
		"version 1\n0\tm.map\t4294967296\t4294967296\t0\t0\t3\t2\tNaN\n",
		"version 2\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var qs []Query
		var err error
		n := allocated(func() { qs, err = ReadScenario(bytes.NewReader(data), "fuzz.scen") })
		if limit := uint64(allocSlack + 64*len(data)); n > limit {
			t.Fatalf("allocated %d bytes for %d input bytes (limit %d)", n, len(data), limit)
		}
		if err != nil {
			if qs != nil {
				t.Fatal("queries and error")
			}
			if len(err.Error()) > 400 {
				t.Fatalf("error of %d bytes: %.100q…", len(err.Error()), err.Error())
			}
			return
		}
		for _, q := range qs {
			in := func(c Cell) bool {
				return c.X >= 0 && c.Y >= 0 && int(c.X) < q.Width && int(c.Y) < q.Height
			}
			if q.Map == "" || checkSize(q.Width, q.Height) != nil || !in(q.Start) || !in(q.Goal) ||
				math.IsNaN(q.Optimal) || math.IsInf(q.Optimal, 0) || q.Optimal < 0 {
				t.Fatalf("bad query accepted: %+v", q)
			}
		}
	})
}
