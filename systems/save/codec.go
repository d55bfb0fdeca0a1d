package save

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// The codec writes a component as JSON by walking its type: numbers, booleans,
// strings, structs (exported fields, honouring a json:"-" or json:"name" tag, and
// leaving out a zero field tagged json:",omitempty", read back as zero), slices
// and arrays. Unlike encoding/json it writes a NaN or infinite float as the string
// "NaN", "+Inf" or "-Inf", so a world in a state the diagnostics report still saves.
// Three types are written by hand: bt.Memory (its nodes), *blackboard.Store (its slots,
// see blackboard.Slot) and arche.Entity ([id, generation]). A pointer, map, interface,
// channel or function field not tagged json:"-" cannot be saved: an error names it.

var (
	typeMemory = reflect.TypeFor[bt.Memory]()
	typeStore  = reflect.TypeFor[*blackboard.Store]()
	typeEntity = reflect.TypeFor[arche.Entity]()
	typeRun    = reflect.TypeFor[hybrid.TreeRun]()
	typeChoice = reflect.TypeFor[utility.State]()

	// the decision components encodeComponent fills in
	typeBrain        = reflect.TypeFor[components.Brain]()
	typeStateMachine = reflect.TypeFor[components.StateMachine]()
	typeUtilityBrain = reflect.TypeFor[components.UtilityBrain]()
	typeHTNPlanner   = reflect.TypeFor[components.HTNPlanner]()
	typeGOAPPlanner  = reflect.TypeFor[components.GOAPPlanner]()
)

// path is where a value is, for errors: a stack of steps the walk pushes going down and
// pops coming back up (one slice, reused: no allocation per value), written out only for
// an error, as "components.Path.Waypoints[3].X".
type path []step

// step is one step of a path: the root's name ("components.Path"), then a field's
// name ("Next", written ".Next") or an element's index (name "", written "[idx]").
type step struct {
	name string
	idx  int
}

func (p path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case i == 0:
			b.WriteString(s.name)
		case s.name != "":
			b.WriteByte('.')
			b.WriteString(s.name)
		default:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.idx))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// field and elem push a step; pop takes the last one off.
func (p *path) field(name string) { *p = append(*p, step{name: name}) }
func (p *path) elem(i int)        { *p = append(*p, step{idx: i}) }
func (p *path) pop()              { *p = (*p)[:len(*p)-1] }

// at starts the path afresh at root.
func (p *path) at(root string) { *p = append((*p)[:0], step{name: root}) }

