package systems_test

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Agents are removed with world.RemoveEntity (Arche moves the archetype's last agent
// into the hole with a byte copy the collector does not see) and new ones spawned in
// their IDs, while the collector runs all the time: with the Arena holding every buffer
// the components point to, node memory, waypoints and blackboards read back as written.
// ARCHAI_LONG=1 runs it ten times longer.
func TestArenaKeepsBuffersOfMovedAgentsIntact(t *testing.T) {
	rounds := 15
	if os.Getenv("ARCHAI_LONG") != "" {
		rounds = 150
	}
	old := debug.SetGCPercent(1)
	defer debug.SetGCPercent(old)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(64, 64))
	reg := bt.NewRegistry(blackboard.NewSchema())
	num := blackboard.MustDeclare[int](reg.Schema(), "n")
	name := blackboard.MustDeclare[string](reg.Schema(), "name")
	idle := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("churn", bt.Sequence(bt.Action("a", idle), bt.Action("b", idle), bt.Action("c", idle)))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg})
	require.NoError(t, err)
	arena := systems.ArenaOf(w)
	m := generic.NewMap3[components.Brain, components.Path, components.Blackboard](w)

	fill := func(e arche.Entity, tag int) {
		b, p, bb := m.Get(e)
		for i := range b.Memory.Nodes() {
			b.Memory.Nodes()[i].Timer = float64(tag)
		}
		p.Waypoints = p.Waypoints[:0]
		for range 40 + tag%7 { // outgrows the buffer: a new array, held like the path queue does
			p.Waypoints = append(p.Waypoints, grid.Cell{X: int32(tag), Y: int32(tag)})
		}
		arena.HoldWaypoints(e, p.Waypoints)
		blackboard.Set(bb.Store, num, tag)
		blackboard.Set(bb.Store, name, fmt.Sprint("agent-", tag))
	}
	check := func(round int, e arche.Entity, tag int) {
		b, p, bb := m.Get(e)
		for i, n := range b.Memory.Nodes() {
			if n.Timer != float64(tag) {
				t.Fatalf("round %d: entity %v node %d timer %v, want %d", round, e, i, n.Timer, tag)
			}
		}
		for _, c := range p.Waypoints {
			if c.X != int32(tag) {
				t.Fatalf("round %d: entity %v waypoint %v, want %d", round, e, c, tag)
			}
		}
		if v, _ := blackboard.Get(bb.Store, num); v != tag {
			t.Fatalf("round %d: entity %v blackboard n = %d, want %d", round, e, v, tag)
		}
		if v, _ := blackboard.Get(bb.Store, name); v != fmt.Sprint("agent-", tag) {
			t.Fatalf("round %d: entity %v blackboard name = %q, want agent-%d", round, e, v, tag)
		}
	}

	const agents = 1500
	live := make([]arche.Entity, 0, agents)
	tags := map[arche.Entity]int{}
	next := 0
	spawn := func() {
		e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
		fill(e, next)
		live = append(live, e)
		tags[e] = next
		next++
	}
	for range agents {
		spawn()
	}
	done := make(chan struct{})
	go func() { // keep the collector busy
		for {
			select {
			case <-done:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer close(done)
	var garbage [][]byte
	r := uint64(11)
	for round := range rounds {
		for range 100 {
			r = r*6364136223846793005 + 1442695040888963407
			i := int(r>>33) % len(live)
			e := live[i]
			w.RemoveEntity(e)
			arena.Release(e)
			delete(tags, e)
			live[i] = live[len(live)-1]
			live = live[:len(live)-1]
			spawn()
			garbage = append(garbage, make([]byte, 512))
			if len(garbage) > 400 {
				garbage = garbage[:0]
			}
		}
		for _, e := range live {
			check(round, e, tags[e])
		}
	}
}
