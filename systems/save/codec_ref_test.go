package save

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	arche "github.com/mlange-42/arche/ecs"
)

// The encoder as it was before it kept its path in one reused stack (a record per
// field) and wrote numbers with strconv.Append* (a string each): the reference its
// bytes and errors are checked against (codec_ref_test.go).

// refLoc is the old path record.
type refLoc struct {
	up    *refLoc
	name  string
	idx   int
	elem  bool
	field bool
}

func (l *refLoc) String() string {
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

// refEncode is the old encode: it appends v as JSON to b; path names v in errors.
func refEncode(b *bytes.Buffer, v reflect.Value, path *refLoc) error {
	switch v.Type() {
	case typeMemory:
		m := v.Interface().(bt.Memory)
		return refEncode(b, reflect.ValueOf(m.Nodes()), path)
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
		names := refQuotedNames(t)
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
			if err := refEncode(b, v.Field(i), &refLoc{up: path, name: f.Name, field: true}); err != nil {
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
			if err := refEncode(b, v.Index(i), &refLoc{up: path, idx: i, elem: true}); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return fmt.Errorf("%s: a %s (%v) cannot be saved: tag the field json:\"-\" or keep it out of components", path, v.Kind(), v.Type())
	}
	return nil
}

// refQuotedNamesOf caches quotedNames by struct type.
var refQuotedNamesOf sync.Map // reflect.Type → []string

// quotedNames returns the JSON name of each field of struct type t as json.Marshal
// writes it, quoted ("" for a field not saved): a save writes the same names for
// every agent.
func refQuotedNames(t reflect.Type) []string {
	if names, ok := refQuotedNamesOf.Load(t); ok {
		return names.([]string)
	}
	names := make([]string, t.NumField())
	for i := range names {
		if name := fieldName(t.Field(i)); name != "" {
			raw, _ := json.Marshal(name)
			names[i] = string(raw)
		}
	}
	refQuotedNamesOf.Store(t, names)
	return names
}
