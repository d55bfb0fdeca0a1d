package systems

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// StateHash returns a hash of the world's whole state as a save file holds it (package
// systems/save): every alive entity (ID and generation) with every field of every
// component it has (archai's and the program's own: positions, node memory with its
// timers, blackboards with their write counts (by key, whatever order a schema declares
// its keys in), waypoints, utility and state-machine
// state, random sources, entity references; trees, machines and reasoners by their
// IDs; an empty ID as the tree's, machine's or reasoner's name, which a save writes
// and a load sets), the target of every Arche relation component (the zero entity for a target
// removed from the world), and the Clock resource. Fields a save skips (tagged json:"-", unexported) are
// skipped, and so is a field tagged json:",omitempty" while it is zero (a save leaves it
// out too; non-zero, it is hashed with its name): a field added so to a component later
// (such as Weapon.Cooldown) leaves the hashes of worlds that do not use it unchanged.
// Floats are hashed by their bits, so NaN states hash too.
//
// The hash does not depend on the order Arche stores entities in: each entity is hashed
// alone (FNV-1a) and the entities' hashes are mixed and summed. So equal hashes mean
// equal states (up to collisions), and a world loaded from a save has the hash of the
// world saved. Two runs from the same seed with the same systems give the same hash
// whatever the number of workers; it is the quick test that a change kept the
// simulation deterministic. It walks the components by reflection: call it at the end
// of a run or in tests, not every frame.
func StateHash(w *arche.World) uint64 {
	names := map[arche.ID]string{}
	types := map[arche.ID]reflect.Type{}
	relation := map[arche.ID]bool{}
	all := arche.ComponentIDs(w)
	for _, id := range all {
		info, _ := arche.ComponentInfo(w, id)
		types[id], names[id] = info.Type, info.Type.PkgPath()+"."+info.Type.String()
		relation[id] = info.IsRelation
	}
	// rank orders the components by name once, so each entity's are sorted by an int
	rank := make(map[arche.ID]int, len(all))
	slices.SortFunc(all, func(a, b arche.ID) int { return strings.Compare(names[a], names[b]) })
	for i, id := range all {
		rank[id] = i
	}
	var sum, n uint64
	var raw, ids []arche.ID
	var comps []hashComp
	q := w.Query(arche.All())
	for q.Next() {
		h := fnv{sum: fnvOffset}
		e := q.Entity()
		h.u64(uint64(e.ID())<<32 | uint64(e.Generation()))
		if qi := q.Ids(); !slices.Equal(qi, raw) || comps == nil { // entities of one archetype come together
			raw = append(raw[:0], qi...)
			ids = append(ids[:0], qi...)
			slices.SortFunc(ids, func(a, b arche.ID) int { return rank[a] - rank[b] })
			comps = comps[:0:0]
			for _, id := range ids {
				comps = append(comps, hashComp{id, names[id], types[id], relation[id]})
			}
		}
		for _, c := range comps {
			id := c.id
			h.str(c.name)
			h.value(reflect.NewAt(c.typ, q.Get(id)).Elem())
			if c.relation { // its target, the zero entity for one removed (as a save holds it)
				if t := q.Relation(id); w.Alive(t) {
					h.u64(uint64(t.ID())<<32 | uint64(t.Generation()))
				} else {
					h.u64(0)
				}
			}
		}
		sum += mix64(h.sum)
		n++
	}
	h := fnv{sum: fnvOffset}
	h.u64(sum)
	h.u64(n)
	if c := ecs.Resource[ecs.Clock](w); c != nil {
		h.value(reflect.ValueOf(*c))
	}
	return h.sum
}

// hashComp is a component as StateHash reads it: its ID, full name, type and
// whether it is a relation.
type hashComp struct {
	id       arche.ID
	name     string
	typ      reflect.Type
	relation bool
}

const fnvOffset = 14695981039346656037

type fnv struct{ sum uint64 }

func (h *fnv) u64(v uint64) {
	for range 8 {
		h.sum ^= v & 0xff
		h.sum *= 1099511628211
		v >>= 8
	}
}

func (h *fnv) f64(x float64) { h.u64(math.Float64bits(x)) }

func (h *fnv) str(s string) {
	h.u64(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h.sum ^= uint64(s[i])
		h.sum *= 1099511628211
	}
}

