package systems

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A negative PathQueue.Budget is the default budget, not "no limit" as a negative
// Decision.Budget is: the field's doc said "DefaultPathBudget if zero" only.
func TestPathQueueNegativeBudgetIsTheDefault(t *testing.T) {
	w, _ := newWorld(8, 8)
	pq := &PathQueue{Budget: -1}
	pq.Initialize(w)
	assert.Equal(t, DefaultPathBudget, pq.Budget)
	pq.Finalize(w)
}
