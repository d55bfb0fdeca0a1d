package debugview

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// archaiComponents is the package path of archai's components, which the
// page shows in panels of their own.
var archaiComponents = reflect.TypeFor[components.Position]().PkgPath()

// valuesOf returns the values of e's components of types outside archai's
// components package (the program's own: a villager's hunger that drives its
// state machine), each rendered shallowly by valueText, in the order of
// w.Ids(e).
func valuesOf(w *arche.World, e arche.Entity, pkg string) []KV {
	var out []KV
	for _, id := range w.Ids(e) {
		info, ok := arche.ComponentInfo(w, id)
		if !ok || info.Type.PkgPath() == pkg {
			continue
		}
		text := "{}" // a tag: no data
		if info.Type.Size() > 0 {
			text = valueText(reflect.NewAt(info.Type, unsafe.Pointer(w.Get(e, id))).Elem())
		}
		out = append(out, KV{Key: info.Type.Name(), Value: text, Set: true})
	}
	return out
}

// maxValueText is the most bytes valueText writes for a value that is not a
// struct; maxFieldText the most for each field of a struct, of which it shows
// the first maxFields: so a long field (a utility.State, a long string) is cut
// alone and the fields after it still show, within maxFields×(name+maxFieldText).
const (
	maxValueText = 160
	maxFieldText = 80
	maxFields    = 32
)

// valueText renders v for the page without calling any of its methods and
// without reading more of it than it shows: a struct's fields by name
// (unexported ones too), each cut to maxFieldText bytes on its own (the first
// maxFields of them, then how many more), numbers, strings (quoted, cut),
// booleans; a map, or a slice or array of more than 4 elements, by its length,
// a shorter slice or array element by element; a pointer by what it points to
// and an interface by what it holds, down to three pointers or collections deep
// (a struct three structs deep as {...}); any other value cut to maxValueText
// bytes.
func valueText(v reflect.Value) string {
	if v.Kind() != reflect.Struct || v.NumField() == 0 {
		return render(v, 0, maxValueText)
	}
	var b strings.Builder
	b.WriteByte('{')
	t, n := v.Type(), v.NumField()
	for i := range min(n, maxFields) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Field(i).Name)
		b.WriteString(": ")
		b.WriteString(render(v.Field(i), 1, maxFieldText))
	}
	if n > maxFields {
		b.WriteString(", ... " + strconv.Itoa(n-maxFields) + " more fields")
	}
	b.WriteByte('}')
	return b.String()
}

// render renders v at depth as writeValue does, cut to limit bytes (ending in
// "..." where cut, never inside a rune).
func render(v reflect.Value, depth, limit int) string {
	var b strings.Builder
	writeValue(&b, v, depth, limit)
	if b.Len() <= limit {
		return b.String()
	}
	s := b.String()[:limit-3]
	for range utf8.UTFMax - 1 { // not inside a rune
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s + "..."
}

// writeValue writes v at depth, stopping once b holds more than limit bytes.
func writeValue(b *strings.Builder, v reflect.Value, depth, limit int) {
	if b.Len() > limit {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', 6, 64))
	case reflect.Complex64, reflect.Complex128:
		b.WriteString(strconv.FormatComplex(v.Complex(), 'g', 6, 128))
	case reflect.String:
		s := v.String()
		if len(s) > limit {
			s = s[:limit]
		}
		b.WriteString(strconv.Quote(s))
	case reflect.Struct:
		b.WriteByte('{')
		t := v.Type()
		for i := range v.NumField() {
			if i > 0 {
				b.WriteString(", ")
			}
			if b.Len() > limit {
				break
			}
			b.WriteString(t.Field(i).Name)
			b.WriteString(": ")
			if depth >= 2 && v.Field(i).Kind() == reflect.Struct {
				b.WriteString("{...}")
				continue
			}
			writeValue(b, v.Field(i), depth+1, limit)
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array, reflect.Map:
		if v.Kind() != reflect.Array && v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Len() > 4 || depth >= 3 || v.Kind() == reflect.Map {
			b.WriteString("[" + strconv.Itoa(v.Len()) + " items]")
			return
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeValue(b, v.Index(i), depth+1, limit)
		}
		b.WriteByte(']')
	case reflect.Interface: // what it holds, at the same depth (only a pointer can make a cycle)
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		writeValue(b, v.Elem(), depth, limit)
	case reflect.Pointer:
		switch {
		case v.IsNil():
			b.WriteString("nil")
		case depth >= 3:
			b.WriteString("...")
		default:
			b.WriteByte('&')
			writeValue(b, v.Elem(), depth+1, limit)
		}
	default: // func, chan, unsafe pointer
		b.WriteString(v.Kind().String())
	}
}
