package utility

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A reasoner's name is its key in saved worlds (a UtilityBrain's ID, where "" means no
// reasoner) and in diagnostics: New used to take an empty or blank one. It is refused
// with ErrName.
func TestNewRefusesAnEmptyOrBlankName(t *testing.T) {
	for _, name := range []string{"", " ", "\t"} {
		r, err := New(name, Policy{}, Action{Name: "eat"})
		require.ErrorIs(t, err, ErrName, "%q", name)
		assert.Nil(t, r)
		assert.Contains(t, err.Error(), "reasoner name empty or blank")
	}
	_, err := New("villager", Policy{}, Action{Name: "eat"})
	require.NoError(t, err)
}
