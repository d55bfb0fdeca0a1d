package save_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer kept "not evacuated yet" as NaN in a []float64 of the meta, trusting the
// package's "NaN and infinities included": the meta goes through encoding/json, which
// refuses it. Save's doc says so; this pins the error it names.
func TestSaveRefusesANaNInTheMetaWithTheDocumentedError(t *testing.T) {
	w := arche.NewWorld()
	_, err := save.Save(&w, []float64{1, math.NaN()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "save: meta: json: unsupported value: NaN")
	_, err = save.Save(&w, []float64{1, -1}) // a missing value marked otherwise
	assert.NoError(t, err)
}
