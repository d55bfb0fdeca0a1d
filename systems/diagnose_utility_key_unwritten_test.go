package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A utility.KeyInput reading a key nothing ever writes (a program that declares
// "threat" and forgets the system that sets it) reads NaN for every agent: in a
// product a veto, and the action is never chosen, which nothing counted (an unset key
// is a designer's veto, so utility.State has no counter for it). Diagnose reports such
// agents under blackboard_key_unwritten, as it does for a tree's input port, naming
// the key; once any agent's store of the schema has held it (now or before, unset
// since), none is reported.
func TestDiagnoseReportsAUtilityKeyNeverWritten(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	schema := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](schema, "threat")
	hunger := blackboard.MustDeclare[float64](schema, "hunger")
	r, err := utility.New("villager", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{
			{Name: "threat", Input: utility.KeyInput(threat), Range: utility.Unit}}},
		utility.Action{Name: "eat", Considerations: []utility.Consideration{
			{Name: "hunger", Input: utility.KeyInput(hunger), Range: utility.Unit}}},
		utility.Action{Name: "idle", Weight: 0.1})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Schema: schema, Interval: 0.1})
	require.NoError(t, err)
	var es []arche.Entity
	for i := range 3 {
		es = append(es, sp.Spawn(r2.Vec{X: 1 + float64(i), Y: 1}, nil))
	}
	boards := generic.NewMap[components.Blackboard](w)
	for _, e := range es {
		blackboard.Set(boards.Get(e).Store, hunger, 0.5) // hunger is written; threat never
	}
	rep := systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseBlackboardKeyUnwritten], "before the first decision: %s", rep)

	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	rep = systems.Diagnose(w)
	require.Equal(t, 3, rep.Counts[systems.CauseBlackboardKeyUnwritten], "%s", rep)
	assert.Equal(t, es[0], rep.Examples[systems.CauseBlackboardKeyUnwritten])
	assert.Contains(t, rep.String(), `blackboard_key_unwritten 3 (e.g. entity `)
	assert.Contains(t, rep.String(), `key "threat" is read and nothing writes it`)

	st := boards.Get(es[2]).Store
	blackboard.Set(st, threat, 0.2) // one agent's store has held it: a key the program writes
	blackboard.Unset(st, threat)
	rep = systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseBlackboardKeyUnwritten], "%s", rep)
}
