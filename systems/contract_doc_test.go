package systems_test

import (
	"os"
	"strings"
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContractDocNamesEveryCause keeps docs/contract.md's table of causes whole: every
// cause Diagnose counts is listed by its constant and its printed name.
func TestContractDocNamesEveryCause(t *testing.T) {
	doc, err := os.ReadFile("../docs/contract.md")
	require.NoError(t, err)
	text := string(doc)
	for c := systems.Cause(0); c < systems.NumCauses; c++ {
		assert.Contains(t, text, "| `"+c.String()+"` |", "docs/contract.md's table lacks %s", c)
	}
	assert.True(t, strings.Contains(text, "## Every cause `Diagnose` counts"))
}
