package debugview

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/hybrid"
	"github.com/stretchr/testify/assert"
)

// The viewer finds a component's hybrid.TreeRuns where a program keeps them:
// embedded (examples/guardfsm's Combat), in named fields, in an array, one level of
// struct down; not behind a pointer (the component's memory is what it reads).
func TestTreeRunFieldsFindsEveryTreeRun(t *testing.T) {
	type inner struct {
		Night hybrid.TreeRun
	}
	type chores struct {
		hybrid.TreeRun
		N     int
		Trees [2]hybrid.TreeRun
		Sub   inner
		Ptr   *hybrid.TreeRun
	}
	var c chores
	fields := treeRunFields(reflect.TypeFor[chores](), 0, "chores", 4, nil)
	var names []string
	for _, f := range fields {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"chores.TreeRun", "chores.Trees[0]", "chores.Trees[1]", "chores.Sub.Night"}, names)
	base := unsafe.Pointer(&c)
	want := []*hybrid.TreeRun{&c.TreeRun, &c.Trees[0], &c.Trees[1], &c.Sub.Night}
	for i, f := range fields {
		assert.Same(t, want[i], (*hybrid.TreeRun)(unsafe.Add(base, f.Off)), names[i])
	}
	assert.Empty(t, treeRunFields(reflect.TypeFor[struct{ A, B float64 }](), 0, "x", 4, nil))
	assert.Len(t, treeRunFields(reflect.TypeFor[hybrid.TreeRun](), 0, "TreeRun", 4, nil), 1, "the component itself")
}
