package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFlagConflictBeforeAValueOutOfRange: where flags cannot be used together and
// one of them also has a bad value, the conflict is reported: fixing the value
// first (-save-at 0 → 5) only leads to the conflict next. -save-at 0 with -sweep,
// -serve or -compare, -workers -1 beside a conflict, an unknown -scenario beside a
// conflict, and -speed without -serve beside a bad -workers each got the value's
// error first.
func TestFlagConflictBeforeAValueOutOfRange(t *testing.T) {
	save := filepath.Join(t.TempDir(), "s.json")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-sweep", "10,20", "-save", save, "-save-at", "5"}, "bench: -save and -sweep cannot be used together"},
		{[]string{"-sweep", "10,20", "-frames", "3", "-save", save, "-save-at", "5"}, "bench: -save and -sweep cannot be used together"},
		{[]string{"-sweep", "10,20", "-save", save, "-save-at", "0"}, "bench: -save and -sweep cannot be used together"},
		{[]string{"-sweep", "10,20", "-save", save, "-save-at", "-1"}, "bench: -save and -sweep cannot be used together"},
		{[]string{"-serve", "localhost:0", "-save", save, "-save-at", "0"}, "bench: -serve and -save and -save-at cannot be used together"},
		{[]string{"-compare", "-save-at", "0"}, "bench: -compare times A* and flow fields on the generated map of each agent count; it takes -agents, -sweep, -seed, -map, -json and -quiet: drop -save-at"},
		{[]string{"-sweep", "10", "-md", "x.md", "-save-at", "0"}, "bench: -save-at needs -save FILE"},
		{[]string{"-sweep", "10,20", "-load", save, "-workers", "-1"}, "bench: -load and -sweep cannot be used together"},
		{[]string{"-serve", "localhost:0", "-frames", "5", "-workers", "-3"}, "bench: -serve and -frames cannot be used together"},
		{[]string{"-compare", "-frames", "5", "-workers", "-1"}, "drop -frames, -workers"},
		{[]string{"-speed", "2", "-workers", "-1"}, "bench: -speed paces -serve's real-time run"},
		{[]string{"-scenario", "bogus", "-sweep", "10", "-save", save}, "bench: -save and -sweep cannot be used together"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.Empty(t, out.String(), "%v", tc.args)
		assert.NoFileExists(t, save, "%v", tc.args)
	}
}
