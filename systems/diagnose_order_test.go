package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// lookers spawns two Combatants of teams 1 and 2, three cells apart in sight of
// each other, whose tree counts in *seen the thinks that see a foe.
func lookers(t *testing.T, seen *int) (*arche.World, []arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	tree, err := bt.Compile("look", bt.Action("Look", func(c *bt.Context) bt.Status {
		if systems.AgentOf(c).Perception.Visible {
			*seen++
		}
		return bt.Running
	}))
	require.NoError(t, err)
	var out []arche.Entity
	for team := uint8(1); team <= 2; team++ {
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree}, systems.Combatant{Team: team})
		require.NoError(t, err)
		out = append(out, sp.Spawn(r2.Vec{X: 2.5 + 3*float64(team), Y: 4.5}, nil))
	}
	return w, out
}

// newbie18's finding 1: Perception after the decision systems perceives nobody
// (the decision has moved every due agent's Think.Next on before Perception looks
// for the due ones), and Diagnose said "no misconfiguration". It now counts each
// such agent as perception_after_decision, naming the systems and the fix.
func TestDiagnoseReportsPerceptionAfterDecision(t *testing.T) {
	for _, after := range []bool{true, false} {
		seen := 0
		w, agents := lookers(t, &seen)
		per, dec := &systems.Perception{}, &systems.Decision{}
		list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, per, dec}
		if after {
			list = []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, dec, per}
		}
		s := ecs.NewScheduler(append(list, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})...)
		s.Initialize(w)
		r := systems.Diagnose(w)
		checked := 0
		for range 120 {
			s.Update(w)
			checked += per.Checked
		}
		if !after {
			assert.Zero(t, r.Total(), "%s", r)
			assert.Equal(t, 40, seen, "2 agents at 10 Hz for 2 s, each sees the other at every think")
			assert.Equal(t, 40, checked)
			s.Finalize(w)
			continue
		}
		assert.Zero(t, seen, "after Decision, Perception finds no agent due")
		assert.Zero(t, checked)
		assert.Equal(t, 2, r.Counts[systems.CausePerceptionAfterDecision], "%s", r)
		assert.Equal(t, agents[0], r.Examples[systems.CausePerceptionAfterDecision])
		assert.Equal(t, 2, r.Total(), "%s", r)
		assert.Equal(t, "diagnostics: 2 agents, 2 of them misconfigured (2 findings): perception_after_decision 2 "+
			"(e.g. entity 1, systems.Decision runs before systems.Perception: put Perception before the decision "+
			"systems (after Spatial))", r.String())
		d := &systems.Diagnostics{Every: 1}
		d.Initialize(w)
		d.Check(w)
		assert.Equal(t, r.String(), d.Report.String(), "the Diagnostics system reports it too")
		assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }), "the check allocates nothing")
		s.Finalize(w)
		assert.Zero(t, systems.Diagnose(w).Counts[systems.CausePerceptionAfterDecision], "a finalized schedule is no schedule")
	}
}

// A Perception between two decision systems serves the agents of the later one:
// Initialize accepts the order, and Diagnose counts only the agents of the earlier
// system that have a Perception.
func TestPerceptionBetweenDecisionSystemsServesTheLaterOne(t *testing.T) {
	seen := 0
	w, _ := lookers(t, &seen) // Brains: their Decision runs after Perception
	thinks := 0
	r, err := utility.New("watch", utility.Policy{}, utility.Action{Name: "watch", Act: func(any) { thinks++ }})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r}) // a UtilityBrain without a Perception
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
	per := &systems.Perception{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Utility{}, per, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	rep := systems.Diagnose(w)
	assert.Zero(t, rep.Total(), "%s", rep)
	s.Run(w, 120)
	assert.Equal(t, 40, seen)
	assert.Equal(t, 20, thinks)

	// a Perception on the utility agent: it is counted, the Brains are not
	sp2, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r}, systems.Combatant{Team: 3})
	require.NoError(t, err)
	e := sp2.Spawn(r2.Vec{X: 12.5, Y: 10.5}, nil)
	rep = systems.Diagnose(w)
	assert.Equal(t, 1, rep.Counts[systems.CausePerceptionAfterDecision], "%s", rep)
	assert.Equal(t, e, rep.Examples[systems.CausePerceptionAfterDecision])
	assert.Contains(t, rep.String(), fmt.Sprintf("perception_after_decision 1 (e.g. entity %d, systems.Utility runs before systems.Perception", e.ID()))
}

