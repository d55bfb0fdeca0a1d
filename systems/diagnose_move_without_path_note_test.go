package systems

import (
	"strconv"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// move_without_path explains itself: the example's Intent (its goal, or whom or
// where it pursues) and what it lacks, a Path served by PathQueue and PathFollow.
func TestDiagnoseMoveWithoutPathNamesTheGoalAndTheFix(t *testing.T) {
	const fix = " and it has no Path component on a grid with walls: PathFollow steers it in a straight line " +
		"and it stops at walls; give it a components.Path (spawn it as a systems.Mover, whose bundle has one, " +
		"or add a components.Path to it), served by systems.PathQueue and PathFollow in the schedule)"
	for _, c := range []struct {
		name   string
		intent func(target arche.Entity) components.Intent
		want   func(target arche.Entity) string
	}{
		{"go", func(arche.Entity) components.Intent {
			return components.Intent{Move: true, Goal: r2.Vec{X: 5.5, Y: 6.25}}
		}, func(arche.Entity) string { return ", Intent goes to goal (5.5, 6.25)" + fix }},
		{"pursue an entity", func(tg arche.Entity) components.Intent {
			return components.Intent{Mode: components.IntentPursue, Target: tg}
		}, func(tg arche.Entity) string { return ", Intent pursues entity " + strconv.Itoa(int(tg.ID())) + fix }},
		{"pursue a point", func(arche.Entity) components.Intent {
			return components.Intent{Mode: components.IntentPursue, Point: r2.Vec{X: 3.5, Y: 2}}
		}, func(arche.Entity) string { return ", Intent pursues point (3.5, 2)" + fix }},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, g := newWorld(10, 10)
			g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
			pretendInstalled(w, ^systemSet(0))
			target := goodAgent(t, w)
			e := goodAgent(t, w)
			drop[components.Path](w, e)
			drop[components.FlowFollower](w, e) // a Mover's kind: a FlowFollower is told otherwise (below)
			*compOf[components.Intent](w, e) = c.intent(target)
			r := Diagnose(w)
			assert.Equal(t, 1, r.Counts[CauseMoveWithoutPath], "%s", r)
			assert.Equal(t, e, r.Examples[CauseMoveWithoutPath])
			assert.Contains(t, r.String(), "move_without_path 1 (e.g. entity "+strconv.Itoa(int(e.ID()))+c.want(target))
		})
	}
}

// A FlowFollower whose decision sends it to a goal (a unit that chases) lacks a Path
// too, but cannot be spawned as a Mover beside its FlowFollower bundle (NewSpawner
// refuses two moving bundles): the note says how to add one (a newcomer's RTS).
func TestDiagnoseMoveWithoutPathOfAFlowFollowerSaysWith(t *testing.T) {
	w, g := newWorld(10, 10)
	g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
	pretendInstalled(w, ^systemSet(0))
	e := goodAgent(t, w)
	drop[components.Path](w, e)
	compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 5, Y: 6}
	*compOf[components.Intent](w, e) = components.Intent{Move: true, Goal: r2.Vec{X: 5.5, Y: 6.25}}
	r := Diagnose(w)
	assert.Equal(t, 1, r.Counts[CauseMoveWithoutPath], "%s", r)
	assert.Contains(t, r.String(), "move_without_path 1 (e.g. entity "+strconv.Itoa(int(e.ID()))+
		", Intent goes to goal (5.5, 6.25) and it has no Path component on a grid with walls: PathFollow steers it "+
		"in a straight line and it stops at walls; give it a components.Path (a FlowFollower whose decision sends it "+
		"to a goal: spawn it with systems.With(components.Path{}) beside the FlowFollower bundle), served by "+
		"systems.PathQueue and PathFollow in the schedule)")
	assert.NotContains(t, r.String(), "systems.Mover")
}
