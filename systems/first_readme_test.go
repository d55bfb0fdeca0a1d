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
