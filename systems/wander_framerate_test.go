package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/detmath"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// Wanderers spawned with the bundle's defaults roam alike at 30 and 240 frames a second:
// 196 of them on an open map, the mean distance from the start after 10 s within 10% (it
// was 7.1 cells at 30 Hz and 3.4 at 240 with a wander angle stepping by Jitter·dt and a seek
// that turned within the frame), and they roam (over 12 cells of 40 walked; they used to loop
// in place, 5.0 cells at 60 Hz).
func TestWanderersRoamAlikeAtAnyFrameRate(t *testing.T) {
	roam := func(hz int) float64 {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(400, 400))
		sp, err := systems.NewSpawner(w, systems.Wanderer{})
		if err != nil {
			t.Fatal(err)
		}
		sp.Seed = 11
		var es []arche.Entity
		var start []r2.Vec
		for i := range 196 {
			p := r2.Vec{X: 25.5 + float64(i%14)*25, Y: 25.5 + float64(i/14)*25}
			es = append(es, sp.Spawn(p, nil))
			start = append(start, p)
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1/float64(hz)), &systems.Spatial{}, &systems.PathQueue{},
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(w)
		defer s.Finalize(w)
		s.Run(w, 10*hz)
		pos := generic.NewMap[components.Position](w)
		sum := 0.0
		for i, e := range es {
			sum += detmath.Norm(r2.Sub(pos.Get(e).Vec, start[i]))
		}
		return sum / float64(len(es))
	}
	at30, at240 := roam(30), roam(240)
	t.Logf("mean distance from the start after 10 s: %.2f cells at 30 Hz, %.2f at 240 Hz", at30, at240)
	assert.InEpsilon(t, at30, at240, 0.10)
	assert.Greater(t, min(at30, at240), 12.0)
}
