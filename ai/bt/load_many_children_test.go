package bt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A composite with more children than a node can hold (math.MaxUint16) is refused with
// the bound it broke. The loader said "want at least 1", a Sequence's lower bound, which
// 70000 children meet. Such a composite makes its tree larger than MaxNodes, which the
// loader now refuses as it reads (ErrTooManyNodes naming MaxNodes) before the build's
// "70000, want at most 65535" could.
func TestLoadedCompositeWithTooManyChildrenNamesTheBound(t *testing.T) {
	for _, kids := range []int{65535, 65536, 70000} {
		r := NewRegistry(nil)
		main, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>`+strings.Repeat(`<AlwaysSuccess/>`, kids)+`</Sequence>`)))
		if err == nil {
			_, err = r.Tree(main)
		}
		require.ErrorIs(t, err, ErrTooManyNodes, kids)
		assert.Contains(t, err.Error(), "more than 65535", kids)
		assert.NotContains(t, err.Error(), "at least", kids)
	}
	// the lower bound is still named for too few
	r := NewRegistry(nil)
	main, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence></Sequence>`)))
	if err == nil {
		_, err = r.Tree(main)
	}
	require.ErrorIs(t, err, ErrChildren)
	assert.Contains(t, err.Error(), "0, want at least 1")
}
