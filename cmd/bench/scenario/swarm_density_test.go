package scenario

import (
	"os"
	"strconv"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/require"
)

// TestSwarmDensity is a measuring harness, not a check: with
// ARCHAI_SWARM_DENSITY=N (agents) it runs the swarm (seed 3) for
// ARCHAI_SWARM_FRAMES frames (120 if unset) and logs every 30 frames what
// makes Steer's work per agent: the agents per open cell, separation's
// candidates per agent (the items of the hash buckets its scan reads) and
// neighbours within the separation radius (itself included), and the
// share of agents whose wall feelers are cast (Steer's nearWall test, for
// the swarm's radius and speed). Skipped without the variable:
//
//	ARCHAI_SWARM_DENSITY=10000 go test ./cmd/bench/scenario -run SwarmDensity -v
//	ARCHAI_SWARM_DENSITY=100000 ARCHAI_SWARM_FRAMES=300 go test ./cmd/bench/scenario -run SwarmDensity -v
func TestSwarmDensity(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ARCHAI_SWARM_DENSITY"))
	if n <= 0 {
		t.Skip("set ARCHAI_SWARM_DENSITY to the number of agents to measure")
	}
	frames, err := strconv.Atoi(os.Getenv("ARCHAI_SWARM_FRAMES"))
	if err != nil {
		frames = 120
	}
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: 1})
	require.NoError(t, err)
	sch := ecs.NewScheduler(s.Systems()...)
	sch.Initialize(s.World)
	t.Cleanup(func() { sch.Finalize(s.World) })
	g := s.Grid
	open := 0
	for y := range g.Height() {
		for x := range g.Width() {
			if g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				open++
			}
		}
	}
	m := swarmMotion(systems.AvoidSeparation)
	r, radius := m.SeparationRadius, m.Radius
	for f := 1; f <= frames; f++ {
		sch.Update(s.World)
		if f%30 != 0 && f != frames {
			continue
		}
		nb := ecs.Resource[systems.Neighbours](s.World)
		h := nb.Hash
		_, sorted := h.Sorted()
		var cand, near, feelers int
		for i, p := range nb.Positions {
			x0, x1, y0, y1, _ := h.Rows(p, r)
			for y := y0; y <= y1; y++ {
				lo, hi := h.RowSpan(y, x0, x1)
				cand += hi - lo
				for _, q := range sorted[lo:hi] {
					if dx, dy := p.X-q.X, p.Y-q.Y; dx*dx+dy*dy < r*r {
						near++
					}
				}
			}
			// Steer.nearWall: feelers of length max(0.5·speed, 2·radius+0.25)
			// reach a blocked cell only from a cell of clearance < length+1
			v := nb.Velocities[i]
			speed2 := v.X*v.X + v.Y*v.Y
			clear := float64(g.Clearance(g.CellAt(p)))
			if speed2 > 0 && (clear < 2*radius+0.25+1 || (clear-1)*(clear-1) < 0.25*speed2) {
				feelers++
			}
		}
		k := float64(len(nb.Positions))
		t.Logf("frame %3d: %.3f agents per open cell, %.2f candidates and %.2f in range (itself included) per agent, feelers cast by %.0f%%, %d near the goal",
			f, k/float64(open), float64(cand)/k, float64(near)/k, 100*float64(feelers)/k, s.Director.Near)
	}
}
