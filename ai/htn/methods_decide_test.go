package htn

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan's MTR records each method chosen in a byte, so a compound task may have at
// most MaxMethods methods. Before, Build took more and every method from the 256th on
// was recorded as 255: a running plan of method 299 was not replaced by one of method
// 256, which ranks before it (Better said they tie).
func TestACompoundTaskHasAtMostMaxMethods(t *testing.T) {
	build := func(n int) (*Domain, error) {
		b := NewBuilder("many")
		pick := b.Fact("pick")
		root := b.Compound("Root")
		for i := range n {
			task := b.Primitive(fmt.Sprintf("T%d", i), Primitive{})
			b.Method(root, Method{Name: fmt.Sprintf("m%d", i), If: []Condition{Is(pick, Le, int32(i))}, Tasks: []TaskID{task}})
		}
		b.Root(root)
		return b.Build()
	}
	d, err := build(MaxMethods)
	require.NoError(t, err)
	var p Planner
	s := State{MaxMethods - 1}
	var out Plan
	require.NoError(t, p.Plan(d, &s, &out))
	assert.Equal(t, uint8(MaxMethods-1), out.MTR[0], "the last method is recorded as itself")

	_, err = build(MaxMethods + 44)
	assert.True(t, errors.Is(err, ErrMethods), "%v", err)
	assert.ErrorContains(t, err, `task 0 "Root": more than 256 methods (300)`)
}
