package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestResolveOneMemo: resolveOne with a goal memo carried from agent to
// agent resolves every combination of Goal, Active and Has, against goals
// whose fields are complete or not (or absent), as the rule written out
// (resolveRule, resolveOne before the memo) does: the same field, switch
// and FlowFollower, whatever agent came before.
func TestResolveOneMemo(t *testing.T) {
	g0, g1, g2 := grid.Cell{X: 1, Y: 1}, grid.Cell{X: 5, Y: 2}, grid.Cell{X: 7, Y: 7} // g2: not in ref
	cells := []grid.Cell{g0, g1, g2}
	s := &FlowField{grid: grid.New(10, 10), farCells: 1 << 20}
	var agents []components.FlowFollower
	for _, goal := range cells {
		for _, active := range cells {
			for _, has := range []bool{false, true} {
				agents = append(agents, components.FlowFollower{Goal: goal, Active: active, Has: has, Cell: noCell})
			}
		}
	}
	for _, done := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		s.ref = []goalRef{{goal: g0, done: done[0]}, {goal: g1, done: done[1]}}
		for _, write := range []bool{false, true} {
			// each agent after each other one, so that the memo comes from any of them
			for _, first := range agents {
				for _, a := range agents {
					var m goalMemo
					prev := first
					var jb flowJob
					s.resolveOne(&prev, r2.Vec{X: 3.5, Y: 3.5}, &jb, make([]int, 2), write, &m, false)
					got, want := a, a
					cntGot, cntWant := make([]int, 2), make([]int, 2)
					var jbGot, jbWant flowJob
					okGot := s.resolveOne(&got, r2.Vec{X: 3.5, Y: 3.5}, &jbGot, cntGot, write, &m, false)
					okWant := resolveRule(s, &want, r2.Vec{X: 3.5, Y: 3.5}, &jbWant, cntWant, write)
					require.Equal(t, okWant, okGot, "ref %v, write %v, after %+v: %+v", done, write, first, a)
					require.Equal(t, want, got, "ref %v, write %v, after %+v: %+v", done, write, first, a)
					require.Equal(t, jbWant, jbGot, "ref %v, write %v, after %+v: %+v", done, write, first, a)
					require.Equal(t, cntWant, cntGot, "ref %v, write %v, after %+v: %+v", done, write, first, a)
				}
			}
		}
	}
}

// resolveRule is resolveOne as it was written before the memo.
func resolveRule(s *FlowField, ff *components.FlowFollower, p r2.Vec, jb *flowJob, cnt []int, write bool) bool {
	want := s.refIndex(ff.Goal)
	switched := false
	if want >= 0 && s.ref[want].done && (!ff.Has || ff.Active != ff.Goal) {
		if !write {
			return false
		}
		ff.Active, ff.Has, ff.Cell, ff.Arrived = ff.Goal, true, noCell, false
		switched = true
	}
	gi := -1
	switch {
	case ff.Has && ff.Active == ff.Goal:
		gi = want
	case ff.Has:
		gi = s.refIndex(ff.Active)
	}
	jb.goal, jb.state = -1, 0
	if switched { // (since the arrival keep) noted for Work
		jb.state = jobSwitched
	}
	if ff.Arrived {
		jb.state |= jobArrived
	}
	if gi >= 0 && s.ref[gi].done {
		jb.goal = int32(gi)
		cnt[gi]++
		if cell := s.grid.CellAt(p); cell != ff.Cell {
			jb.state |= jobMoved
		}
	} else if ff.Steer || ff.Arrived || ff.Cell != noCell {
		jb.state |= jobMoved
	}
	return true
}
