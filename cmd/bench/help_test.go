package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpEntries returns -help's text per flag: the line "-name PLACEHOLDER" and the
// description below it, joined by a space.
func helpEntries(t *testing.T) map[string]string {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-help"}, &out, &errs), "asking for help is no error")
	entries := map[string]string{}
	name := ""
	head := regexp.MustCompile(`^  -([a-z-]+)`)
	for line := range strings.SplitSeq(errs.String(), "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			name = m[1]
			entries[name] = strings.TrimSpace(line)
		} else if name != "" && strings.TrimSpace(line) != "" {
			entries[name] += " " + strings.TrimSpace(line)
		}
	}
	return entries
}

// Read as a new user would: every flag of -help says its default (Go's flag package
// prints "(default …)" only for a non-zero default, so the others say it in their
// text), the unit of a quantity, and a placeholder that tells what to give (not
// "string"), and no description sends the reader to a source file.
func TestHelpSaysEveryFlagsUnitAndDefault(t *testing.T) {
	entries := helpEntries(t)
	units := map[string]string{
		"agents":        "agents",
		"frames":        "1/60 s",
		"map-size":      "cells",
		"sectors":       "cells",
		"speed":         "multiples of real time",
		"think-budget":  "decisions per frame",
		"save-at":       "frames",
		"workers":       "goroutines",
		"sweep":         "agent counts",
		"sweep-workers": "goroutines",
	}
	for name, text := range entries {
		assert.Contains(t, text, "default", "-%s says its default: %s", name, text)
		assert.NotContains(t, text, ".go", "-%s: a new user has no source file at hand: %s", name, text)
		header, _, _ := strings.Cut(text, "  ")
		assert.NotRegexp(t, `^-[a-z-]+ (string|int|uint|float)\b`, header, "-%s has a placeholder that says what to give", name)
		if unit, ok := units[name]; ok {
			assert.Contains(t, text, unit, "-%s says its unit", name)
		}
	}
	for _, name := range []string{"agents", "json", "serve", "debugview", "md", "plot", "merge", "compare"} {
		assert.Contains(t, entries, name)
	}
	assert.Contains(t, entries["agents"], "(default 10000)")
	assert.Contains(t, entries["workers"], "default 0: GOMAXPROCS")
}
