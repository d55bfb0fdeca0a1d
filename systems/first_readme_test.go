package systems_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeFirstProgramIsTheExample keeps the README's "Your first program"
// the same code as Example_firstProgram, which runs and checks its output:
// the body of the README's main is the example's body, imports included.
func TestReadmeFirstProgramIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	example, err := os.ReadFile("first_example_test.go")
	require.NoError(t, err)

	r := string(readme)
	start := strings.Index(r, "```go\npackage main\n")
	require.GreaterOrEqual(t, start, 0, "the README's first program (a ```go block starting with package main)")
	r = r[start+len("```go\npackage main\n"):]
	end := strings.Index(r, "\n```")
	require.GreaterOrEqual(t, end, 0)
	r = r[:end]

	e := string(example)
	e = e[strings.Index(e, "\nimport"):]
	imports := e[:strings.Index(e, ")\n")+2]
	body := e[strings.Index(e, "func Example_firstProgram() {\n")+len("func Example_firstProgram() {\n"):]
	body = body[:strings.Index(body, "\t// Output:")]

	want := imports + "\nfunc main() {\n" + body + "}"
	require.Equal(t, strings.Split(want, "\n"), strings.Split(r, "\n"))
}

// TestReadmeUtilitySnippetIsInTheExample keeps the README's "Choosing by
// utility" code the example's: every line of its ```go block but the
// "// ..." elisions is a line of Example_firstUtility's file, in the same
// order (the README shows the essential lines, the example is whole).
func TestReadmeUtilitySnippetIsInTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	example, err := os.ReadFile("first_example_utility_test.go")
	require.NoError(t, err)

	r := string(readme)
	start := strings.Index(r, "### Choosing by utility\n")
	require.GreaterOrEqual(t, start, 0, "the README's section Choosing by utility")
	r = r[start:]
	code := strings.Index(r, "```go\n")
	require.GreaterOrEqual(t, code, 0)
	r = r[code+len("```go\n"):]
	r = r[:strings.Index(r, "\n```")]

	lines := strings.Split(string(example), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	at := 0
	for _, l := range strings.Split(r, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "// ..." {
			continue
		}
		if l == "type Stamina struct{ Value float64 } // a component of your own: 0 (exhausted) to 100 (fresh)" {
			l = "type Stamina struct{ Value float64 }" // the example's comment is above it
		}
		found := false
		for ; at < len(lines); at++ {
			if lines[at] == l {
				found, at = true, at+1
				break
			}
		}
		require.True(t, found, "README line not in Example_firstUtility's file (or out of order): %s", l)
	}
	out := "after 30 s: 3 working, 1 resting; stamina 29 27 28 33"
	require.Contains(t, string(readme), "`"+out+"`", "the README quotes the example's last line of counts")
	require.Contains(t, string(example), "// "+out+"\n", "the example's output")
}
