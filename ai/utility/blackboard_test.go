package utility

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type boardAgent struct{ st *blackboard.Store }

func (a *boardAgent) BlackboardStore() *blackboard.Store { return a.st }

func TestKeyInput(t *testing.T) {
	s := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](s, "threat")
	ammo := blackboard.MustDeclare[uint8](s, "ammo")
	a := &boardAgent{st: s.NewStore()}
	in, inAmmo := KeyInput(threat), KeyInput(ammo)
	assert.True(t, math.IsNaN(in(a)), "not set")
	assert.True(t, math.IsNaN(in(&boardAgent{})), "no store")
	assert.True(t, math.IsNaN(in("not an agent")))
	blackboard.Set(a.st, threat, 0.75)
	blackboard.Set(a.st, ammo, 12)
	assert.Equal(t, 0.75, in(a))
	assert.Equal(t, 12.0, inAmmo(a))

	r, err := New("r", Policy{},
		Action{Name: "fight", Considerations: []Consideration{
			{Name: "threat", Input: in, Curve: Linear(1, 0)},
			{Name: "ammo", Input: inAmmo, Range: Range{Min: 0, Max: 20}, Curve: Linear(1, 0)},
		}},
		Action{Name: "idle", Weight: 0.2})
	require.NoError(t, err)
	st := r.NewState()
	assert.Equal(t, 0, r.Decide(a, &st, nil), "a blackboard fact drives the choice")
	blackboard.Unset(a.st, threat)
	assert.Equal(t, 1, r.Decide(a, &st, nil), "a missing key scores 0")
	allocs := testing.AllocsPerRun(100, func() { r.Decide(a, &st, nil) })
	assert.Zero(t, allocs)
}
