package bt

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"

	"github.com/stretchr/testify/assert"
)

// Harness helpers for scripts and conditions. A condition reads a bool entry that the
// harness sets before each tick from the script letters of its name: 'T' true, anything
// else false. Post-condition scripts note what they did in the string entry "ev", which
// the runner reads after each tick.

// schema returns the harness's blackboard schema, making it and the store on first use.
func (h *harness) schema() *blackboard.Schema {
	if h.store == nil {
		s := blackboard.NewSchema()
		ev := blackboard.MustDeclare[string](s, "ev")
		h.store = s.NewStore()
		blackboard.Set(h.store, ev, "")
	}
	return h.store.Schema()
}

// prog compiles src against the harness's schema.
func (h *harness) prog(src string) *script.Program {
	return script.MustCompile(src, &script.Env{Schema: h.schema()})
}

// flag returns a script reading the bool entry name, true on the ticks where
// h.script[name] has 'T'.
func (h *harness) flag(name string) *script.Program {
	k := blackboard.MustDeclare[bool](h.schema(), name)
	prev := h.before
	h.before = func() {
		if prev != nil {
			prev()
		}
		seq := h.script[name]
		blackboard.Set(h.store, k, h.tick-1 < len(seq) && seq[h.tick-1] == 'T')
	}
	return h.prog(name)
}

// note returns a post-condition script noting text in the entry "ev".
func (h *harness) note(text string) *script.Program {
	return h.prog("ev = ev .. ' " + text + "'")
}

// condCase is a scriptCase that also checks the notes of post-conditions per tick.
type condCase struct {
	name   string
	build  func(h *harness) *Node
	script map[string]string
	trace  string
	log    []string // leaf events per tick
	notes  []string // post-condition notes per tick, if not nil
}

func checkCondCases(t *testing.T, cases []condCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var h *harness
			build := func(hh *harness) *Node {
				h = hh
				n := c.build(h)
				h.schema()
				return n
			}
			var notes []string
			r := runScript(t, build, c.script, len(c.trace), 0.25, func(int, *run) {
				ev := blackboard.MustDeclare[string](h.schema(), "ev")
				v, _ := blackboard.Get(h.store, ev)
				notes = append(notes, strings.TrimSpace(v))
				blackboard.Set(h.store, ev, "")
			})
			assert.Equal(t, c.trace, r.trace, "root status per tick")
			if c.log != nil {
				assert.Equal(t, c.log, r.log, "leaf events per tick")
			}
			if c.notes != nil {
				assert.Equal(t, c.notes, notes, "post-conditions per tick")
			}
		})
	}
}
