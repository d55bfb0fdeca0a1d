package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A save whose meta records another avoidance than its agents carry is refused at
// -load, naming both: a separation run whose meta said orca used to load and run the
// ORCA system over agents that separate (the separation run's hash, printed as an
// "orca avoidance" run, with ORCA intruders spawned beside them); the other way round
// ran ORCA agents with no ORCA system.
func TestLoadRefusesAMetaAvoidanceTheAgentsDoNotHave(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		avoid, edit, want string
	}{
		{"separation", `"avoid":"orca"`, "meta.avoid is orca, but 0 of the world's 40 agents avoid by ORCA (components.ORCA)"},
		{"orca", `"avoid":"separation"`, "meta.avoid is separation, but 40 of the world's 40 agents avoid by ORCA (components.ORCA)"},
	} {
		file := filepath.Join(dir, tc.avoid+".json")
		bench(t, "-agents", "40", "-frames", "4", "-avoid", tc.avoid, "-save", file, "-save-at", "2")
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		edited := strings.Replace(string(data), `"avoid":"`+tc.avoid+`"`, tc.edit, 1)
		require.NotEqual(t, string(data), edited)
		bad := filepath.Join(dir, "edited-"+tc.avoid+".json")
		require.NoError(t, os.WriteFile(bad, []byte(edited), 0o644))
		var out, errw bytes.Buffer
		assert.Equal(t, 1, run([]string{"-load", bad, "-frames", "2"}, &out, &errw))
		assert.Equal(t, "bench: "+bad+": "+tc.want+"\n", errw.String())
		loaded := bench(t, "-load", file, "-frames", "2") // the file as saved loads
		assert.Equal(t, tc.avoid, loaded["avoid"])
	}
}
