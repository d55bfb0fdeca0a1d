package save_test

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Save refuses a world holding a value Load refuses, with Load's error (its text
// after "save: entity N" / "load: entity N (components[i])", and ErrDomain), and
// writes nothing: before, it saved the world, and the user learned at the load,
// after the game was gone. The values: a Path.State, Intent.Mode or Desired.Mode
// past its type's last constant, a Path.Next below 0, and a Checker's error.
func TestSaveRefusesWhatLoadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(w *arche.World)
		says  string
		alone func(w *arche.World, value string) // one entity with only that component, the value set ("": in domain)
		field string                             // as the file writes it
		value string
		ok    string // the field's value in domain in the file ("": 0)
	}{
		{"path next", func(w *arche.World) { first[components.Path](w).Next = -1 }, "components.Path.Next: -1, a waypoint index below 0",
			func(w *arche.World, v string) {
				alone(w, func(p *components.Path) { p.Next = map[string]int{"": 777, "-1": -1}[v] })
			}, `"Next"`, "-1", "777"},
		{"path state", func(w *arche.World) { first[components.Path](w).State = components.PathUnreachable + 1 }, "components.Path.State: 4 is no PathState",
			func(w *arche.World, v string) {
				alone(w, func(p *components.Path) { p.State = map[string]components.PathState{"": 0, "4": 4}[v] })
			}, `"State"`, "4", ""},
		{"intent mode", func(w *arche.World) { first[components.Intent](w).Mode = components.IntentEvade + 1 }, "components.Intent.Mode: 4 is no IntentMode",
			func(w *arche.World, v string) {
				alone(w, func(in *components.Intent) { in.Mode = map[string]components.IntentMode{"": 0, "4": 4}[v] })
			}, `"Mode"`, "4", ""},
		{"desired mode", func(w *arche.World) { first[components.Desired](w).Mode = 255 }, "components.Desired.Mode: 255 is no DesiredMode",
			func(w *arche.World, v string) {
				alone(w, func(d *components.Desired) { d.Mode = map[string]components.DesiredMode{"": 0, "255": 255}[v] })
			}, `"Mode"`, "255", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			good, err := save.Save(f.w, nil)
			require.NoError(t, err)
			_, err = save.Load(good, f.reg)
			require.NoError(t, err)

			tc.spoil(f.w)
			before := systems.StateHash(f.w)
			data, err := save.Save(f.w, nil)
			assert.Nil(t, data, "nothing written")
			require.ErrorIs(t, err, save.ErrDomain)
			assert.Equal(t, before, systems.StateHash(f.w), "the world is unchanged")
			saveSays := fieldPart(t, err.Error())
			assert.Contains(t, saveSays, tc.says)

			// the file Save would have written, made by hand: Load's error is the same
			one := arche.NewWorld()
			tc.alone(&one, "")
			good, err = save.Save(&one, nil)
			require.NoError(t, err)
			bad := bytes.Replace(good, []byte(tc.field+":"+cmp.Or(tc.ok, "0")), []byte(tc.field+":"+tc.value), 1)
			require.NotEqual(t, good, bad)
			_, err = save.Load(bad, save.Registry{})
			require.ErrorIs(t, err, save.ErrDomain)
			assert.Equal(t, saveSays, fieldPart(t, err.Error()), "the same message")
			tc.alone(&one, tc.value)
			_, err = save.Save(&one, nil)
			assert.Equal(t, saveSays, fieldPart(t, err.Error()))
		})
	}
}

// first returns the first entity's C in query order.
func first[C any](w *arche.World) *C {
	q := generic.NewFilter1[C]().Query(w)
	q.Next()
	c := q.Get()
	q.Close()
	return c
}

// fieldPart returns error text s from the component's name on (after "save: entity
// N: " or "load: entity N (components[i]): ").
func fieldPart(t *testing.T, s string) string {
	t.Helper()
	i := strings.Index(s, "components.")
	require.GreaterOrEqual(t, i, 0, "%q", s)
	return s[i:]
}

// alone makes w hold one entity (its first), with a C only, set by set; on a world
// that has it, it sets it again.
func alone[C any](w *arche.World, set func(*C)) {
	m := generic.NewMap1[C](w)
	q := generic.NewFilter1[C]().Query(w)
	if q.Next() {
		set(q.Get())
		q.Close()
		return
	}
	set(m.Get(m.New()))
}

// Save calls a component's Checker too, as Load does: a route past its stops is
// refused at the save.
func TestSaveCallsChecker(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap1[route](w)
	e := m.New()
	m.Get(e).Stops = []float64{1, 2}
	_, err := save.Save(w, nil)
	require.NoError(t, err)
	m.Get(e).Next = 2
	data, err := save.Save(w, nil)
	assert.Nil(t, data)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.EqualError(t, err, fmt.Sprintf("save: entity 1: save_test.route: %v: route.Next: 2 of 2 stops", save.ErrDomain))
}
