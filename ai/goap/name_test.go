package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A domain's name is its key in a Registry and in saved worlds: Build took an empty or
// blank one. It is refused with ErrName.
func TestBuildRefusesAnEmptyOrBlankDomainName(t *testing.T) {
	build := func(name string) (*Domain, error) {
		b := NewBuilder(name)
		have := b.Fact("have")
		b.Action(Action{Name: "Buy", Cost: 1, Effects: []Effect{{Fact: have, Value: 1}}})
		b.Goal(Goal{Name: "Have", Want: []Cond{{have, Eq, 1}}})
		return b.Build()
	}
	for _, name := range []string{"", " ", "\t"} {
		d, err := build(name)
		require.ErrorIs(t, err, ErrName, "%q", name)
		assert.Nil(t, d)
		assert.Contains(t, err.Error(), "the domain needs a name")
	}
	_, err := build("shop")
	require.NoError(t, err)
}
