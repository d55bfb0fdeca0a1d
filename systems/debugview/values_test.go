package debugview_test

import (
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// villager is a program's own component, the kind the page has no panel of.
type villager struct {
	Hunger    float64
	Name      string
	Inventory []int
	Log       []string
	mood      int
	Home      *[2]int
	Sick      bool
}

// tagged is a component without data.
type tagged struct{}

// ring is a component that points to itself.
type ring struct {
	Next *ring
	Any  any
}

// TestSelectedAgentShowsTheProgramsOwnComponents (newbie23): the page lists
// the program's components by name and now also shows their values, so a user
// can see why a villager eats: fields by name (unexported too), short slices
// element by element, long ones by length, pointers followed, NaN as NaN; a
// tag as {}; archai's own components (shown in their panels) are not listed
// again; a long value is cut.
func TestSelectedAgentShowsTheProgramsOwnComponents(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	e := tw.agents[0]
	// What the components point to is also held here, to the end: Arche
	// v0.15.3 moves components with a byte copy the collector does not see
	// (README, "Removing agents"), and the Assigns below move the agents,
	// so a buffer referenced only from a component could be freed under a
	// collection running meanwhile (CI saw Inventory read back as garbage).
	home := [2]int{3, 4}
	inventory, log, long := []int{1, 2}, make([]string, 9), strings.Repeat("x", 500)
	r := &ring{Any: 7}
	r.Next = r
	defer runtime.KeepAlive([]any{&home, inventory, log, long, r})
	villagers, tags := generic.NewMap1[villager](tw.w), generic.NewMap1[tagged](tw.w)
	villagers.Assign(e, &villager{Hunger: 42.5, Name: "Ada", Inventory: inventory, Log: log, mood: -1, Home: &home})
	tags.Assign(e, &tagged{})
	other := tw.agents[1]
	villagers.Assign(other, &villager{Hunger: math.NaN(), Name: long})
	rings := generic.NewMap1[ring](tw.w)
	rings.Assign(tw.agents[1], r)
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	for _, c := range []struct {
		e    arche.Entity
		want map[string]string
	}{
		{e, map[string]string{
			"villager": `{Hunger: 42.5, Name: "Ada", Inventory: [1 2], Log: [9 items], mood: -1, Home: &[3 4], Sick: false}`,
			"tagged":   "{}",
		}},
		{other, map[string]string{
			// a long field is cut alone (to 80 bytes): the fields after it show
			"villager": `{Hunger: NaN, Name: "` + strings.Repeat("x", 80-1-3) + `..., Inventory: nil, Log: nil, mood: 0, Home: nil, Sick: false}`,
			"ring":     "{Next: &{Next: ..., Any: 7}, Any: 7}",
		}},
	} {
		code, body := post(t, srv, url.Values{"op": {"select"}, "id": {strconv.Itoa(int(c.e.ID()))}})
		require.Equal(t, http.StatusAccepted, code, body)
		tw.run(2)
		a := getState(t, srv).Selected
		require.NotNil(t, a)
		got := map[string]string{}
		for _, kv := range a.Values {
			got[kv.Key] = kv.Value
		}
		require.Equal(t, c.want, got)
	}
}
