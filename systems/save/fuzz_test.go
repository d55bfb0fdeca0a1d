package save_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the saved files under testdata")

// The seed corpus: real saved files of the fixture world (testdata/*.json), written by
// go test ./systems/save -run TestSeedFiles -update.
func TestSeedFiles(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, map[string]any{"note": "fixture"})
	require.NoError(t, err)
	path := filepath.Join("testdata", "fixture.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, data, 0o644))
	}
	seeds, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, seeds)
	for _, s := range seeds {
		raw, err := os.ReadFile(s)
		require.NoError(t, err)
		_, err = save.Load(raw, f.reg)
		require.NoError(t, err, s)
	}
}

// FuzzLoad feeds the loader mutations of real saved files: it must return an error or
// a world, never panic (no panic recovered inside Load either), and a world it returns
// saves again and loads to the same state hash.
func FuzzLoad(f *testing.F) {
	fx := newFixture(f)
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, s := range seeds {
		raw, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte(`{"format":"archai-world","version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := save.Load(data, fx.reg)
		if err != nil {
			if errors.Is(err, save.ErrRecovered) {
				t.Fatalf("Load panicked: %v", err)
			}
			return
		}
		again, err := save.Save(l.World, nil)
		if err != nil {
			return // a state Save cannot write (Load accepted a value Save refuses)
		}
		l2, err := save.Load(again, fx.reg)
		if err != nil {
			t.Fatalf("a loaded world saved but did not load again: %v", err)
		}
		if a, b := systems.StateHash(l.World), systems.StateHash(l2.World); a != b {
			t.Fatalf("hash %x after one round, %x after two", a, b)
		}
	})
}
