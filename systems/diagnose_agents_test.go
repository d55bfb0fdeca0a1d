package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// DiagnoseAgents lists every agent counted under the cause asked (a newcomer
// could not tell which of their tanks a count named, the Report keeping one
// example): three of six agents with an unset goal, in query order, with the
// same report as Diagnose; another cause lists none; a cause out of range none.
func TestDiagnoseAgentsListsEveryAgentOfACause(t *testing.T) {
	w, _ := newWorld(10, 10)
	pretendInstalled(w, ^systemSet(0))
	var bad []arche.Entity
	for i := range 6 {
		e := goodAgent(t, w)
		if i%2 == 1 {
			compOf[components.Intent](w, e).Goal = r2.Vec{}
			bad = append(bad, e)
		}
	}
	agents, r := DiagnoseAgents(w, CauseGoalUnset)
	assert.Equal(t, bad, agents)
	assert.Equal(t, 3, r.Counts[CauseGoalUnset], "%s", r)
	assert.Equal(t, Diagnose(w).String(), r.String(), "the same report as Diagnose")
	assert.Nil(t, r.list, "the report keeps no pointer to the list")

	agents, r = DiagnoseAgents(w, CauseBlocked)
	assert.Empty(t, agents)
	assert.Equal(t, 3, r.Counts[CauseGoalUnset])
	agents, _ = DiagnoseAgents(w, NumCauses)
	assert.Empty(t, agents)
}
