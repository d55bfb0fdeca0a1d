package bt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
)

// largeTreeJSON writes a file of n trees of about 60 nodes each, with names and ports,
// for timing the JSON loader.
func largeTreeJSON(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"main": "T0", "trees": [`)
	for t := range n {
		if t > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "T%d", "root": {"type": "Sequence", "name": "top", "children": [`, t)
		for i := range 20 {
			if i > 0 {
				b.WriteString(",\n  ")
			}
			fmt.Fprintf(&b, `{"type": "Fallback", "name": "f%d", "children": [`+
				`{"type": "Inverter", "children": [{"type": "AlwaysFailure"}]}, `+
				`{"type": "Repeat", "ports": {"num_cycles": %d}, "children": [{"type": "AlwaysSuccess", "name": "ok"}]}]}`, i, i+1)
		}
		b.WriteString(`]}}`)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

func BenchmarkLoadJSONLarge(b *testing.B) {
	data := largeTreeJSON(200)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := bt.NewRegistry(blackboard.NewSchema()).LoadJSON("large.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
