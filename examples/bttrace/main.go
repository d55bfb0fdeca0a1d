// Command bttrace loads a behavior tree drawn in BehaviorTree.CPP v4 XML (guard.xml),
// runs it for one guard agent on simulation time, and prints the agent's transition log
// (only the status changes, with their simulation time) and a final dump of the tree.
//
//	go run ./examples/bttrace
package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
)

//go:embed guard.xml
var guardXML []byte

// guard is the agent the leaves act on: a point on a line, for brevity.
type guard struct {
	pos, health, enemy float64
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	schema := blackboard.NewSchema()
	reg := bt.NewRegistry(schema)
	if err := register(reg); err != nil {
		return err
	}
	main, err := reg.LoadXML("guard.xml", guardXML)
	if err != nil {
		return err
	}
	tree, err := reg.Tree(main)
	if err != nil {
		return err
	}

	// One agent: its blackboard, its memory, its tracer.
	g := &guard{pos: 0, health: 100, enemy: 50}
	store := schema.NewStore()
	set(schema, store, "home", 0.0)
	set(schema, store, "waypoint", 6.0)
	set(schema, store, "ammo", 2)
	mem := tree.NewMemory()
	tracer := bt.NewTracer(tree, 0)
	ctx := &bt.Context{Agent: g, DT: 0.25, Blackboard: store}

	for tick := 1; tick <= 40; tick++ {
		ctx.Time = float64(tick) * ctx.DT
		switch tick {
		case 12:
			g.enemy = g.pos + 5 // an enemy walks into range
		case 18:
			g.enemy = 100 // and leaves
		case 22:
			g.health = 20 // hit: flee home
		}
		tracer.Tick(&mem, ctx)
	}
	fmt.Println("transition log of guard 1:")
	if err := tracer.WriteLog(os.Stdout); err != nil {
		return err
	}
	fmt.Println("\ntree at t =", ctx.Time)
	return tree.Dump(os.Stdout, &mem)
}

func set[T any](s *blackboard.Schema, st *blackboard.Store, name string, v T) {
	k, err := blackboard.Lookup[T](s, name)
	if err == nil {
		blackboard.Set(st, k, v)
	}
}

// register registers the leaves guard.xml uses, with typed ports.
func register(reg *bt.Registry) error {
	agent := func(c *bt.Context) *guard { return c.Agent.(*guard) }
	errs := []error{
		reg.RegisterCondition("HealthBelow", func(p *bt.Ports) (func(*bt.Context) bool, error) {
			th := bt.InputPort[float64](p, "threshold")
			return func(c *bt.Context) bool {
				v, _ := th.Get(c)
				return agent(c).health < v
			}, nil
		}),
		reg.RegisterCondition("EnemyWithin", func(p *bt.Ports) (func(*bt.Context) bool, error) {
			r := bt.InputPort[float64](p, "range")
			return func(c *bt.Context) bool {
				v, _ := r.Get(c)
				return math.Abs(agent(c).enemy-agent(c).pos) <= v
			}, nil
		}),
		reg.RegisterAction("Shoot", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
			in := bt.InputPort[int](p, "ammo")
			out := bt.OutputPort[int](p, "ammo")
			return func(c *bt.Context) bt.Status {
				n, ok := in.Get(c)
				if !ok || n <= 0 {
					return bt.Failure
				}
				out.Set(c, n-1)
				return bt.Success
			}, nil
		}),
		reg.RegisterAction("MoveTo", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
			goal := bt.InputPort[float64](p, "goal")
			speed := bt.InputPort[float64](p, "speed")
			return func(c *bt.Context) bt.Status {
				g, ok := goal.Get(c)
				v, _ := speed.Get(c)
				if !ok {
					return bt.Failure
				}
				a := agent(c)
				d := g - a.pos
				if math.Abs(d) <= v*c.DT {
					a.pos = g
					return bt.Success
				}
				a.pos += math.Copysign(v*c.DT, d)
				return bt.Running
			}, nil
		}),
		reg.RegisterAction("NextWaypoint", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
			in := bt.InputPort[float64](p, "waypoint")
			out := bt.OutputPort[float64](p, "waypoint")
			return func(c *bt.Context) bt.Status {
				w, _ := in.Get(c)
				out.Set(c, 6-w) // alternate between 0 and 6
				return bt.Success
			}, nil
		}),
		reg.RegisterAction("Rest", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
			return func(c *bt.Context) bt.Status {
				a := agent(c)
				if a.health += float64(20 * c.DT); a.health >= 100 {
					a.health = 100
					return bt.Success
				}
				return bt.Running
			}, nil
		}),
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
