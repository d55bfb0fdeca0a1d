package scenario

import (
	"math"
	"regexp"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestGuardCheck(t *testing.T) {
	route := []r2.Vec{{X: 1, Y: 1}, {X: 2, Y: 2}}
	for _, tc := range []struct {
		g   Guard
		err string
	}{
		{Guard{Route: route, Waypoint: 1}, ""},
		{Guard{}, ""},
		{Guard{Route: route, Waypoint: 2}, "Guard.Waypoint: 2, outside a route of 2 waypoints"},
		{Guard{Route: route, Waypoint: -1}, "Guard.Waypoint: -1"},
		{Guard{Waypoint: 1e9}, "Guard.Waypoint: 1000000000, outside a route of 0"},
		{Guard{Home: r2.Vec{X: math.NaN()}}, "Guard.Home"},
		{Guard{Route: []r2.Vec{{X: 1}, {Y: math.Inf(1)}}}, "Guard.Route[1]"},
	} {
		err := tc.g.Check()
		if tc.err == "" {
			assert.NoError(t, err)
		} else {
			assert.ErrorContains(t, err, tc.err)
		}
	}
}

// A save whose Guard.Waypoint is past its route is refused at load, naming the entity
// and the field (it used to panic in the patrol leaf).
func TestResumeGuardsChecksGuards(t *testing.T) {
	cfg := Config{Agents: 40, Seed: 3, Workers: 1}
	s, err := NewGuards(cfg)
	require.NoError(t, err)
	sched := ecs.NewScheduler(s.Systems()...)
	sched.Initialize(s.World)
	sched.Update(s.World)
	data, err := save.Save(s.World, nil, s.SaveStates()...)
	require.NoError(t, err)
	re := regexp.MustCompile(`"Waypoint":0`)
	require.True(t, re.Match(data))
	done := false
	bad := re.ReplaceAllFunc(data, func(b []byte) []byte {
		if done {
			return b
		}
		done = true
		return []byte(`"Waypoint":1000000000`)
	})
	_, _, err = ResumeGuards(cfg, bad)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.Regexp(t, `entity \d+ .*Guard\.Waypoint: 1000000000`, err.Error())
	_, _, err = ResumeGuards(cfg, data)
	assert.NoError(t, err)
}

// MaxAgents is the exact bound: its generated map fits in grid.MaxCells, one more
// agent's does not; the constructors return the error instead of panicking in grid.New.
func TestMaxAgents(t *testing.T) {
	side := MapSizeFor(MaxAgents)
	assert.LessOrEqual(t, side*side, grid.MaxCells)
	side = MapSizeFor(MaxAgents + 1)
	assert.Greater(t, side*side, grid.MaxCells)
	assert.NoError(t, CheckAgents(MaxAgents))
	assert.ErrorContains(t, CheckAgents(MaxAgents+1), "at most 10240000 agents")
	_, err := NewGuards(Config{Agents: 20000000})
	assert.ErrorContains(t, err, "20000000 agents")
	_, err = NewSwarm(SwarmConfig{Agents: 20000000})
	assert.ErrorContains(t, err, "20000000 agents")
	_, err = NewSwarmLayout(20000000, 1, nil)
	assert.ErrorContains(t, err, "20000000 agents")
	_, _, err = ResumeGuards(Config{Agents: 20000000}, nil)
	assert.ErrorContains(t, err, "20000000 agents")
	_, _, err = ResumeSwarm(SwarmConfig{Agents: 20000000}, nil)
	assert.ErrorContains(t, err, "20000000 agents")
}
