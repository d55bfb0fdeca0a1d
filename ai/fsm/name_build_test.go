package fsm

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A machine's name is its key in saved worlds (a StateMachine's ID, where "" means no
// machine) and in diagnostics: Build used to take an empty or blank one. It is
// refused with ErrName, before any other mistake.
func TestBuildRefusesAnEmptyOrBlankMachineName(t *testing.T) {
	for _, name := range []string{"", " ", "\t\n"} {
		b := NewBuilder(name)
		b.State("Idle", Hooks{})
		m, err := b.Build()
		require.ErrorIs(t, err, ErrName, "%q", name)
		assert.Nil(t, m)
		assert.EqualError(t, err, "fsm: machine "+strconv.Quote(name)+": machine name empty or blank")
	}
	b := NewBuilder("guard")
	b.State("Idle", Hooks{})
	_, err := b.Build()
	require.NoError(t, err)
}
