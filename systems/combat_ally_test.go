package systems_test

import (
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

// allyWorld is a unit of team 1 whose tree asks to strike *aim at every think (10
// Hz), beside an ally of team 1, a foe of team 2 (Targets, 1000 health each) and a
// bystander without a Faction (a Mover given Health), all within reach, in a world
// whose Combat allows friendly fire when ff is set.
func allyWorld(t *testing.T, aim *arche.Entity, ff bool) (w *arche.World, s *ecs.Scheduler, c *systems.Combat, unit, ally, foe, by arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w = &world
	arche.AddResource(w, grid.New(16, 16))
	tree, err := bt.Compile("strike", bt.Action("Strike", func(x *bt.Context) bt.Status {
		systems.AgentOf(x).Intent.Attack = *aim
		return bt.Running
	}))
	require.NoError(t, err)
	us, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree}, systems.Combatant{Team: 1})
	require.NoError(t, err)
	ts, err := systems.NewSpawner(w, systems.Target{Team: 1, MaxHealth: 1000})
	require.NoError(t, err)
	fs, err := systems.NewSpawner(w, systems.Target{Team: 2, MaxHealth: 1000})
	require.NoError(t, err)
	bs, err := systems.NewSpawner(w, systems.Mover{}, systems.With(components.Health{Current: 1000, Max: 1000}))
	require.NoError(t, err)
	unit = us.Spawn(r2.Vec{X: 7.5, Y: 7.5}, nil)
	ally = ts.Spawn(r2.Vec{X: 8.5, Y: 7.5}, nil)
	foe = fs.Spawn(r2.Vec{X: 7.5, Y: 8.5}, nil)
	by = bs.Spawn(r2.Vec{X: 6.5, Y: 7.5}, nil)
	c = &systems.Combat{FriendlyFire: ff}
	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, c, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{},
		&systems.Diagnostics{Every: 30, Out: io.Discard})
	require.NoError(t, s.InitializeChecked(w))
	return w, s, c, unit, ally, foe, by
}

// TestCombatRefusesStrikesOnAllies is a newcomer's silent failure: a leaf that set
// Intent.Attack to a unit of its own team took it from 100 health to 0 in 2 s, and
// Diagnose said nothing until the ally, down, went on acting. Now Combat refuses a
// strike at an agent of the attacker's team (Allies counts it; the ally keeps its
// 1000 health over 60 requests) and Diagnose names the attacker under
// attacking_ally, its note naming the target, its team and the fix. A foe and a
// bystander without a Faction are struck (10 per request, 6 requests in 0.5 s);
// with FriendlyFire the ally is struck as well and nothing is reported.
func TestCombatRefusesStrikesOnAllies(t *testing.T) {
	hp := func(w *arche.World, e arche.Entity) float64 {
		m := generic.NewMap[components.Health](w)
		return m.Get(e).Current
	}
	var aim arche.Entity
	w, s, c, unit, ally, _, _ := allyWorld(t, &aim, false)
	aim = ally
	allies := 0
	for range 360 { // 6 s: 60 thinks
		s.Update(w)
		allies += c.Allies
	}
	assert.Equal(t, 1000.0, hp(w, ally), "no strike lands on an ally")
	assert.Equal(t, 60, allies, "every request refused and counted")
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseAttackingAlly], r.String())
	assert.Equal(t, unit, r.Examples[systems.CauseAttackingAlly])
	assert.Equal(t, 1, r.Total(), "nothing else is wrong: %s", r)
	msg := r.String()
	for _, want := range []string{"attacking_ally 1", "asked to strike entity " + strconv.Itoa(int(ally.ID())) +
		" of its own team (Faction.Team 1)", "test the target's Faction", "Combat.FriendlyFire"} {
		assert.True(t, strings.Contains(msg, want), "%q lacks %q", msg, want)
	}
	assert.Equal(t, "attacking_ally", systems.CauseAttackingAlly.String())

	// the same decision turned on a foe, then on a bystander: struck, nothing reported
	for _, pick := range []int{1, 2} {
		var aim arche.Entity
		w, s, c, _, _, foe, by := allyWorld(t, &aim, false)
		aim = foe
		if pick == 2 {
			aim = by
		}
		for range 30 { // 0.5 s: thinks at frames 0, 6, ..., 24
			s.Update(w)
			assert.Zero(t, c.Allies)
		}
		assert.Equal(t, 950.0, hp(w, aim), "five strikes of 10")
		r := systems.Diagnose(w)
		assert.Zero(t, r.Total(), r.String())
	}

	// friendly fire on: the ally is struck, nothing reported
	w, s, c, _, ally, _, _ = allyWorld(t, &aim, true)
	aim = ally
	for range 30 {
		s.Update(w)
		assert.Zero(t, c.Allies)
	}
	assert.Equal(t, 950.0, hp(w, ally))
	r = systems.Diagnose(w)
	assert.Zero(t, r.Total(), r.String())
}

// A warm Combat refusing strikes on allies allocates nothing.
func TestCombatAlliesAllocateNothing(t *testing.T) {
	var aim arche.Entity
	w, s, _, _, ally, _, _ := allyWorld(t, &aim, false)
	aim = ally
	for range 60 {
		s.Update(w)
	}
	assert.Zero(t, testing.AllocsPerRun(60, func() { s.Update(w) }))
}

// Combat's saved state holds the last Update's refused strikes on allies, so a
// loaded world's Diagnose names the attacker as the unbroken run's does; an
// entry naming the zero entity is refused (ErrOutOfDomain), the Combat unchanged.
func TestCombatAlliesSurviveSaveState(t *testing.T) {
	var aim arche.Entity
	w, s, c, unit, ally, foe, _ := allyWorld(t, &aim, false)
	aim = ally
	for range 6 {
		s.Update(w)
	}
	require.Equal(t, 1, c.Allies)
	raw, err := c.SaveState()
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"allies":1`)
	aim = foe
	for range 6 { // a think on the foe: the refusal is gone
		s.Update(w)
	}
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseAttackingAlly])
	require.NoError(t, c.LoadState(raw))
	assert.Equal(t, 1, c.Allies)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseAttackingAlly], "%s", r)
	assert.Equal(t, unit, r.Examples[systems.CauseAttackingAlly])

	bad := strings.Replace(string(raw), `"allies_attacked":[[`, `"allies_attacked":[[[0,0],`, 1)
	require.NotEqual(t, string(raw), bad)
	err = c.LoadState([]byte(bad))
	require.ErrorIs(t, err, systems.ErrOutOfDomain)
	assert.Contains(t, err.Error(), "allies_attacked[0][0]")
	assert.Equal(t, 1, c.Allies)

	// an attacker listed twice (a hand-edited file) would be counted twice: refused
	i := strings.Index(string(raw), `"allies_attacked":[`) + len(`"allies_attacked":[`)
	j := strings.Index(string(raw)[i:], "]]") + i + 2
	pair := string(raw)[i:j]
	twice := strings.Replace(string(raw), `"allies":1`, `"allies":2`, 1)
	twice = strings.Replace(twice, pair, pair+","+pair, 1)
	err = c.LoadState([]byte(twice))
	require.ErrorIs(t, err, systems.ErrOutOfDomain, twice)
	assert.Contains(t, err.Error(), "want each attacker once")
	assert.Equal(t, 1, c.Allies)
}
