package fsm

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// The docs say a Memory is 16 bytes (they said 24).
func TestMemoryIs16Bytes(t *testing.T) {
	assert.Equal(t, uintptr(16), unsafe.Sizeof(Memory{}))
}
