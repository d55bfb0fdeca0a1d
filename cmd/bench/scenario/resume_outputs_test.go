package scenario

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// The gold test of save and load: a run saved mid-way and resumed in a fresh world
// goes on as the unbroken run not only in its state hash but in every system's
// observable output, compared at each frame after the load: Combat's counts and
// Downed, the casualties, the think and path counts, LOD's Counts, Perception's and
// PathFollow's counts, the flow field's Waiting and cache tick, the director's moves,
// and a Diagnostics (every 10 frames) added to both runs: its Report, Checks and lines.
// Per-frame counts are compared from the first frame after the load (they are set by
// each Update); the counts since Initialize right after the load too.

// guardOutputs is what a guard run shows a program after a frame.
func guardOutputs(s *Guards, d *systems.Diagnostics) string {
	c, dec, pq := s.Combat, s.Decision, s.PathQueue
	out := fmt.Sprintf("combat %d %d %d %d %d %v; casualties %d %d; decision %d %d %d %d; "+
		"paths %d %d %d %d %d %d %d %d %d; perception %d; stuck %d; diag %d %q",
		c.Strikes, c.TotalStrikes, c.Cooling, c.AttackersDown, c.NoClock, c.Downed,
		s.Casualties.GuardsDown, s.Casualties.IntrudersDown,
		dec.Thought, dec.Waiting, dec.TotalThought, dec.ScriptErrors,
		pq.Waiting, pq.Served, pq.Expansions, pq.Searches, pq.TotalServed, pq.TotalDropped, pq.TotalExpansions,
		pq.TotalSearches, pq.TotalRepathed, s.Perception.Checked, s.PathFollow.Stuck, d.Checks, d.Report.String())
	if s.LOD != nil {
		out += fmt.Sprintf("; lod %v", s.LOD.Counts)
	}
	return out
}

// swarmOutputs is what a swarm run shows a program after a frame.
func swarmOutputs(s *Swarm, d *systems.Diagnostics) string {
	st, _ := s.Flow.Cache.State()
	return fmt.Sprintf("director %v %d %d; flow %d tick %d fields %d; stuck %d; diag %d %q",
		s.Director.Goal, s.Director.Moves, s.Director.Near, s.Flow.Waiting, st.Tick, len(st.Entries),
		s.Follow.Stuck, d.Checks, d.Report.String())
}

// resumeGuardsWith is ResumeGuards with the extra stateful systems more, restored too;
// it returns the scenario and its schedule (with more last), initialized.
func resumeGuardsWith(t *testing.T, cfg Config, data []byte, more ...ecs.System) (*Guards, *ecs.Scheduler) {
	cfg = cfg.defaults()
	g, err := cfg.gridOrGenerated()
	require.NoError(t, err)
	world := arche.NewWorld()
	s, _, err := buildGuards(cfg, &world, g)
	require.NoError(t, err)
	l, err := save.LoadInto(data, s.Registry(), &world)
	require.NoError(t, err)
	sched := ecs.NewScheduler(append(s.Systems(), more...)...)
	sched.Initialize(&world)
	states := s.SaveStates()
	for _, m := range more {
		states = append(states, m.(save.State))
	}
	require.NoError(t, l.Restore(states...))
	return s, sched
}

func TestGuardsResumeKeepsEveryOutput(t *testing.T) {
	for _, cfg := range []Config{{Agents: 300, Seed: 7, Workers: 1, LOD: true, ThinkBudget: 6, PathBudget: 20},
		{Agents: 300, Seed: 8, Workers: 2}} {
		t.Run(fmt.Sprintf("seed %d", cfg.Seed), func(t *testing.T) {
			var outFull, outLoaded bytes.Buffer
			full, err := NewGuards(cfg)
			require.NoError(t, err)
			diag := &systems.Diagnostics{Every: 10, Out: &outFull}
			sched := ecs.NewScheduler(append(full.Systems(), diag)...)
			sched.Initialize(full.World)
			for range 150 {
				sched.Update(full.World)
			}
			data, err := save.Save(full.World, nil, append(full.SaveStates(), diag)...)
			require.NoError(t, err)

			diag2 := &systems.Diagnostics{Every: 10, Out: &outLoaded}
			s, sched2 := resumeGuardsWith(t, cfg, data, diag2)
			outFull.Reset()
			strikes := int64(0)
			for f := range 150 {
				sched.Update(full.World)
				sched2.Update(s.World)
				require.Equal(t, guardOutputs(full, diag), guardOutputs(s, diag2), "frame %d after the load", f)
				strikes += int64(full.Combat.Strikes)
			}
			require.Positive(t, strikes, "strikes after the load")
			require.Equal(t, outFull.String(), outLoaded.String(), "the Diagnostics' lines")
			require.Equal(t, systems.StateHash(full.World), systems.StateHash(s.World))
		})
	}
}

func TestSwarmResumeKeepsEveryOutput(t *testing.T) {
	for _, cfg := range []SwarmConfig{{Agents: 400, Seed: 3, Workers: 1, GoalEvery: 1, Budget: 1500},
		{Agents: 400, Seed: 4, Workers: 2, GoalEvery: 2}} {
		t.Run(fmt.Sprintf("seed %d", cfg.Seed), func(t *testing.T) {
			var outFull, outLoaded bytes.Buffer
			full, err := NewSwarm(cfg)
			require.NoError(t, err)
			diag := &systems.Diagnostics{Every: 10, Out: &outFull}
			sched := ecs.NewScheduler(append(full.Systems(), diag)...)
			sched.Initialize(full.World)
			for range 130 {
				sched.Update(full.World)
			}
			data, err := save.Save(full.World, nil, append(full.SaveStates(), diag)...)
			require.NoError(t, err)

			diag2 := &systems.Diagnostics{Every: 10, Out: &outLoaded}
			s, sched2 := resumeSwarmWith(t, cfg, data, diag2)
			outFull.Reset()
			for f := range 150 {
				sched.Update(full.World)
				sched2.Update(s.World)
				require.Equal(t, swarmOutputs(full, diag), swarmOutputs(s, diag2), "frame %d after the load", f)
			}
			require.Equal(t, outFull.String(), outLoaded.String(), "the Diagnostics' lines")
			require.Equal(t, systems.StateHash(full.World), systems.StateHash(s.World))
		})
	}
}

// resumeSwarmWith is ResumeSwarm with the extra stateful systems more (see resumeGuardsWith).
func resumeSwarmWith(t *testing.T, cfg SwarmConfig, data []byte, more ...ecs.System) (*Swarm, *ecs.Scheduler) {
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	require.NoError(t, cfg.defaults())
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g, err := generateFor(cfg.Agents, cfg.Seed)
	require.NoError(t, err)
	world := arche.NewWorld()
	s := buildSwarm(cfg, &world, g, workers, steer.Rand{}, grid.Cell{})
	l, err := save.LoadInto(data, save.Registry{}, &world)
	require.NoError(t, err)
	sched := ecs.NewScheduler(append(s.Systems(), more...)...)
	sched.Initialize(&world)
	states := s.SaveStates()
	for _, m := range more {
		states = append(states, m.(save.State))
	}
	require.NoError(t, l.Restore(states...))
	return s, sched
}
