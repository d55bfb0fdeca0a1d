package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Repeat or a retry without its count is a build error naming the port, like a Timeout
// without its duration and like BehaviorTree.CPP ("Missing parameter [num_cycles]"). It
// used to be read as 0 in silence: newbie14's <Repeat> returned Success and its
// <RetryUntilSuccessful> Failure on every tick without ever ticking the child.
func TestLoadRepeatAndRetryNeedTheirCount(t *testing.T) {
	for _, c := range []struct{ node, port string }{
		{`<Repeat><AlwaysSuccess/></Repeat>`, "num_cycles"},
		{`<RetryUntilSuccessful><AlwaysFailure/></RetryUntilSuccessful>`, "num_attempts"},
		{`<Retry><AlwaysFailure/></Retry>`, "num_attempts"},
	} {
		reg := NewRegistry(nil)
		id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+c.node+`</BehaviorTree></root>`))
		if err == nil {
			_, err = reg.Tree(id)
		}
		require.Error(t, err, c.node)
		assert.ErrorIs(t, err, ErrPort, c.node)
		assert.Contains(t, err.Error(), `missing port "`+c.port+`"`, c.node)
	}
	// the count given still loads, 0 and -1 included
	for _, node := range []string{`<Repeat num_cycles="0"><AlwaysSuccess/></Repeat>`,
		`<RetryUntilSuccessful num_attempts="-1"><AlwaysFailure/></RetryUntilSuccessful>`} {
		reg := NewRegistry(nil)
		id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+node+`</BehaviorTree></root>`))
		require.NoError(t, err, node)
		_, err = reg.Tree(id)
		require.NoError(t, err, node)
	}
}