// newbie18's finding 8: orders that work a frame late were accepted in silence.
// Diagnose lists them as one finding, each pair in schedule order, with the
// documented order.
func TestDiagnoseReportsOrdersAFrameLate(t *testing.T) {
	const documented = " (the documented order: clock, LOD, Spatial, Perception, the decision systems, PathQueue, " +
		"Combat, FlowField, PathFollow, Steer, ORCA, Movement)"
	for _, c := range []struct {
		name  string
		order []string
		want  []string
	}{
		{"documented", []string{"lod", "spatial", "perception", "decision", "pathqueue", "combat", "flowfield", "pathfollow", "steer", "movement"}, nil},
		{"Movement before Steer", []string{"spatial", "decision", "pathqueue", "pathfollow", "movement", "steer"}, []string{"movement before steer"}},
		{"Decision last", []string{"spatial", "pathqueue", "pathfollow", "steer", "movement", "decision"}, []string{"pathfollow before decision"}},
		{"PathQueue after PathFollow: as quick, not reported", []string{"spatial", "decision", "pathfollow", "pathqueue", "steer", "movement"}, nil},
		{"FlowField after PathFollow", []string{"spatial", "decision", "pathqueue", "pathfollow", "flowfield", "steer", "movement"}, []string{"pathfollow before flowfield"}},
		{"Steer before PathFollow", []string{"spatial", "decision", "pathqueue", "flowfield", "steer", "pathfollow", "movement"}, []string{"steer before pathfollow"}},
		{"Combat before Decision, LOD last", []string{"spatial", "perception", "combat", "decision", "pathqueue", "pathfollow", "steer", "movement", "lod"},
			[]string{"perception before lod", "combat before decision", "decision before lod"}},
		{"everything backwards but the panics", []string{"lod", "spatial", "perception", "combat", "movement", "steer", "pathfollow", "flowfield", "decision"},
			[]string{"combat before decision", "movement before steer", "steer before pathfollow", "pathfollow before flowfield", "pathfollow before decision"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(16, 16))
			list := []ecs.System{ecs.NewClockSystem(1.0 / 60)}
			for _, n := range c.order {
				list = append(list, map[string]ecs.System{"lod": &systems.LOD{}, "spatial": &systems.Spatial{},
					"perception": &systems.Perception{}, "decision": &systems.Decision{}, "pathqueue": &systems.PathQueue{},
					"combat": &systems.Combat{}, "flowfield": &systems.FlowField{}, "pathfollow": &systems.PathFollow{},
					"steer": &systems.Steer{}, "movement": &systems.Movement{}}[n])
			}
			s := ecs.NewScheduler(list...)
			s.Initialize(w)
			defer s.Finalize(w)
			r := systems.Diagnose(w)
			assert.Equal(t, c.want, r.Order)
			if c.want == nil {
				assert.Zero(t, r.Total(), "%s", r)
				return
			}
			assert.Equal(t, 1, r.Total(), "one finding")
			assert.Equal(t, "diagnostics: 0 agents, none misconfigured (1 finding): systems in an order that works a frame late: "+
				joinComma(c.want)+documented, r.String())
		})
	}
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// newbie18's finding 9: an entity built by hand without a Position read "0 agents,
// 1 of them misconfigured"; a misconfigured entity without a Position is counted
// among the agents now. And no_path_queue names the system a Path needs, as
// no_decision_system does.
func TestDiagnoseWordingOfOrderAndLacks(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	e := w.NewEntity()
	ids := []arche.ID{arche.ComponentID[components.Velocity](w), arche.ComponentID[components.Kinematics](w),
		arche.ComponentID[components.Steering](w), arche.ComponentID[components.Intent](w), arche.ComponentID[components.Desired](w),
		arche.ComponentID[components.SteeringWeights](w), arche.ComponentID[components.Path](w)}
	w.Add(e, ids...)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	r := systems.Diagnose(w)
	assert.Equal(t, "diagnostics: 1 agent, 1 of them misconfigured (1 finding): steer_incomplete 1 (e.g. entity 1, lacks Position)", r.String())
	s.Finalize(w)

	// two decision components and no Position: one agent, counted once
	w.Add(e, arche.ComponentID[components.Brain](w), arche.ComponentID[components.UtilityBrain](w))
	r = systems.Diagnose(w)
	assert.Equal(t, 1, r.Agents, "%s", r)
	assert.Equal(t, 1, r.Misconfigured)

	w2, _ := lookers(t, new(int))
	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w2)
	defer s.Finalize(w2)
	assert.Equal(t, "diagnostics: 2 agents, 2 of them misconfigured (2 findings): no_path_queue 2 (e.g. entity 1, "+
		"a Path needs systems.PathQueue)", systems.Diagnose(w2).String())
}
