package save

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
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
)

// loc is where a value is, for errors: built as the walk goes down (cheap), written
// out only for an error.
type loc struct {
	up    *loc
	name  string // a field ("Next", written ".Next") or a root ("components.Path")
	idx   int
	elem  bool // an element [idx]
	field bool // name is a field's
}

func (l *loc) String() string {
	if l == nil {
		return ""
	}
	if l.elem {
		return fmt.Sprintf("%s[%d]", l.up, l.idx)
	}
	if l.field {
		return l.up.String() + "." + l.name
	}
	return l.up.String() + l.name
}

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

// encode appends v as JSON to b; path names v in errors.
func encode(b *bytes.Buffer, v reflect.Value, path *loc) error {
	switch v.Type() {
	case typeMemory:
		m := v.Interface().(bt.Memory)
		return encode(b, reflect.ValueOf(m.Nodes()), path)
	case typeStore:
		st := v.Interface().(*blackboard.Store)
		if st == nil {
			b.WriteString("null")
			return nil
		}
		slots, err := st.Slots()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if slots == nil {
			slots = []blackboard.Slot{}
		}
		for _, sl := range slots {
			if !utf8.ValidString(sl.Str) {
				return fmt.Errorf("%s: key %q: %w: a string that is not valid UTF-8 (%q): JSON would load it with U+FFFD in place of its bad bytes", path, sl.Key, ErrDomain, sl.Str)
			}
		}
		raw, err := json.Marshal(slots)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		b.Write(raw)
		return nil
	case typeEntity:
		e := v.Interface().(arche.Entity)
		fmt.Fprintf(b, "[%d,%d]", e.ID(), e.Generation())
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			b.WriteString(`"NaN"`)
		case math.IsInf(f, 1):
			b.WriteString(`"+Inf"`)
		case math.IsInf(f, -1):
			b.WriteString(`"-Inf"`)
		default:
			b.WriteString(strconv.FormatFloat(f, 'g', -1, v.Type().Bits()))
		}
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			return fmt.Errorf("%s: %w: a string that is not valid UTF-8 (%q): JSON would load it with U+FFFD in place of its bad bytes; keep bytes in a []byte field", path, ErrDomain, v.String())
		}
		raw, _ := json.Marshal(v.String())
		b.Write(raw)
	case reflect.Struct:
		b.WriteByte('{')
		first := true
		t := v.Type()
		names := quotedNames(t)
		for i := range t.NumField() {
			f := t.Field(i)
			name := names[i]
			if i == 0 {
				if err := sharedNames(t); err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
			}
			if name == "" {
				// an unexported field tagged json:"-" is a cache its package rebuilds
				// (utility.State's reasoner), left out knowingly
				if !f.IsExported() && f.Tag.Get("json") != "-" && f.Type.Size() > 0 && !v.Field(i).IsZero() {
					return fmt.Errorf("%s.%s: unexported field %s holds data the save cannot reach", path, f.Name, t)
				}
				continue
			}
			if omitEmpty(f) && v.Field(i).IsZero() {
				continue // json:",omitempty": the loader reads an absent field as zero
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(name)
			b.WriteByte(':')
			if err := encode(b, v.Field(i), &loc{up: path, name: f.Name, field: true}); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encode(b, v.Index(i), &loc{up: path, idx: i, elem: true}); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return fmt.Errorf("%s: a %s (%v) cannot be saved: tag the field json:\"-\" or keep it out of components", path, v.Kind(), v.Type())
	}
	return nil
}

// quotedNamesOf caches quotedNames by struct type.
var quotedNamesOf sync.Map // reflect.Type → []string

// quotedNames returns the JSON name of each field of struct type t as json.Marshal
// writes it, quoted ("" for a field not saved): a save writes the same names for
// every agent.
func quotedNames(t reflect.Type) []string {
	if names, ok := quotedNamesOf.Load(t); ok {
		return names.([]string)
	}
	names := make([]string, t.NumField())
	for i := range names {
		if name := fieldName(t.Field(i)); name != "" {
			raw, _ := json.Marshal(name)
			names[i] = string(raw)
		}
	}
	quotedNamesOf.Store(t, names)
	return names
}

