package systems

import (
	"reflect"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// A PathQueue initialized again on another world (a level restart) reports the
// statistics a fresh value does there: every exported count is zeroed. Overtaken,
// AStarInstead and their totals were kept from the last world. The check walks
// every exported int field, so a count added later is covered; the settings the
// user set (Budget, Workers, ...) are set alike on both values.
func TestPathQueueRestartZeroesEveryCount(t *testing.T) {
	level := func() *arche.World {
		world := arche.NewWorld()
		arche.AddResource(&world, grid.New(16, 16))
		return &world
	}
	used, w1 := &PathQueue{Budget: 500}, level()
	used.Initialize(w1)
	counts := 0
	v := reflect.ValueOf(used).Elem()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		if !v.Type().Field(i).IsExported() || name == "Budget" || name == "Workers" {
			continue
		}
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(7) // as a run on the last world leaves them
			counts++
		}
	}
	assert.GreaterOrEqual(t, counts, 20, "the counts of the doc's list")
	used.Finalize(w1)
	w2, w3 := level(), level()
	used.Initialize(w2)
	defer used.Finalize(w2)

	fresh := &PathQueue{Budget: 500}
	fresh.Initialize(w3)
	defer fresh.Finalize(w3)
	fv := reflect.ValueOf(fresh).Elem()
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		switch v.Field(i).Kind() {
		case reflect.Int, reflect.Int64:
			assert.Equal(t, fv.Field(i).Int(), v.Field(i).Int(), "%s after a level restart", v.Type().Field(i).Name)
		}
	}
}
