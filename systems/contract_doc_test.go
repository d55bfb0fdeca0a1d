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

// TestContractDocPlannerTableHasHTNIdleRow keeps the HTN and GOAP table of
// docs/contract.md whole for an idle planner: it listed only GOAP's "idle, no plan" rows,
// while an HTN agent whose root finds no decomposition for HTNNoPlanSpan is counted
// under planner_domain_error too.
func TestContractDocPlannerTableHasHTNIdleRow(t *testing.T) {
	doc, err := os.ReadFile("../docs/contract.md")
	require.NoError(t, err)
	text := string(doc)
	start := strings.Index(text, "**HTN** and **GOAP** require")
	require.GreaterOrEqual(t, start, 0, "the HTN and GOAP section")
	end := strings.Index(text[start:], "**PathQueue**")
	require.Greater(t, end, 0)
	section := text[start : start+end]
	var row string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| HTN: idle, no plan") {
			row = line
		}
	}
	require.NotEmpty(t, row, "no HTN idle row in:\n%s", section)
	assert.Equal(t, 10.0, systems.HTNNoPlanSpan, "the row says 10 s")
	for _, want := range []string{"`systems.HTNNoPlanSpan` (10 s)", "`PlannerDomainError`", "`htn.Domain.WhyNoPlan`"} {
		assert.Contains(t, row, want)
	}
	assert.Less(t, strings.Index(section, "| HTN: idle, no plan"), strings.Index(section, "| GOAP: idle"),
		"the HTN row comes before GOAP's")
}
