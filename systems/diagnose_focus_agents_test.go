package systems

import (
	"math"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer's colony run with no colonist and no wolf reported "diagnostics: 1
// agent, no misconfiguration": its camera (a Position and a LOD Focus) was counted as
// an agent. A focus point with no archai component besides its Position is no agent
// now, unless misconfigured (a NaN Position: CausePosition, and then counted so that
// Misconfigured ≤ Agents); a Focus on an agent (a player that moves) counts, as does an
// entity with a Position and only the program's own components.
func TestDiagnoseDoesNotCountACameraAsAnAgent(t *testing.T) {
	w, _ := newWorld(16, 16)
	cam := w.NewEntity()
	put(w, cam, components.Position{Vec: r2.Vec{X: 3, Y: 3}})
	put(w, cam, components.Focus{})
	r := Diagnose(w)
	assert.Equal(t, 0, r.Agents)
	assert.True(t, strings.HasPrefix(r.String(), "diagnostics: 0 agents, no misconfiguration"), r.String())

	goodAgent(t, w)
	assert.Equal(t, 1, Diagnose(w).Agents, "the agent, not the camera")

	player := w.NewEntity() // a focus point that moves: an agent
	put(w, player, components.Position{Vec: r2.Vec{X: 4, Y: 4}})
	put(w, player, components.Focus{})
	put(w, player, components.Velocity{})
	assert.Equal(t, 2, Diagnose(w).Agents)
	other := w.NewEntity() // a Focus with a Faction: an agent others perceive
	put(w, other, components.Position{Vec: r2.Vec{X: 5, Y: 5}})
	put(w, other, components.Focus{})
	put(w, other, components.Faction{Team: 2})
	assert.Equal(t, 3, Diagnose(w).Agents)
	mine := w.NewEntity() // a Position and the program's own component: counted
	put(w, mine, components.Position{Vec: r2.Vec{X: 6, Y: 6}})
	put(w, mine, ownThing{})
	assert.Equal(t, 4, Diagnose(w).Agents)

	compOf[components.Position](w, cam).Vec = r2.Vec{X: math.NaN(), Y: 3}
	r = Diagnose(w)
	assert.Equal(t, 1, r.Counts[CausePosition])
	assert.Equal(t, cam, r.Examples[CausePosition])
	assert.Equal(t, 5, r.Agents, "the misconfigured camera is counted")
	assert.Equal(t, 1, r.Misconfigured)
	require.LessOrEqual(t, r.Misconfigured, r.Agents)
}

// ownThing is a component of the program's own.
type ownThing struct{ N int }
