package blackboard

import (
	"errors"
	"testing"
)

type utf8Inner struct {
	Names map[string][]string
}

type utf8Outer struct {
	In  *utf8Inner
	Raw []byte
}

// A boxed value holding a string that is not valid UTF-8 was saved by Slots as JSON with
// U+FFFD in place of the bad bytes, and loaded changed, without an error.
func TestSlotsRefuseBoxedStringsThatAreNotUTF8(t *testing.T) {
	s := NewSchema()
	ks := MustDeclare[[]string](s, "strs")
	kn := MustDeclare[utf8Outer](s, "nested")
	st := s.NewStore()
	Set(st, ks, []string{"ok", "a\xffb"})
	_, err := st.Slots()
	if !errors.Is(err, ErrNotSavable) {
		t.Fatalf("Slots of []string{\"ok\", \"a\\xffb\"}: %v, want ErrNotSavable", err)
	}
	if want := `blackboard: key "strs" ([]string): value cannot be saved as JSON without loss: a string that is not valid UTF-8 at value[1] (JSON would load it with U+FFFD in place of its bad bytes)`; err.Error() != want {
		t.Errorf("error %q,\nwant  %q", err, want)
	}

	st = s.NewStore()
	Set(st, kn, utf8Outer{In: &utf8Inner{Names: map[string][]string{"k\xfe": {"v"}}}})
	if _, err := st.Slots(); !errors.Is(err, ErrNotSavable) {
		t.Errorf("Slots of a bad map key in a nested struct: %v, want ErrNotSavable", err)
	}

	// Valid strings and raw bytes (written as base64) save and load unchanged.
	st = s.NewStore()
	Set(st, ks, []string{"ok", "é"})
	Set(st, kn, utf8Outer{In: &utf8Inner{Names: map[string][]string{"k": {"v"}}}, Raw: []byte{0xff, 0xfe}})
	slots, err := st.Slots()
	if err != nil {
		t.Fatal(err)
	}
	back, err := s.StoreFromSlots(slots)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := Get(back, kn); string(v.Raw) != "\xff\xfe" || v.In.Names["k"][0] != "v" {
		t.Errorf("loaded %+v", v)
	}
}
