package save_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A wide agent settled at its goal (Desired.Mode DesiredHold, the last mode)
// saves and loads as held; the mode after it is refused with ErrDomain.
func TestDesiredHoldSavesAndLoads(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap1[components.Desired](w)
	m.NewWith(&components.Desired{Mode: components.DesiredHold})
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	q := generic.NewFilter1[components.Desired]().Query(l.World)
	require.True(t, q.Next())
	assert.Equal(t, components.DesiredHold, q.Get().Mode)
	q.Close()

	held := `"Mode":` + string(rune('0'+components.DesiredHold))
	require.Contains(t, string(data), held)
	bad := strings.Replace(string(data), held, `"Mode":`+string(rune('0'+components.DesiredHold+1)), 1)
	_, err = save.Load([]byte(bad), save.Registry{})
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "is no DesiredMode")
}