// fieldName returns the JSON name of struct field f, or "" to skip it.
func fieldName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch tag {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return tag
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

// encoder writes values as JSON into buf (see the codec's comment above). It allocates
// nothing per value but what a blackboard store's slots and a tree's memory take, so
// that a save's garbage does not grow with its fields.
type encoder struct {
	buf  []byte
	path path       // where the walk is, for errors
	live *liveTrees // the trees the world's agents run, for a hybrid.TreeRun (nil: none known)
}

// The encoder writes as a bytes.Buffer does (WriteByte never fails).
func (e *encoder) WriteByte(c byte) error { e.buf = append(e.buf, c); return nil }
func (e *encoder) WriteString(s string)   { e.buf = append(e.buf, s...) }
func (e *encoder) Write(p []byte)         { e.buf = append(e.buf, p...) }

// Bytes returns what was written.
func (e *encoder) Bytes() []byte { return e.buf }

// root appends v as JSON, root naming it in errors ("Clock", "components.Path").
func (e *encoder) root(v reflect.Value, root string) error {
	e.path.at(root)
	return e.encode(v)
}

// encode appends v as JSON; e.path names v in errors.
func (e *encoder) encode(v reflect.Value) error {
	switch v.Type() {
	case typeMemory:
		m, _ := reflect.TypeAssert[bt.Memory](v)
		return e.encode(reflect.ValueOf(m.Nodes()))
	case typeStore:
		st, _ := reflect.TypeAssert[*blackboard.Store](v)
		if st == nil {
			e.WriteString("null")
			return nil
		}
		slots, err := st.Slots()
		if err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
		if slots == nil {
			slots = []blackboard.Slot{}
		}
		for _, sl := range slots {
			if !utf8.ValidString(sl.Str) {
				return fmt.Errorf("%s: key %q: %w: a string that is not valid UTF-8 (%q): JSON would load it with U+FFFD in place of its bad bytes", e.path, sl.Key, ErrDomain, sl.Str)
			}
		}
		raw, err := json.Marshal(slots)
		if err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
		e.Write(raw)
		return nil
	case typeRun:
		r, _ := reflect.TypeAssert[hybrid.TreeRun](v)
		if nodes, err := e.live.runNodes(&r, e.path); err != nil {
			return err
		} else if nodes != nil { // a replaced build's memory: saved as its next update makes it
			c := reflect.New(typeRun).Elem()
			r.Memory = bt.MemoryOf(nodes)
			c.Set(reflect.ValueOf(r))
			v = c
		}
	case typeChoice:
		st, _ := reflect.TypeAssert[utility.State](v)
		if fresh, ok := e.live.utilityState(&st); ok { // an earlier reasoner's: saved as its next decision makes it
			v = reflect.ValueOf(&fresh).Elem()
		}
	case typeEntity:
		en, _ := reflect.TypeAssert[arche.Entity](v)
		e.buf = append(e.buf, '[')
		e.buf = strconv.AppendUint(e.buf, uint64(en.ID()), 10)
		e.buf = append(e.buf, ',')
		e.buf = strconv.AppendUint(e.buf, uint64(en.Generation()), 10)
		e.buf = append(e.buf, ']')
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			e.WriteString(`"NaN"`)
		case math.IsInf(f, 1):
			e.WriteString(`"+Inf"`)
		case math.IsInf(f, -1):
			e.WriteString(`"-Inf"`)
		default:
			e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, v.Type().Bits())
		}
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			return fmt.Errorf("%s: %w: a string that is not valid UTF-8 (%q): JSON would load it with U+FFFD in place of its bad bytes; keep bytes in a []byte field", e.path, ErrDomain, s)
		}
		e.quote(s)
	case reflect.Struct:
		t := v.Type()
		info := structOf(t)
		if len(info.fields) > 0 && info.shared != nil {
			return fmt.Errorf("%s: %w", e.path, info.shared)
		}
		e.WriteByte('{')
		first := true
		for i := range info.fields {
			f := &info.fields[i]
			if f.quoted == "" {
				// an unexported field tagged json:"-" is a cache its package rebuilds
				// (utility.State's reasoner), left out knowingly
				if f.unreached && !v.Field(i).IsZero() {
					return fmt.Errorf("%s.%s: unexported field %s holds data the save cannot reach", e.path, f.name, t)
				}
				continue
			}
			if f.omitEmpty && v.Field(i).IsZero() {
				continue // json:",omitempty": the loader reads an absent field as zero
			}
			if !first {
				e.WriteByte(',')
			}
			first = false
			e.WriteString(f.quoted)
			e.WriteByte(':')
			e.path.field(f.name)
			if err := e.encode(v.Field(i)); err != nil {
				return err
			}
			e.path.pop()
		}
		e.WriteByte('}')
	case reflect.Slice:
		if v.IsNil() {
			e.WriteString("null")
			return nil
		}
		fallthrough
	case reflect.Array:
		e.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				e.WriteByte(',')
			}
			e.path.elem(i)
			if err := e.encode(v.Index(i)); err != nil {
				return err
			}
			e.path.pop()
		}
		e.WriteByte(']')
	default:
		return fmt.Errorf("%s: a %s (%v) cannot be saved: tag the field json:\"-\" or keep it out of components", e.path, v.Kind(), v.Type())
	}
	return nil
}

