package save_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A loaded tree's registered leaves are dumped by their registered type (TargetSeen
// "sees thief", Patrol), where Dump wrote their kind before (Condition "sees thief",
// Action "Patrol"); the fingerprint a save records still hashes the old form, so a file
// written before the change (its fingerprint built here from the old dump's text) loads
// against the same tree, as does one written now, and another tree is still refused.
func TestSaveFromBeforeLeafTypesLoads(t *testing.T) {
	load := func(leaf string) (*bt.Tree, *bt.Registry) {
		reg := bt.NewRegistry(blackboard.NewSchema())
		require.NoError(t, reg.RegisterCondition("TargetSeen", func(*bt.Ports) (func(*bt.Context) bool, error) {
			return func(*bt.Context) bool { return false }, nil
		}))
		for _, a := range []string{"Patrol", "Wander"} {
			require.NoError(t, reg.RegisterAction(a, func(*bt.Ports) (func(*bt.Context) bt.Status, error) {
				return func(*bt.Context) bt.Status { return bt.Running }, nil
			}))
		}
		id, err := reg.LoadXML("guard.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="Guard"><Fallback>
  <TargetSeen name="sees thief"/><`+leaf+`/></Fallback></BehaviorTree></root>`))
		require.NoError(t, err)
		tree, err := reg.Tree(id)
		require.NoError(t, err)
		return tree, reg
	}
	tree, btReg := load("Patrol")
	schema := btReg.Schema()
	var dump strings.Builder
	require.NoError(t, tree.Dump(&dump, nil))
	assert.Equal(t, "Fallback\n├── TargetSeen \"sees thief\"\n└── Patrol\n", dump.String())

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	arche.AddResource(w, &ecs.Clock{DT: 1.0 / 30})
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: btReg})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	sp.Spawn(r2.Vec{X: 3.5, Y: 1.5}, nil)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	now := treePrintOf(t, data, "Guard")

	h := fnv.New64a()
	h.Write([]byte("Fallback\n├── Condition \"sees thief\"\n└── Action \"Patrol\"\n")) // Dump's text before
	before := fmt.Sprintf("fnv1a64:%016x", h.Sum64())
	assert.Equal(t, before, now, "the fingerprint is the one files from before the change hold")
	old := bytes.Replace(data, []byte(now), []byte(before), 1)

	reg := save.Registry{Trees: []*bt.Tree{tree}, Schema: schema}
	for name, file := range map[string][]byte{"written now": data, "written before": old} {
		_, err := save.LoadInto(file, reg, worldWith(grid.New(8, 8)))
		assert.NoError(t, err, name)
	}

	other, _ := load("Wander") // another leaf: still refused
	_, err = save.LoadInto(data, save.Registry{Trees: []*bt.Tree{other}, Schema: schema}, worldWith(grid.New(8, 8)))
	assert.ErrorIs(t, err, save.ErrDuplicateID)
}

// treePrintOf returns the fingerprint a save file records for the tree id.
func treePrintOf(t *testing.T, data []byte, id string) string {
	var doc struct {
		Definitions struct{ Trees map[string]string }
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.Contains(t, doc.Definitions.Trees, id)
	return doc.Definitions.Trees[id]
}
