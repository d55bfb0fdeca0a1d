package plan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

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

func TestQuoteCutsLongNames(t *testing.T) {
	assert.Equal(t, `"Patrol"`, Quote("Patrol"))
	assert.Equal(t, strconv.Quote(strings.Repeat("a", MaxQuote)), Quote(strings.Repeat("a", MaxQuote)), "MaxQuote bytes: whole")
	assert.Equal(t, `"`+strings.Repeat("a", MaxQuote)+`"…(65 bytes)`, Quote(strings.Repeat("a", MaxQuote+1)))
	// a two-byte rune across the cut is left out whole
	s := strings.Repeat("a", MaxQuote-1) + "é" + strings.Repeat("b", 1000)
	assert.Equal(t, `"`+strings.Repeat("a", MaxQuote-1)+`"…(1065 bytes)`, Quote(s))
}

func TestClipCutsLongMessagesInTheMiddle(t *testing.T) {
	assert.Nil(t, Clip(nil))
	short := errors.New("json: unknown field \"x\"")
	assert.Same(t, short, Clip(short))
	long := fmt.Errorf("wrapped: %w", errors.New("json: unknown field \""+strings.Repeat("é", 1000)+"\" in htn.fileDomain"))
	c := Clip(long)
	assert.ErrorIs(t, c, long, "Unwrap gives the original")
	msg := c.Error()
	assert.LessOrEqual(t, len(msg), MaxMessage+20)
	assert.True(t, strings.HasPrefix(msg, "wrapped: json: unknown field \"éé"), msg)
	assert.True(t, strings.HasSuffix(msg, "éé\" in htn.fileDomain"), msg)
	assert.Contains(t, msg, "…(2049 bytes)…")
	assert.True(t, utf8.ValidString(msg), "cut on rune boundaries")
}

func TestReplaceKeepsTheIDAndTheOldDomain(t *testing.T) {
	var r Registry[*dom]
	a, b := &dom{"a"}, &dom{"b"}
	_, _ = r.Add("x", a)
	_, _ = r.Add("x", b)
	a2 := &dom{"a"}
	id, replaced, err := r.Replace("x", a2)
	require.NoError(t, err)
	assert.True(t, replaced)
	assert.Equal(t, uint16(1), id)
	assert.Same(t, a2, r.Domain(1))
	assert.Equal(t, []*dom{a}, r.retired, "the replaced domain stays referenced")
	id, replaced, err = r.Replace("x", &dom{"c"})
	require.NoError(t, err)
	assert.False(t, replaced)
	assert.Equal(t, uint16(3), id)
	_, _, err = r.Replace("x", nil)
	assert.EqualError(t, err, "x: Registry.Replace: nil domain")
	assert.Equal(t, []string{"a", "b", "c"}, r.Names())
}
