package blackboard_test

import (
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
)

type fuzzMode int8

type fuzzVec struct {
	X, Y float64
	On   bool
}

// fuzzSchema declares a key of every storage class and awkward shape.
func fuzzSchema() *blackboard.Schema {
	s := blackboard.NewSchema()
	blackboard.MustDeclare[bool](s, "b")
	blackboard.MustDeclare[int8](s, "i8")
	blackboard.MustDeclare[fuzzMode](s, "mode")
	blackboard.MustDeclare[float64](s, "f")
	blackboard.MustDeclare[fuzzVec](s, "v")
	blackboard.MustDeclare[[8]uint64](s, "big")
	blackboard.MustDeclare[string](s, "s")
	blackboard.MustDeclare[[]int](s, "list")
	blackboard.MustDeclare[map[string]fuzzVec](s, "m")
	blackboard.MustDeclare[*fuzzVec](s, "p")
	return s
}

// FuzzStoreFromSlots: the "blackboard" section of a save file, as JSON slots, loads into
// a store or fails with an error; it never panics, and a store it loads saves again to
// slots that load to the same slots.
func FuzzStoreFromSlots(f *testing.F) {
	for _, seed := range []string{
		`[]`, `[{"key":"b","set":true,"words":[1]}]`, `[{"key":"b","set":true,"words":[2]}]`,
		`[{"key":"v","set":true,"seq":3,"words":[0,4607182418800017408,1]}]`,
		`[{"key":"v","set":true,"words":[0,0,2]}]`, `[{"key":"big","set":true,"words":[1,2,3,4,5,6,7,8]}]`,
		`[{"key":"s","set":true,"str":"hi"},{"key":"list","set":true,"value":[1,2]}]`,
		`[{"key":"m","set":true,"value":{"a":{"X":1,"Y":2,"On":true}}}]`, `[{"key":"p","set":true,"value":null}]`,
		`[{"key":"list","set":true,"value":"x"}]`, `[{"key":"f","seq":18446744073709551615}]`,
		`[{"key":"f","set":false,"words":[1]}]`, `[{"key":"s","set":true},{"key":"s","set":true}]`,
		`[{"key":"nope","set":true}]`, `[{"key":"i8","set":true,"words":[255,0]}]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var slots []blackboard.Slot
		if json.Unmarshal(data, &slots) != nil {
			return
		}
		s := fuzzSchema()
		st, err := s.StoreFromSlots(slots)
		if err != nil {
			return
		}
		again, err := st.Slots()
		if err != nil {
			t.Fatalf("loaded %s, cannot save it: %v", data, err)
		}
		st2, err := s.StoreFromSlots(again)
		if err != nil {
			t.Fatalf("saved %+v, cannot load it: %v", again, err)
		}
		third, err := st2.Slots()
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(again)
		b, _ := json.Marshal(third)
		if string(a) != string(b) {
			t.Fatalf("round trip changed the slots:\n%s\n%s", a, b)
		}
	})
}
