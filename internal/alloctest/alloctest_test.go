package alloctest_test

import (
	"testing"

	"github.com/archai-go/archai/internal/alloctest"
	"github.com/stretchr/testify/assert"
)

var sink []byte

//go:noinline
func allocate() { sink = make([]byte, 48) }

// A window counts archai's objects, on the caller's goroutine and on another
// it hands work to, with where they were made; a window that allocates
// nothing counts nothing.
func TestMeterCountsArchaiObjects(t *testing.T) {
	m := alloctest.Start(t)
	w := m.Count(func() { allocate(); allocate() })
	assert.Equal(t, int64(2), w.Objects, "%s", w)
	assert.Contains(t, w.String(), "alloctest_test.allocate")

	done := make(chan struct{})
	work := make(chan struct{})
	go func() {
		for range work {
			allocate()
			done <- struct{}{}
		}
	}()
	defer close(work)
	w = m.Count(func() {
		for range 3 {
			work <- struct{}{}
			<-done
		}
	})
	assert.Equal(t, int64(3), w.Objects, "%s", w)

	w = m.Count(func() {})
	assert.Zero(t, w.Objects)
	assert.Zero(t, w.Mallocs, "nothing allocated, not even the meter")
}
