package plan

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type dom struct{ name string }

func (d *dom) Name() string { return d.name }

func TestRegistry(t *testing.T) {
	var nilReg *Registry[*dom]
	assert.Nil(t, nilReg.Domain(1))
	d, id := nilReg.Resolve("a", 1)
	assert.Nil(t, d)
	assert.Zero(t, id)
	assert.Nil(t, nilReg.Names())

	var r Registry[*dom]
	a, b := &dom{"a"}, &dom{"b"}
	ida, err := r.Add("x", a)
	require.NoError(t, err)
	idb, err := r.Add("x", b)
	require.NoError(t, err)
	assert.Equal(t, []uint16{1, 2}, []uint16{ida, idb})
	_, err = r.Add("x", &dom{"a"})
	assert.EqualError(t, err, `x: Registry.Add: a domain called "a" is already registered`)
	_, err = r.Add("x", nil)
	assert.EqualError(t, err, "x: Registry.Add: nil domain")

	d, id = r.Resolve("b", 1) // stale hint: found by name
	assert.Same(t, b, d)
	assert.Equal(t, uint16(2), id)
	d, id = r.Resolve("", 1) // no name: the hint alone
	assert.Same(t, a, d)
	assert.Equal(t, uint16(1), id)
	d, id = r.Resolve("c", 1)
	assert.Nil(t, d)
	assert.Zero(t, id)
	assert.Nil(t, r.Domain(3))
	assert.Equal(t, []string{"a", "b"}, r.Names())
}
