package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A scenario whose later query gives its map another size than the map has is an
// error of the file, named as such (a usage error, exit 2, no search run), as the first query's
// is: it used to be searched off the map and reported as the searches' mismatch
// ("got error grid: cell out of bounds"), blaming A* and JPS for a bad file.
func TestScenEveryQueryMustGiveItsMapsSize(t *testing.T) {
	dir := t.TempDir()
	m := "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n"
	scen := "version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\t1.41421356\n0\tm.map\t400\t400\t300\t300\t1\t1\t424.26406871\n"
	assert.NoError(t, os.WriteFile(filepath.Join(dir, "m.map"), []byte(m), 0o644))
	path := filepath.Join(dir, "m.map.scen")
	assert.NoError(t, os.WriteFile(path, []byte(scen), 0o644))
	var out, errw bytes.Buffer
	code := run([]string{"-scen", path}, &out, &errw)
	assert.Equal(t, 2, code)
	assert.Equal(t, "bench: "+filepath.Join(dir, "m.map")+" is 4x4, scenario says 400x400 (query 1)\n", errw.String())
	assert.Empty(t, out.String(), "no search ran")
}
