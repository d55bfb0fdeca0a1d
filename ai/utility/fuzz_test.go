package utility_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
)

// FuzzLoadJSON: any file loads or fails with an ErrSyntax error of bounded length naming
// the file; a loaded reasoner decides without panicking, its choice an action or None.
// Run with:
//
//	go test -run XXX -fuzz FuzzLoadJSON -fuzztime 60s ./ai/utility
func FuzzLoadJSON(f *testing.F) {
	for _, p := range []string{`{}`, `{"kind": "Softmax", "temperature": 0.2, "hysteresis": 0.1}`, `{"kind": "TopN", "n": 2}`} {
		f.Add(fmt.Appendf(nil, soldierJSON, p))
	}
	f.Add([]byte(`{"name": "r", "actions": [{"name": "a", "considerations": [{"key": "ammo", "range": {"min": 5, "max": 5}, "curve": {"kind": "Normal", "k": 1e-200}}]}]}`))
	f.Add([]byte(`{"name": "r", "policy": {"kind": "Softmax", "temperature": 1e-300}, "actions": [{"name": "a", "weight": 1e300}, {"name": "b"}]}`))
	f.Add([]byte(`{"name": "r", "actions": [{"name": "a", "Name": "b"}]} }`))
	f.Fuzz(func(t *testing.T, data []byte) {
		reg, threat, ammo := loadSetup(t)
		r, err := reg.LoadJSON("f.json", data)
		if err != nil {
			if !errors.Is(err, utility.ErrSyntax) || !strings.HasPrefix(err.Error(), "utility: f.json") {
				t.Fatalf("not an ErrSyntax naming the file: %v", err)
			}
			if n := len(err.Error()); n > 1024 {
				t.Fatalf("error message of %d bytes: %.300q", n, err.Error())
			}
			return
		}
		s := r.NewState()
		src := lcg(1)
		for i := range 4 {
			a := &loadAgent{hunger: float64(i) / 3, fatigue: 0.5, dist: float64(i * 7), st: reg.Schema().NewStore()}
			blackboard.Set(a.st, threat, float32(i)/4)
			blackboard.Set(a.st, ammo, int16(i*10))
			if c := r.Decide(a, &s, &src); c < utility.None || c >= r.Len() {
				t.Fatalf("choice %d of %d actions", c, r.Len())
			}
		}
	})
}
