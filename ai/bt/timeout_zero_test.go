package bt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Timeout of 0 sets no limit, as BehaviorTree.CPP's <Timeout msec="0"> starts no
// timer: its Running child is ticked on every tick and never halted. Before, it was
// halted and the Timeout failed at the second tick.
func TestTimeoutZeroSetsNoLimit(t *testing.T) {
	var log []string
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Work", func(p *Ports) (func(*Context) Status, error) {
		p.OnHalt(func(*Context) { log = append(log, "halt") })
		return func(*Context) Status { log = append(log, "work"); return Running }, nil
	}))
	id, err := r.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T"><Timeout msec="0"><Work/></Timeout></BehaviorTree></root>`))
	require.NoError(t, err)
	fromFile, err := r.Tree(id)
	require.NoError(t, err)
	fromGo, err := Compile("go", Timeout(0, Action("Work", func(*Context) Status { log = append(log, "work"); return Running })))
	require.NoError(t, err)
	for _, tr := range []*Tree{fromFile, fromGo} {
		log = nil
		m := tr.NewMemory()
		var trace string
		for range 100 {
			trace += letter(tr.Tick(&m, &Context{DT: 1}))
		}
		assert.Equal(t, strings.Repeat("R", 100), trace, tr.Name())
		assert.Equal(t, 100, len(log), tr.Name())
		assert.NotContains(t, log, "halt", tr.Name())
	}
	// A positive Timeout still fires: 0.5 s at dt 0.25, failing on the third tick.
	tr, err := Compile("half", Timeout(0.5, Action("Work", func(*Context) Status { return Running })))
	require.NoError(t, err)
	m := tr.NewMemory()
	var trace string
	for range 4 {
		trace += letter(tr.Tick(&m, &Context{DT: 0.25}))
	}
	assert.Equal(t, "RRFR", trace)
}