// quote appends s as a JSON string, escaped as json.Marshal escapes it (HTML
// characters, U+2028 and U+2029 too).
func (e *encoder) quote(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s)
			e.Write(raw)
			return
		}
	}
	e.WriteByte('"') // printable ASCII json.Marshal leaves as it is
	e.WriteString(s)
	e.WriteByte('"')
}

// structInfo is what encode needs of a struct type's fields, by field index.
type structInfo struct {
	fields []fieldInfo
	shared error // sharedNames
}

type fieldInfo struct {
	name      string // the Go name, for errors
	key       string // the JSON name; "" for a field not saved
	quoted    string // key as json.Marshal writes it, quoted ("" with key)
	omitEmpty bool   // json:",omitempty"
	unreached bool   // unexported, not tagged json:"-" and not of size 0: must be zero
}

// structInfoOf caches structOf by struct type (a save encodes the same types many times).
var structInfoOf sync.Map // reflect.Type → *structInfo

// structOf returns the fields of struct type t as encode writes them.
func structOf(t reflect.Type) *structInfo {
	if info, ok := structInfoOf.Load(t); ok {
		return info.(*structInfo)
	}
	info := &structInfo{fields: make([]fieldInfo, t.NumField()), shared: sharedNames(t)}
	for i := range info.fields {
		f := t.Field(i)
		fi := &info.fields[i]
		fi.name = f.Name
		if fi.key = fieldName(f); fi.key != "" {
			raw, _ := json.Marshal(fi.key)
			fi.quoted = string(raw)
		}
		fi.omitEmpty = omitEmpty(f)
		fi.unreached = !f.IsExported() && f.Tag.Get("json") != "-" && f.Type.Size() > 0
	}
	structInfoOf.Store(t, info)
	return info
}

// sharedNames returns an error wrapping ErrDomain if two fields of struct type t are
// saved under one name (json tags): the load would give both the value of one.
func sharedNames(t reflect.Type) error {
	seen := map[string]string{}
	for i := range t.NumField() {
		f := t.Field(i)
		name := fieldName(f)
		if name == "" {
			continue
		}
		if prev, ok := seen[name]; ok {
			return fmt.Errorf("%w: fields %s and %s of %s are both saved as %q: give each its own json name", ErrDomain, prev, f.Name, t, name)
		}
		seen[name] = f.Name
	}
	return nil
}

// decoder turns parsed JSON (from a json.Decoder with UseNumber) into values.
type decoder struct {
	schema *blackboard.Schema // blackboard stores are made from it
	path   path               // where the walk is, for errors
}

