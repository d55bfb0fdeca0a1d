package htn

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoadJSONDocExampleLoads loads the domain file shown in LoadJSON's doc
// comment, its comments stripped: a newcomer copying it got "unknown entry
// "enemy"" (a While on an undeclared fact) and then "unknown task "Move"".
func TestLoadJSONDocExampleLoads(t *testing.T) {
	src, err := os.ReadFile("load.go")
	require.NoError(t, err)
	var lines []string
	in := false
	comment := regexp.MustCompile(`\s+//.*$`)
	for _, l := range strings.Split(string(src), "\n") {
		if l == "//\t{" {
			in = true
		}
		if in {
			lines = append(lines, comment.ReplaceAllString(strings.TrimPrefix(l, "//\t"), ""))
		}
		if in && l == "//\t}" {
			break
		}
	}
	require.NotEmpty(t, lines, "the example in LoadJSON's doc comment")
	r := &Registry{}
	require.NoError(t, r.RegisterSensor("SquadSensor", func(*Context) {}))
	for _, op := range []string{"Move", "Shoot"} {
		require.NoError(t, r.RegisterOperator(op, func(*Context) Status { return Success }, nil))
	}
	_, err = r.LoadJSON("squad.json", []byte(strings.Join(lines, "\n")))
	require.NoError(t, err, strings.Join(lines, "\n"))
}
