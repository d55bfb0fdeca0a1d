package systems

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// perceptionKeyTypes are the well-known perception keys with the types
// [Perception] writes them as, in the order of their declaration.
var perceptionKeyTypes = [...]struct {
	name string
	typ  reflect.Type
}{
	{KeyTarget, reflect.TypeFor[arche.Entity]()},
	{KeyTargetVisible, reflect.TypeFor[bool]()},
	{KeyTargetPosition, reflect.TypeFor[r2.Vec]()},
	{KeyTargetDistance, reflect.TypeFor[float64]()},
	{KeyLastSeenPosition, reflect.TypeFor[r2.Vec]()},
	{KeyLastSeenTime, reflect.TypeFor[float64]()},
}

// perceptionKeyNote returns the note of CausePerceptionKeyWrongType for schema s:
// the perception keys s declares with another type than Perception writes, or ""
// if none.
func perceptionKeyNote(s *blackboard.Schema) string {
	var b strings.Builder
	for _, k := range perceptionKeyTypes {
		got := s.Type(k.name)
		if got == nil || got == k.typ {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("its blackboard's schema declares ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString("key ")
		b.WriteString(strconv.Quote(k.name))
		b.WriteString(" as ")
		b.WriteString(got.String())
		b.WriteString(", not ")
		b.WriteString(k.typ.String())
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteString(": Perception never writes such a key (Perception.KeyError), so a tree reading it never sees a foe; " +
		"declare it with the type Perception writes, or call systems.DeclarePerceptionKeys(schema) before declaring the program's own keys")
	return b.String()
}

// perceptionKeyChecks counts under CausePerceptionKeyWrongType the agents with a
// Perception whose Blackboard's store is of a schema declaring a well-known
// perception key with another type. What it learns of a schema is kept between
// checks (and learnt again when the schema has grown), so a check in steady state
// allocates nothing; a schema no agent's store holds at a check is forgotten then, so
// a program making a schema per agent, or reloading its trees, does not keep every
// schema it ever made alive.
type perceptionKeyChecks struct {
	filter *generic.Filter2[components.Perception, components.Blackboard]
	known  checkCache[*blackboard.Schema, perceptionKeySchema]
}

type perceptionKeySchema struct {
	declared int    // the schema's Len when its note was made
	note     string // perceptionKeyNote's
}

func (c *perceptionKeyChecks) check(w *arche.World, r *Report) {
	if c.filter == nil {
		c.filter = generic.NewFilter2[components.Perception, components.Blackboard]()
	}
	c.known.begin()
	defer c.known.end()
	q := c.filter.Query(w)
	for q.Next() {
		_, bb := q.Get()
		if bb.Store == nil || bb.Store.Schema() == nil {
			continue
		}
		s := bb.Store.Schema()
		k, ok := c.known.lookup(s)
		if !ok || k.declared != s.Len() {
			k = perceptionKeySchema{declared: s.Len(), note: perceptionKeyNote(s)}
			c.known.store(s, k)
		}
		if k.note != "" {
			r.addNote(CausePerceptionKeyWrongType, q.Entity(), needsNote(k.note))
		}
	}
}