// decode sets v (settable) from the parsed JSON x; d.path names v in errors.
func (d *decoder) decode(v reflect.Value, x any) error {
	switch v.Type() {
	case typeMemory:
		var nodes []bt.NodeMemory
		if err := d.decode(reflect.ValueOf(&nodes).Elem(), x); err != nil {
			return err
		}
		v.Set(reflect.ValueOf(bt.MemoryOf(nodes)))
		return nil
	case typeStore:
		if x == nil {
			v.SetZero()
			return nil
		}
		if d.schema == nil {
			return fmt.Errorf("%s: a blackboard store, but save.Registry.Schema is nil (give the schema the stores were made from, the bt.Registry's Schema()): %w", d.path, ErrDomain)
		}
		raw, _ := json.Marshal(x) // re-encode the parsed slots: numbers keep their text
		var slots []blackboard.Slot
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&slots); err != nil {
			return fmt.Errorf("%s: %w: %v", d.path, ErrDomain, err)
		}
		st, err := d.schema.StoreFromSlots(slots)
		if err != nil {
			return fmt.Errorf("%s: %w: %v", d.path, ErrDomain, err)
		}
		v.Set(reflect.ValueOf(st))
		return nil
	case typeEntity:
		arr, ok := x.([]any)
		if !ok || len(arr) != 2 {
			return fmt.Errorf("%s: an entity is [id, generation]: %w", d.path, ErrDomain)
		}
		raw, _ := json.Marshal(arr)
		var e arche.Entity
		if err := e.UnmarshalJSON(raw); err != nil {
			return fmt.Errorf("%s: %w: %v", d.path, ErrDomain, err)
		}
		v.Set(reflect.ValueOf(e))
		return nil
	}
	bad := func(want string) error {
		return fmt.Errorf("%s: want %s, found %s: %w", d.path, want, describe(x), ErrDomain)
	}
	switch v.Kind() {
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return bad("a boolean")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := x.(json.Number)
		if !ok {
			return bad("an integer")
		}
		i, err := strconv.ParseInt(string(n), 10, v.Type().Bits())
		if err != nil {
			return bad(fmt.Sprintf("an integer of %d bits", v.Type().Bits()))
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, ok := x.(json.Number)
		if !ok {
			return bad("an unsigned integer")
		}
		i, err := strconv.ParseUint(string(n), 10, v.Type().Bits())
		if err != nil {
			return bad(fmt.Sprintf("an unsigned integer of %d bits", v.Type().Bits()))
		}
		v.SetUint(i)
	case reflect.Float32, reflect.Float64:
		var f float64
		switch n := x.(type) {
		case json.Number:
			var err error
			if f, err = strconv.ParseFloat(string(n), v.Type().Bits()); err != nil {
				return bad("a number")
			}
		case string:
			switch n {
			case "NaN":
				f = math.NaN()
			case "+Inf":
				f = math.Inf(1)
			case "-Inf":
				f = math.Inf(-1)
			default:
				return bad(`a number, "NaN", "+Inf" or "-Inf"`)
			}
		default:
			return bad("a number")
		}
		v.SetFloat(f)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return bad("a string")
		}
		v.SetString(s)
	case reflect.Struct:
		m, ok := x.(map[string]any)
		if !ok {
			return bad("an object")
		}
		t := v.Type()
		info := structOf(t)
		seen := 0
		for i := range info.fields {
			f := &info.fields[i]
			if f.key == "" {
				continue
			}
			fx, ok := m[f.key]
			if !ok {
				continue // absent: the zero value
			}
			seen++
			d.path.field(f.name)
			if err := d.decode(v.Field(i), fx); err != nil {
				return err
			}
			d.path.pop()
		}
		if seen != len(m) {
			for _, k := range slices.Sorted(maps.Keys(m)) { // the same one named at every load
				if !hasField(t, k) {
					return fmt.Errorf("%s: unknown field %q: %w", d.path, k, ErrDomain)
				}
			}
		}
	case reflect.Slice:
		if x == nil {
			v.SetZero()
			return nil
		}
		arr, ok := x.([]any)
		if !ok {
			return bad("an array")
		}
		s := reflect.MakeSlice(v.Type(), len(arr), len(arr))
		for i, ex := range arr {
			d.path.elem(i)
			if err := d.decode(s.Index(i), ex); err != nil {
				return err
			}
			d.path.pop()
		}
		v.Set(s)
	case reflect.Array:
		arr, ok := x.([]any)
		if !ok || len(arr) != v.Len() {
			return bad(fmt.Sprintf("an array of %d", v.Len()))
		}
		for i, ex := range arr {
			d.path.elem(i)
			if err := d.decode(v.Index(i), ex); err != nil {
				return err
			}
			d.path.pop()
		}
	default:
		return fmt.Errorf("%s: a %s (%v) cannot be loaded: %w", d.path, v.Kind(), v.Type(), ErrDomain)
	}
	return nil
}

// hasField reports whether struct t has a saved field called name.
func hasField(t reflect.Type, name string) bool {
	for _, f := range structOf(t).fields {
		if f.key == name { // "" too, as before: a skipped field matches the key ""
			return true
		}
	}
	return false
}

// describe names the kind of a parsed JSON value for errors.
func describe(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + string(x)
	case string:
		if len(x) > 20 {
			x = x[:20] + "…"
		}
		return strconv.Quote(x)
	case []any:
		return "an array"
	}
	return "an object"
}
