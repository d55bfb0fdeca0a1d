package systems

import (
	"reflect"
	"strings"
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPathServerHoldsNoWorld (overlap17): the job a PathQueue with Overlap runs on
// its helper goroutine (pathServe) reaches no World by construction. Every type
// the job's value reaches (through fields, pointers, slices, arrays and maps) is
// walked: none may be Arche's World (nor hold one: Arche's filters, maps and
// queries do), the PathQueue (which holds the World, its maps and the Arena), or
// a func, interface, channel or unsafe pointer that could hide one, outside the
// pure nav/grid package (which imports no Arche). The one Arche type reachable
// is the Entity, a value. If a search's recheck or its writes go back to reading
// the World on the helper, the World (or the queue) comes back into this walk.
func TestPathServerHoldsNoWorld(t *testing.T) {
	world := reflect.TypeFor[arche.World]()
	forbidden := map[reflect.Type]string{
		world:                          "Arche's World",
		reflect.TypeFor[PathQueue]():   "the PathQueue (World, maps, Arena)",
		reflect.TypeFor[Arena]():       "the Arena (a World resource)",
		reflect.TypeFor[ecs.Workers](): "the worker pool",
	}
	seen := map[reflect.Type]bool{}
	var bad []string
	const gridPkg = "github.com/archai-go/archai/nav/grid"
	// owner is the package of the struct whose field t is (or holds) t
	var walk func(t reflect.Type, path, owner string)
	walk = func(t reflect.Type, path, owner string) {
		if seen[t] {
			return
		}
		seen[t] = true
		if why, ok := forbidden[t]; ok {
			bad = append(bad, path+": "+why)
			return
		}
		if t == reflect.TypeFor[arche.Entity]() {
			return // a value: an ID and a generation
		}
		if strings.HasPrefix(t.PkgPath(), "github.com/mlange-42/arche") {
			bad = append(bad, path+": Arche's "+t.String())
			return
		}
		switch t.Kind() {
		case reflect.Func, reflect.Interface, reflect.Chan, reflect.UnsafePointer:
			// the grid's own (an error; Options.HeuristicFunc, the user's)
			if owner != gridPkg {
				bad = append(bad, path+": a "+t.Kind().String()+" ("+t.String()+") may hide a World")
			}
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem(), path+"/"+t.Kind().String(), owner)
		case reflect.Map:
			walk(t.Key(), path+"/key", owner)
			walk(t.Elem(), path+"/elem", owner)
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				walk(f.Type, path+"."+f.Name, t.PkgPath())
			}
		}
	}
	walk(reflect.TypeFor[pathServe](), "pathServe", "")
	assert.Empty(t, bad, "types the helper's job reaches")
	assert.True(t, seen[reflect.TypeFor[pathServer]()], "the walk reached the server")
	assert.True(t, seen[reflect.TypeFor[pathView]()], "the walk reached the views")

	// and the job the queue starts on its pool is that type
	var q PathQueue
	var j ecs.Job = &q.serving
	_, ok := j.(*pathServe)
	require.True(t, ok)
}
