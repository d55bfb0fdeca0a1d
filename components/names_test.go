package components_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/stretchr/testify/assert"
)

// TestModesPrintByName: the modes and path states print as their constants'
// names (a newcomer's fmt.Println of an Intent showed "Mode:2"), every one
// of them, and a value that is none prints as its type and number.
func TestModesPrintByName(t *testing.T) {
	assert.Equal(t, "IntentPursue", components.IntentPursue.String())
	assert.Equal(t, "IntentEvade", fmt.Sprint(components.IntentEvade))
	assert.Equal(t, "IntentMode(4)", components.IntentMode(4).String())
	assert.Equal(t, "DesiredHold", components.DesiredHold.String())
	assert.Equal(t, "DesiredFlow", fmt.Sprint(components.DesiredFlow))
	assert.Equal(t, "DesiredMode(9)", components.DesiredMode(9).String())
	assert.Equal(t, "PathUnreachable", components.PathUnreachable.String())
	assert.Equal(t, "PathState(200)", components.PathState(200).String())
	// each constant by its own name, in order, so that a mode added without a name shows here
	for m, want := range []string{"IntentGo", "IntentFlee", "IntentPursue", "IntentEvade"} {
		assert.Equal(t, want, components.IntentMode(m).String())
	}
	for m, want := range []string{"DesiredNone", "DesiredSeek", "DesiredArrive", "DesiredFlow", "DesiredStop", "DesiredFlee", "DesiredPursue", "DesiredEvade", "DesiredHold"} {
		assert.Equal(t, want, components.DesiredMode(m).String())
	}
	for m, want := range []string{"PathNone", "PathPending", "PathReady", "PathUnreachable"} {
		assert.Equal(t, want, components.PathState(m).String())
	}
}

func ExampleIntentMode_String() {
	in := components.Intent{Mode: components.IntentPursue}
	fmt.Println(in.Mode, components.DesiredArrive, components.PathReady)
	// Output: IntentPursue DesiredArrive PathReady
}
