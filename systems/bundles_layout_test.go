package systems_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/archai-go/archai"

// TestSystemsNeverImportCmd: package systems and its tests import nothing under cmd/,
// directly or through another package of the module (the layout's arrows point down:
// cmd uses systems, never the reverse). It reads the import lines with go/parser, which
// is much cheaper than go list.
func TestSystemsNeverImportCmd(t *testing.T) {
	seen := map[string]bool{}
	var visit func(dir, via string, tests bool)
	visit = func(dir, via string, tests bool) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no Go files in %s", dir)
		for _, f := range files {
			if !tests && strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rel, ok := strings.CutPrefix(path, module+"/")
				if !ok {
					continue
				}
				require.False(t, rel == "cmd" || strings.HasPrefix(rel, "cmd/"),
					"%s imports %s (via %s): systems must not depend on cmd/...", f, path, via+dir)
				visit(rel, via+dir+" → ", false)
			}
		}
	}
	visit("systems", "", true)
	require.True(t, seen["components"], "the walk followed the module's own imports")
}
