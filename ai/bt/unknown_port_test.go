package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An unknown port's error lists the node's own ports (a newcomer wrote
// <CheckBlackboard key=... expected=...> and had to read the loader to find value_A,
// value_B and op).
func TestAnUnknownPortListsTheNodesPorts(t *testing.T) {
	for xml, want := range map[string]string{
		`<CheckBlackboard key="{k}" expected="1"/>`: `unknown port "expected" (the ports it read: value_A, value_B, op)`,
		`<Wait secs="1"/>`:                          `unknown port "secs" (the ports it read: seconds, msec)`,
		`<AlwaysSuccess foo="1"/>`:                  `unknown port "foo" (it read no ports of its own)`,
	} {
		r := bt.NewRegistry(blackboard.NewSchema())
		_, err := r.LoadXML("f.xml", []byte(`<root main_tree_to_execute="M"><BehaviorTree ID="M">`+xml+`</BehaviorTree></root>`))
		if err == nil {
			_, err = r.Tree("M")
		}
		require.Error(t, err, xml)
		assert.Contains(t, err.Error(), want, xml)
	}
}
