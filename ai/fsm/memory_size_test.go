package fsm

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// The docs say a Memory is 24 bytes: two 32-bit StateIDs (a machine tag and an index,
// so that another machine's state is told apart; 16-bit IDs made it 16 bytes), the
// transition count and Elapsed.
func TestMemoryIs24Bytes(t *testing.T) {
	assert.Equal(t, uintptr(24), unsafe.Sizeof(Memory{}))
}
