package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan depends on the facts its effects read as much as on those its conditions read:
// here Scout's effect derives danger from noise, and the later Decide task takes Flee
// or Idle by danger. Noise rising while Scout runs makes Flee the better plan (MTR
// [0 0] before [0 1]); the running plan must be replaced at once. Before, Plan.Reads
// held danger but not noise, so no replan was tried and the agent scouted and then
// idled through the danger.
func TestAPlanReplansWhenAFactItsEffectsReadChanges(t *testing.T) {
	for _, form := range []string{"script", "Do"} {
		t.Run(form, func(t *testing.T) {
			b := NewBuilder("scout")
			noise, danger := b.Fact("noise"), b.Fact("danger")
			var derive Effect
			if form == "script" {
				var err error
				derive, err = b.ScriptEffect("danger = noise > 5", "scout")
				require.NoError(t, err)
			} else {
				derive = Do(func(s *State) {
					s[danger] = 0
					if s[noise] > 5 {
						s[danger] = 1
					}
				}, noise)
			}
			running := func(*Context) Status { return Running }
			scout := b.Primitive("Scout", Primitive{Effects: []Effect{derive}, Run: running})
			flee := b.Primitive("Flee", Primitive{If: []Condition{Is(danger, Eq, 1)}, Run: running})
			idle := b.Primitive("Idle", Primitive{Run: running})
			decide := b.Compound("Decide")
			b.Method(decide, Method{Name: "Flee", If: []Condition{Is(danger, Eq, 1)}, Tasks: []TaskID{flee}})
			b.Method(decide, Method{Name: "Idle", Tasks: []TaskID{idle}})
			root := b.Compound("Root")
			b.Method(root, Method{Name: "Scout", Tasks: []TaskID{scout, decide}})
			b.Root(root)
			d, err := b.Build()
			require.NoError(t, err)

			var r Run
			var s State
			var p Planner
			var ctx Context
			require.Equal(t, Running, d.Tick(&r, &s, &p, &ctx))
			require.Equal(t, "Scout Idle", planNames(d, &r.Plan))
			s[noise] = 9
			require.Equal(t, Running, d.Tick(&r, &s, &p, &ctx))
			assert.Equal(t, "Scout Flee", planNames(d, &r.Plan), "the better plan replaces the running one")
			assert.Equal(t, uint32(1), r.Replaced)
		})
	}
}
