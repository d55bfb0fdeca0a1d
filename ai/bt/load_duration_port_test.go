package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A timer whose duration port is misspelt (<Timeout ms="15000">) said only
// `missing port "seconds"`, though msec is accepted too: a newcomer could not tell that
// "msec" was the spelling they meant. The error names every duration port the node
// accepts, and the unit of each.
func TestLoadMissingDurationNamesEveryAcceptedPort(t *testing.T) {
	for _, c := range []struct{ node, want string }{
		{`<Timeout ms="15000"><AlwaysSuccess/></Timeout>`, `missing port "seconds" (the duration in seconds) or "msec" (in milliseconds): give one of them`},
		{`<Cooldown secs="1"><AlwaysSuccess/></Cooldown>`, `missing port "seconds" (the duration in seconds) or "msec" (in milliseconds): give one of them`},
		{`<Wait/>`, `missing port "seconds" (the duration in seconds) or "msec" (in milliseconds): give one of them`},
		{`<Delay msec="10"><AlwaysSuccess/></Delay>`, `missing port "seconds" (the duration in seconds) or "delay_msec" (in milliseconds): give one of them`},
		{`<Sleep seconds="1"/>`, `missing port "msec" (the duration in milliseconds)`},
	} {
		reg := NewRegistry(nil)
		id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+c.node+`</BehaviorTree></root>`))
		if err == nil {
			_, err = reg.Tree(id)
		}
		require.Error(t, err, c.node)
		assert.ErrorIs(t, err, ErrPort, c.node)
		assert.Contains(t, err.Error(), c.want, c.node)
	}
}
