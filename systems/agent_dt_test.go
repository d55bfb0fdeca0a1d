package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestUtilityActGetsItsDT: a utility action's Act had no time step (a newcomer's
// colonist eating at a rate hard-coded its think interval); Agent.DT is the seconds
// since the agent's last decision, so an Act that sums it has summed the time of its
// last decision: with decisions every 0.1 s at 60 Hz, the first DT the seconds from
// the start to the first (staggered) decision, then 0.1 s each.
func TestUtilityActGetsItsDT(t *testing.T) {
	var sum float64
	var dts []float64
	act := func(x any) {
		a := systems.UtilityAgent(x)
		sum += a.DT
		dts = append(dts, a.DT)
	}
	r, err := utility.New("eat", utility.Policy{}, utility.Action{Name: "eat", Act: act})
	require.NoError(t, err)
	world := arche.NewWorld()
	w := &world
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 0.1})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{}, nil)
	clock := ecs.NewClockSystem(1.0 / 60)
	s := ecs.NewScheduler(clock, &systems.Utility{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 60)
	require.GreaterOrEqual(t, len(dts), 9)
	require.Positive(t, dts[0], "the first decision: the seconds since the start (Think.Last 0, a staggered first think)")
	require.LessOrEqual(t, dts[0], 0.1+1e-9)
	for _, dt := range dts[1:] {
		require.InDelta(t, 0.1, dt, 1e-9, "a decision every Interval")
	}
	require.InDelta(t, dts[0]+0.1*float64(len(dts)-1), sum, 1e-9, "the sum is the last decision's time")
}
