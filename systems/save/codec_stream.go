package save

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/archai-go/archai/ai/bt"
)

// decodeStream is decode reading the JSON from dec token by token (dec uses UseNumber)
// instead of from a parsed value: memory grows with the values built, not with a parse
// of the text (see streamAbove). It accepts and refuses what decode does, with the same
// errors; an unknown field of an object is named where it is met.
func (d *decoder) decodeStream(v reflect.Value, dec *json.Decoder) error {
	switch v.Type() {
	case typeMemory:
		var nodes []bt.NodeMemory
		if err := d.decodeStream(reflect.ValueOf(&nodes).Elem(), dec); err != nil {
			return err
		}
		v.Set(reflect.ValueOf(bt.MemoryOf(nodes)))
		return nil
	case typeStore, typeEntity: // small values: parsed whole, as decode takes them
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("%s: %w: %v", d.path, ErrFormat, err)
		}
		sub := json.NewDecoder(bytes.NewReader(raw))
		sub.UseNumber()
		var x any
		if err := sub.Decode(&x); err != nil {
			return fmt.Errorf("%s: %w: %v", d.path, ErrFormat, err)
		}
		return d.decode(v, x)
	}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %w: %v", d.path, ErrFormat, err)
	}
	bad := func(want string) error {
		return fmt.Errorf("%s: want %s, found %s: %w", d.path, want, describeToken(tok), ErrDomain)
	}
	end := func() error { // the closing delimiter of an array or object
		if _, err := dec.Token(); err != nil {
			return fmt.Errorf("%s: %w: %v", d.path, ErrFormat, err)
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		if _, delim := tok.(json.Delim); delim {
			return d.decode(v, delimValue(tok)) // the same "want ..., found an array" error
		}
		return d.decode(v, tok)
	case reflect.Struct:
		if tok != json.Delim('{') {
			return bad("an object")
		}
		names := fieldIndex(v.Type())
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return fmt.Errorf("%s: %w: %v", d.path, ErrFormat, err)
			}
			key, _ := k.(string)
			i, ok := names[key]
			if !ok {
				return fmt.Errorf("%s: unknown field %q: %w", d.path, key, ErrDomain)
			}
			d.path.field(structOf(v.Type()).fields[i].name)
			if err := d.decodeStream(v.Field(i), dec); err != nil {
				return err
			}
			d.path.pop()
		}
		return end()
	case reflect.Slice:
		if tok == nil {
			v.SetZero()
			return nil
		}
		if tok != json.Delim('[') {
			return bad("an array")
		}
		s := reflect.MakeSlice(v.Type(), 0, 0) // [] loads as an empty slice, not nil
		sp := reflect.New(v.Type()).Elem()
		sp.Set(s)
		n := 0
		for dec.More() {
			sp.Grow(1)
			sp.SetLen(n + 1)
			d.path.elem(n)
			if err := d.decodeStream(sp.Index(n), dec); err != nil {
				return err
			}
			d.path.pop()
			n++
		}
		if sp.Cap() > n { // no spare capacity kept: as decode's slice of exactly n
			exact := reflect.MakeSlice(v.Type(), n, n)
			reflect.Copy(exact, sp)
			sp = exact
		}
		v.Set(sp)
		return end()
	case reflect.Array:
		if tok != json.Delim('[') {
			return bad(fmt.Sprintf("an array of %d", v.Len()))
		}
		n := 0
		for dec.More() {
			if n == v.Len() {
				return bad(fmt.Sprintf("an array of %d", v.Len()))
			}
			d.path.elem(n)
			if err := d.decodeStream(v.Index(n), dec); err != nil {
				return err
			}
			d.path.pop()
			n++
		}
		if n != v.Len() {
			return bad(fmt.Sprintf("an array of %d", v.Len()))
		}
		return end()
	}
	return fmt.Errorf("%s: a %s (%v) cannot be loaded: %w", d.path, v.Kind(), v.Type(), ErrDomain)
}

// delimValue stands for an array or object opened by tok in decode's errors (it
// describes a []any as an array and anything else unknown as an object).
func delimValue(tok json.Token) any {
	if tok == json.Delim('[') {
		return []any{}
	}
	return map[string]any{}
}

// describeToken names a token as describe names a parsed value.
func describeToken(tok json.Token) any {
	if _, delim := tok.(json.Delim); delim {
		return describe(delimValue(tok))
	}
	return describe(tok)
}

// fieldIndexOf caches fieldIndex by struct type.
var fieldIndexOf sync.Map // reflect.Type → map[string]int

// fieldIndex returns the saved fields of struct type t by JSON name.
func fieldIndex(t reflect.Type) map[string]int {
	if m, ok := fieldIndexOf.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := range t.NumField() {
		if name := fieldName(t.Field(i)); name != "" {
			m[name] = i
		}
	}
	fieldIndexOf.Store(t, m)
	return m
}