// sharedNamesOf caches sharedNames by struct type (a save encodes the same types many
// times).
var sharedNamesOf sync.Map // reflect.Type → error (nil: none)

// sharedNames returns an error wrapping ErrDomain if two fields of struct type t are
// saved under one name (json tags): the load would give both the value of one.
func sharedNames(t reflect.Type) error {
	if v, ok := sharedNamesOf.Load(t); ok {
		err, _ := v.(error)
		return err
	}
	var err error
	seen := map[string]string{}
	for i := range t.NumField() {
		f := t.Field(i)
		name := fieldName(f)
		if name == "" {
			continue
		}
		if prev, ok := seen[name]; ok {
			err = fmt.Errorf("%w: fields %s and %s of %s are both saved as %q: give each its own json name", ErrDomain, prev, f.Name, t, name)
			break
		}
		seen[name] = f.Name
	}
	sharedNamesOf.Store(t, err)
	return err
}

// decoder turns parsed JSON (from a json.Decoder with UseNumber) into values.
type decoder struct {
	schema *blackboard.Schema // blackboard stores are made from it
}

// decode sets v (settable) from the parsed JSON x; path names v in errors.
func (d *decoder) decode(v reflect.Value, x any, path *loc) error {
	switch v.Type() {
	case typeMemory:
		var nodes []bt.NodeMemory
		if err := d.decode(reflect.ValueOf(&nodes).Elem(), x, path); err != nil {
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
			return fmt.Errorf("%s: a blackboard store, but save.Registry.Schema is nil (give the schema the stores were made from, the bt.Registry's Schema()): %w", path, ErrDomain)
		}
		raw, _ := json.Marshal(x) // re-encode the parsed slots: numbers keep their text
		var slots []blackboard.Slot
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&slots); err != nil {
			return fmt.Errorf("%s: %w: %v", path, ErrDomain, err)
		}
		st, err := d.schema.StoreFromSlots(slots)
		if err != nil {
			return fmt.Errorf("%s: %w: %v", path, ErrDomain, err)
		}
		v.Set(reflect.ValueOf(st))
		return nil
	case typeEntity:
		arr, ok := x.([]any)
		if !ok || len(arr) != 2 {
			return fmt.Errorf("%s: an entity is [id, generation]: %w", path, ErrDomain)
		}
		raw, _ := json.Marshal(arr)
		var e arche.Entity
		if err := e.UnmarshalJSON(raw); err != nil {
			return fmt.Errorf("%s: %w: %v", path, ErrDomain, err)
		}
		v.Set(reflect.ValueOf(e))
		return nil
	}
	bad := func(want string) error {
		return fmt.Errorf("%s: want %s, found %s: %w", path, want, describe(x), ErrDomain)
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
		seen := 0
		for i := range t.NumField() {
			f := t.Field(i)
			name := fieldName(f)
			if name == "" {
				continue
			}
			fx, ok := m[name]
			if !ok {
				continue // absent: the zero value
			}
			seen++
			if err := d.decode(v.Field(i), fx, &loc{up: path, name: f.Name, field: true}); err != nil {
				return err
			}
		}
		if seen != len(m) {
			for k := range m {
				if !hasField(t, k) {
					return fmt.Errorf("%s: unknown field %q: %w", path, k, ErrDomain)
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
			if err := d.decode(s.Index(i), ex, &loc{up: path, idx: i, elem: true}); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Array:
		arr, ok := x.([]any)
		if !ok || len(arr) != v.Len() {
			return bad(fmt.Sprintf("an array of %d", v.Len()))
		}
		for i, ex := range arr {
			if err := d.decode(v.Index(i), ex, &loc{up: path, idx: i, elem: true}); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: a %s (%v) cannot be loaded: %w", path, v.Kind(), v.Type(), ErrDomain)
	}
	return nil
}

// hasField reports whether struct t has a saved field called name.
func hasField(t reflect.Type, name string) bool {
	for i := range t.NumField() {
		if fieldName(t.Field(i)) == name {
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
