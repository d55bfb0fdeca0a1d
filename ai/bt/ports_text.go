package bt

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/archai-go/archai/ai/blackboard"
)

// textIn reads a boolean, number or string entry as text, for a string input port
// loaded from a file and bound to an entry of another type (see [In]).
type textIn struct {
	key  blackboard.Scalar
	kind reflect.Kind
}

// get returns the entry's value in st as text: strings as they are, bools as "true" or
// "false", integers in decimal and floats in the shortest form that reads back (strconv
// 'g'), as ai/script formats its values.
func (t *textIn) get(st *blackboard.Store) (string, bool) {
	if t.kind == reflect.String {
		return t.key.Str(st)
	}
	w, ok := t.key.Word(st)
	if !ok {
		return "", false
	}
	var b [8]byte
	binary.NativeEndian.PutUint64(b[:], w)
	switch t.kind {
	case reflect.Bool:
		return strconv.FormatBool(b[0] != 0), true
	case reflect.Int8:
		return strconv.FormatInt(int64(int8(b[0])), 10), true
	case reflect.Int16:
		return strconv.FormatInt(int64(int16(binary.NativeEndian.Uint16(b[:]))), 10), true
	case reflect.Int32:
		return strconv.FormatInt(int64(int32(binary.NativeEndian.Uint32(b[:]))), 10), true
	case reflect.Int, reflect.Int64:
		if t.kind == reflect.Int && strconv.IntSize == 32 { // an int of a 32-bit build: 4 bytes
			return strconv.FormatInt(int64(int32(binary.NativeEndian.Uint32(b[:]))), 10), true
		}
		return strconv.FormatInt(int64(binary.NativeEndian.Uint64(b[:])), 10), true
	case reflect.Uint8:
		return strconv.FormatUint(uint64(b[0]), 10), true
	case reflect.Uint16:
		return strconv.FormatUint(uint64(binary.NativeEndian.Uint16(b[:])), 10), true
	case reflect.Uint32:
		return strconv.FormatUint(uint64(binary.NativeEndian.Uint32(b[:])), 10), true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if t.kind != reflect.Uint64 && strconv.IntSize == 32 {
			return strconv.FormatUint(uint64(binary.NativeEndian.Uint32(b[:])), 10), true
		}
		return strconv.FormatUint(binary.NativeEndian.Uint64(b[:]), 10), true
	case reflect.Float32:
		return strconv.FormatFloat(float64(math.Float32frombits(binary.NativeEndian.Uint32(b[:]))), 'g', -1, 32), true
	case reflect.Float64:
		return strconv.FormatFloat(math.Float64frombits(binary.NativeEndian.Uint64(b[:])), 'g', -1, 64), true
	}
	return "", false
}

// textOf returns p's value read through t, as T (a string type).
func textOf[T any](t *textIn, c *Context) (T, bool) {
	s, ok := t.get(c.Blackboard)
	return *(*T)(unsafe.Pointer(&s)), ok
}

// bindText binds a string input port of a loaded node to key. A key already declared is
// bound now: as a string key if it is one (the typed fast path), as text if it holds a
// boolean or a number, else it is a load error naming both types. A key not declared yet
// is bound once the tree's ports, scripts and blackboard nodes have had their say
// (b.textPorts, run first in the deferred stage of compileScripts): if nothing else
// declared it, it is declared a string.
func bindText[T any](p *Ports, port, key string) In[T] {
	schema := p.b.reg.schema
	typ := schema.Type(key)
	if typ == reflect.TypeFor[T]() || (typ == nil && p.b.deferring) {
		k, err := blackboard.Declare[T](schema, key)
		if err != nil {
			p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, port, err))
			return In[T]{}
		}
		p.b.readKey(key, typ != nil)
		return FromKey(k)
	}
	t := &textIn{}
	bind := func() {
		had := schema.Type(key) != nil
		if !had {
			if _, err := blackboard.Declare[T](schema, key); err != nil {
				p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, port, err))
				return
			}
		}
		p.b.readKey(key, had)
		k, typ, err := schema.Scalar(key)
		if err != nil {
			_, err = blackboard.Declare[T](schema, key) // the usual type mismatch message
			p.fail(fmt.Errorf("%w: port %q (text) reads booleans, numbers and strings: %w", ErrPort, port, err))
			return
		}
		t.key, t.kind = k, typ.Kind()
	}
	if typ != nil {
		bind()
	} else {
		p.b.textPorts = append(p.b.textPorts, bind)
	}
	return In[T]{txt: t}
}
