package bt

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/ai/script"
)

// TestScriptStringLimitInTree: a tree file whose scripts grow a string each cycle of a
// Repeat (num_cycles="40" of s = s .. s asks for 1 TiB in one tick without
// script.MaxString: a fatal out of memory) loads, and its tick fails the Script node
// with a run-time script error wrapping script.ErrLimit, counted by ScriptErrors, having
// allocated little. (Fewer cycles here, so that without the limit the test fails on its
// assertions, having built 16 MiB or copied 2 GB, rather than taking the machine's
// memory.)
func TestScriptStringLimitInTree(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 64) // a 1 KiB literal
	for _, c := range []struct {
		name, body string
		node       int    // pre-order index of the failing node
		kind       string // its kind
		errs       uint64 // script errors in the tick
	}{
		{"doubling", `<Repeat num_cycles="24"><Script code="s = s .. s"/></Repeat>`, 3, "Script", 1},
		{"appending", `<Repeat num_cycles="2000"><Script code="s = s .. '` + long + `'"/></Repeat>`, 3, "Script", 1},
		{"condition", `<Repeat num_cycles="24"><ScriptCondition code="(s = s .. s) != ''"/></Repeat>`, 3, "ScriptCondition", 1},
		{"post-condition", `<Repeat num_cycles="24"><AlwaysSuccess _onSuccess="s += s"/></Repeat>`, 3, "AlwaysSuccess", 24 - 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			xml := `<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M">
<Sequence><Script code="s := 'x'"/>` + c.body + `</Sequence></BehaviorTree></root>`
			r := NewRegistry(nil)
			main, err := r.LoadXML("grow.xml", []byte(xml))
			require.NoError(t, err)
			tree, err := r.Tree(main)
			require.NoError(t, err)
			require.Equal(t, c.kind, tree.NodeKind(c.node))
			m := tree.NewMemory()
			st := r.Schema().NewStore()
			ctx := &Context{DT: 0.1, Blackboard: st}

			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s := tree.Tick(&m, ctx)
			runtime.ReadMemStats(&after)

			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "bytes one tick allocates")
			assert.Equal(t, c.errs, ctx.ScriptErrors())
			node, lastErr := ctx.LastScriptError()
			assert.Equal(t, c.node, node)
			assert.ErrorIs(t, lastErr, script.ErrLimit)
			if c.kind == "AlwaysSuccess" {
				// A post-condition's error is counted; the node's result stands, so the
				// Repeat runs its 24 cycles: 16 doublings, then 8 failing at once.
				assert.Equal(t, Success, s)
				return
			}
			assert.Equal(t, Failure, s, "the Script node fails; Repeat and Sequence fail with it")
			v, ok := st.Value("s")
			require.True(t, ok)
			assert.LessOrEqual(t, len(v.(string)), script.MaxString)
		})
	}
}