var (
	hashMemory = reflect.TypeFor[bt.Memory]()
	hashStore  = reflect.TypeFor[*blackboard.Store]()
	hashEntity = reflect.TypeFor[arche.Entity]()
	hashBrain  = reflect.TypeFor[components.Brain]()
	hashFSM    = reflect.TypeFor[components.StateMachine]()
	hashUtil   = reflect.TypeFor[components.UtilityBrain]()
)

// value hashes v as a save writes it.
func (h *fnv) value(v reflect.Value) {
	switch v.Type() {
	case hashMemory:
		m := v.Interface().(bt.Memory)
		h.value(reflect.ValueOf(m.Nodes()))
		return
	case hashStore:
		st := v.Interface().(*blackboard.Store)
		slots, err := st.Slots()
		if st == nil || err != nil {
			h.u64(0)
			return
		}
		// each key hashed alone and the hashes mixed and summed, as entities are: a
		// store loaded by a schema declaring the same keys in another order (values
		// are saved and loaded by key) hashes as the store saved
		var sum uint64
		for _, sl := range slots {
			k := fnv{sum: fnvOffset}
			k.str(sl.Key)
			k.u64(sl.Seq)
			if sl.Set {
				k.u64(1)
			} else {
				k.u64(0)
			}
			for _, wd := range sl.Words {
				k.u64(wd)
			}
			k.str(sl.Str)
			k.str(string(sl.Value))
			sum += mix64(k.sum)
		}
		h.u64(uint64(len(slots)) + 1)
		h.u64(sum)
		return
	case hashEntity:
		e := v.Interface().(arche.Entity)
		h.u64(uint64(e.ID())<<32 | uint64(e.Generation()))
		return
	case hashBrain, hashFSM, hashUtil: // an empty ID is saved (and loads) as the name
		h.fields(reflect.ValueOf(savedID(v.Interface())))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			h.u64(1)
		} else {
			h.u64(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		h.u64(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		h.u64(v.Uint())
	case reflect.Float32, reflect.Float64:
		h.f64(v.Float())
	case reflect.String:
		h.str(v.String())
	case reflect.Struct:
		h.fields(v)
	case reflect.Slice:
		if v.IsNil() {
			h.u64(math.MaxUint64)
			return
		}
		fallthrough
	case reflect.Array:
		h.u64(uint64(v.Len()))
		for i := range v.Len() {
			h.value(v.Index(i))
		}
	}
}

// fields hashes the fields of struct v a save writes.
func (h *fnv) fields(v reflect.Value) {
	for _, f := range savedFields(v.Type()) {
		fv := v.Field(f.index)
		if f.omitEmpty {
			if fv.IsZero() {
				continue // as a save leaves it out
			}
			h.str(f.name) // named: two such fields at zero and not are told apart
		}
		h.value(fv)
	}
}

// savedField is a struct field a save writes: its index, name and whether it is
// tagged omitempty.
type savedField struct {
	index     int
	name      string
	omitEmpty bool
}

// fieldsOf caches savedFields per struct type (reflect.Type to []savedField).
var fieldsOf sync.Map

// savedFields returns the fields of struct type t a save writes (exported, not
// tagged json:"-"), in order, read from the type once.
func savedFields(t reflect.Type) []savedField {
	if fs, ok := fieldsOf.Load(t); ok {
		return fs.([]savedField)
	}
	var fs []savedField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		fs = append(fs, savedField{index: i, name: f.Name, omitEmpty: omitEmpty(f)})
	}
	fieldsOf.Store(t, fs)
	return fs
}

// savedID returns c (a Brain, StateMachine or UtilityBrain) with the ID a save
// writes: an empty ID is its tree's, machine's or reasoner's name.
func savedID(c any) any {
	switch c := c.(type) {
	case components.Brain:
		if c.ID == "" && c.Tree != nil {
			c.ID = c.Tree.Name()
		}
		return c
	case components.StateMachine:
		if c.ID == "" && c.Machine != nil {
			c.ID = c.Machine.MachineName()
		}
		return c
	case components.UtilityBrain:
		if c.ID == "" && c.Reasoner != nil {
			c.ID = c.Reasoner.Name()
		}
		return c
	}
	return c
}

// omitEmpty tells whether struct field f is tagged json:",omitempty" (or
// json:"name,omitempty").
func omitEmpty(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == "omitempty" {
			return true
		}
	}
	return false
}

// mix64 is SplitMix64's finalizer: it spreads an entity's hash before the sum.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
