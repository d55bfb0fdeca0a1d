package systems_test

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// attackWorld is a unit (a Combatant whose tree pursues and strikes *aim at every
// think, as a naive "foe visible" guard does) and two foes (Targets) beside it, a of
// Health 0 (down) and b alive and too tough to fall in the test, in a world with a
// Diagnostics checking every 30 frames (0.5 s).
func attackWorld(t *testing.T, aim *arche.Entity) (w *arche.World, s *ecs.Scheduler, d *systems.Diagnostics, unit, a, b arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w = &world
	arche.AddResource(w, grid.New(16, 16))
	tree, err := bt.Compile("naive", bt.Action("Attack", func(c *bt.Context) bt.Status {
		ag := systems.AgentOf(c)
		ag.Intent.Mode, ag.Intent.Target, ag.Intent.Attack = components.IntentPursue, *aim, *aim
		return bt.Running
	}))
	require.NoError(t, err)
	us, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree}, systems.Combatant{Team: 1})
	require.NoError(t, err)
	fs, err := systems.NewSpawner(w, systems.Target{Team: 2, MaxHealth: 1e9})
	require.NoError(t, err)
	unit = us.Spawn(r2.Vec{X: 7.5, Y: 7.5}, nil)
	a = fs.Spawn(r2.Vec{X: 8.5, Y: 7.5}, func(s *systems.Spawned) { s.Health.Current = 0 })
	b = fs.Spawn(r2.Vec{X: 7.5, Y: 8.5}, nil)
	d = &systems.Diagnostics{Every: 30, Out: io.Discard}
	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.Combat{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, d)
	require.NoError(t, s.InitializeChecked(w))
	return w, s, d, unit, a, b
}

// TestDiagnoseAttackingDownedTarget is a newcomer's silent failure: units whose guard
// tests only that a foe is visible attack a foe at Health 0 for good (Perception
// ignores Health, Combat refuses the strikes), and Diagnose said "no
// misconfiguration". Now a unit that has attacked a downed target for 3 s is counted
// under attacking_downed, its note naming the target, the seconds and the fix, by the
// Diagnostics system and by a Diagnose call alike; not before 2 s. One that switches
// to a live target within 2 s is not counted; nor after the switch.
func TestDiagnoseAttackingDownedTarget(t *testing.T) {
	var aim arche.Entity
	w, s, d, unit, a, _ := attackWorld(t, &aim)
	aim = a
	for range 90 { // 1.5 s
		s.Update(w)
	}
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseAttackingDowned], "not before 2 s")
	for range 90 { // 3 s
		s.Update(w)
	}
	for _, r := range []systems.Report{d.Report, systems.Diagnose(w)} {
		require.Equal(t, 1, r.Counts[systems.CauseAttackingDowned], r.String())
		assert.Equal(t, unit, r.Examples[systems.CauseAttackingDowned])
		assert.Equal(t, 1, r.Total(), "nothing else is wrong: %s", r)
		msg := r.String()
		for _, want := range []string{"attacking_downed 1", "has pursued entity " + strconv.Itoa(int(a.ID())) + " for ",
			"Health.Current ≤ 0", "test the target's Health", "Combat.Downed"} {
			assert.True(t, strings.Contains(msg, want), "%q lacks %q", msg, want)
		}
	}
	assert.Equal(t, "attacking_downed", systems.CauseAttackingDowned.String())

	// a decision that moves on: the downed foe for 1.5 s, then the live one
	var aim2 arche.Entity
	w, s, d, _, a, b := attackWorld(t, &aim2)
	aim2 = a
	for range 90 {
		s.Update(w)
	}
	aim2 = b
	for range 90 {
		s.Update(w)
	}
	r := d.Report
	assert.Zero(t, r.Total(), r.String())
	r = systems.Diagnose(w)
	assert.Zero(t, r.Total(), r.String())
	hp := generic.NewMap[components.Health](w)
	assert.Less(t, hp.Get(b).Current, 1e9, "it strikes the live foe")
}

// TestAttackingDownedSaved: a Diagnostics' state holds the evidence of attacking_downed
// (the agent, its target, since when), so a Diagnostics restored from it counts the unit
// at the check the unbroken run does (at 2 s), where one restored without it starts
// afresh; evidence naming the zero Entity is refused.
func TestAttackingDownedSaved(t *testing.T) {
	var aim arche.Entity
	w, s, d, unit, a, _ := attackWorld(t, &aim)
	aim = a
	for range 91 { // checks at frames 0, 30, 60 and 90 (the unit's first think comes after frame 0's)
		s.Update(w)
	}
	raw, err := d.SaveState()
	require.NoError(t, err)
	var st systems.DiagnosticsState
	require.NoError(t, json.Unmarshal(raw, &st))
	require.Len(t, st.AttackingDowned, 1, string(raw))
	assert.Equal(t, unit, st.AttackingDowned[0].Agent)
	assert.Equal(t, a, st.AttackingDowned[0].Target)
	for range 60 { // the unbroken run's check at frame 150, 2 s after the first that found it (frame 30)
		s.Update(w)
	}
	assert.Equal(t, 1, d.Report.Counts[systems.CauseAttackingDowned], d.Report.String())

	for _, restore := range []bool{true, false} {
		var aim2 arche.Entity
		w2, s2, d2, _, a2, _ := attackWorld(t, &aim2)
		for range 91 { // no attack yet: no evidence of its own
			s2.Update(w2)
		}
		if restore {
			require.NoError(t, d2.LoadState(raw))
		}
		aim2 = a2
		for range 60 {
			s2.Update(w2)
		}
		want := 0
		if restore {
			want = 1
		}
		assert.Equal(t, want, d2.Report.Counts[systems.CauseAttackingDowned], "restored %v: %s", restore, d2.Report.String())
		if restore {
			st.AttackingDowned[0].Agent = arche.Entity{}
			bad, err := json.Marshal(st)
			require.NoError(t, err)
			assert.ErrorIs(t, d2.LoadState(bad), systems.ErrOutOfDomain)
		}
	}
}
