// Package fieldscan finds where a component type holds values of a given type:
// the component itself, or its fields and array elements, reached without
// following pointers, slices or maps. The debug view finds hybrid.TreeRuns and
// utility.States in a program's own components with it, and systems.Diagnose
// finds the utility.States whose input counts it checks: the two look alike.
package fieldscan

import (
	"reflect"
	"strconv"
)

// Depth is how deep [Of] looks: fields of fields of ..., 4 levels.
const Depth = 4

// MaxElems is how many elements of an array are looked into.
const MaxElems = 64

// Field is where a value holds one value of the type looked for.
type Field struct {
	Off  uintptr // its offset from the start of the value
	Name string  // its path from the type's name: "Fighter.Attack", "Crew.Jobs[2]"
}

// Of lists where a value of type t holds values of type want, named from
// t.Name(), at most [Depth] levels deep. Reflection: call it once per type and
// keep the answer.
func Of(want, t reflect.Type) []Field {
	return Find(want, t, 0, t.Name(), Depth, nil)
}

// Find appends to out where a value of type t, at offset base of the value
// scanned and named name, holds values of type want: t itself, or its fields and
// array elements (not through pointers or slices), at most depth levels deep and
// [MaxElems] elements of an array.
func Find(want, t reflect.Type, base uintptr, name string, depth int, out []Field) []Field {
	if t == want {
		return append(out, Field{Off: base, Name: name})
	}
	if depth == 0 {
		return out
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			out = Find(want, f.Type, base+f.Offset, name+"."+f.Name, depth-1, out)
		}
	case reflect.Array:
		for i := range min(t.Len(), MaxElems) {
			out = Find(want, t.Elem(), base+uintptr(i)*t.Elem().Size(), name+"["+strconv.Itoa(i)+"]", depth-1, out)
		}
	}
	return out
}
