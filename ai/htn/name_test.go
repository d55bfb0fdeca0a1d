package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A domain's name is its key in a Registry and in saved worlds: LoadJSON refused an
// empty one, Builder.Build took it (and a blank one). Build refuses both with ErrName.
func TestBuildRefusesAnEmptyOrBlankDomainName(t *testing.T) {
	run := func(*Context) Status { return Success }
	for _, name := range []string{"", " ", "\n"} {
		b := NewBuilder(name)
		b.Root(b.Primitive("Wait", Primitive{Run: run}))
		d, err := b.Build()
		require.ErrorIs(t, err, ErrName, "%q", name)
		assert.Nil(t, d)
		assert.Contains(t, err.Error(), "the domain needs a name")
	}
	b := NewBuilder("squad")
	b.Root(b.Primitive("Wait", Primitive{Run: run}))
	_, err := b.Build()
	require.NoError(t, err)
}
