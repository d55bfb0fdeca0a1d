package blackboard

import (
	"reflect"
	"testing"
)

type dupNameA struct{ X []int }
type dupNameB struct{ X []int }

// DupNameA and DupNameB are exported names for the embedded types, so that their
// fields are promoted and saved by encoding/json.
type (
	DupNameA = dupNameA
	DupNameB = dupNameB
)

type dupNames struct {
	DupNameA
	DupNameB
	Y []int
}

// Finding (not fixed): encoding/json drops, without an error, every field whose JSON
// name another field at the same depth also has (two embedded structs with a field X;
// two fields tagged with one name too, which go vet reports). jsonLossOf does not see it, so Slots saves such
// a boxed value without those fields and StoreFromSlots loads them as zero values,
// with no ErrNotSavable. A fix needs jsonLossOf to resolve the visible JSON names of a
// struct as encoding/json does (dominant field by depth and tag).
func TestSlotsKeepFieldsOfTheSameJSONName(t *testing.T) {
	t.Skip("finding: fields whose JSON names collide are dropped by Slots in silence")
	s := NewSchema()
	kd := MustDeclare[dupNames](s, "dup")
	st := s.NewStore()
	d := dupNames{DupNameA{[]int{1}}, DupNameB{[]int{2}}, []int{3}}
	Set(st, kd, d)
	slots, err := st.Slots()
	if err != nil {
		return // refusing the value is a fine answer too
	}
	back, err := s.StoreFromSlots(slots)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Get(back, kd); !reflect.DeepEqual(got, d) {
		t.Errorf("saved %+v, loaded %+v", d, got)
	}
}
