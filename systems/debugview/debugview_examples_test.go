package debugview_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// The viewer added last to a world of three thinkers; the page's requests
// are made here with net/http, as the browser would: select an agent, then
// read the snapshot with its tree.
func Example() {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(16, 16))
	tree, _ := bt.Compile("idle", bt.Sequence(bt.Wait(0.5), bt.Action("stretch", func(*bt.Context) bt.Status { return bt.Success })).Named("idle"))
	thinkers, _ := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Tree: tree})
	var agents []arche.Entity
	for i := range 3 {
		agents = append(agents, thinkers.Spawn(r2.Vec{X: 2.5 + float64(i), Y: 2.5}, nil))
	}

	v := debugview.New()
	v.Speed = 0 // unpaced: as fast as it runs
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, v)
	v.Times = sched
	sched.Initialize(&world)
	defer v.Close()
	srv := httptest.NewServer(v.Handler()) // in a game: http.ListenAndServe("localhost:8080", v.Handler())
	defer srv.Close()

	resp, _ := http.PostForm(srv.URL+"/cmd", url.Values{"op": {"select"}, "id": {strconv.Itoa(int(agents[1].ID()))}})
	resp.Body.Close()
	sched.Run(&world, 12) // the selection is applied in the next Update

	resp, _ = http.Get(srv.URL + "/state")
	var s debugview.Snapshot
	json.NewDecoder(resp.Body).Decode(&s)
	resp.Body.Close()
	fmt.Printf("frame %d, %d agents, %d systems timed\n", s.Frame, s.Count, len(s.Systems))
	a := s.Selected
	fmt.Println("selected:", a.ID == agents[1].ID(), "tree:", a.Tree.Name)
	for i, n := range a.Tree.Nodes {
		fmt.Printf("  %-8s %s\n", n.Name, bt.Status(a.Tree.Status[i]))
	}
	// Output:
	// frame 11, 3 agents, 7 systems timed
	// selected: true tree: idle
	//   idle     Running
	//   Wait     Running
	//   stretch  Idle
}
