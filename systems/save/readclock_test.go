package save_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ReadClock returns the saved Clock without loading the world: after 90 Updates of
// 1/30 s, frame 89 at 89/30 s (the start of the last frame run), the same Clock Load
// gives; false for a world saved without a Clock; the format, version and domain
// errors of Load.
func TestReadClock(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0 / 30))
	s.Initialize(w)
	s.Run(w, 90)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	c, ok, err := save.ReadClock(data)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, int64(89), c.Frame)
	assert.Equal(t, 89.0/30, c.Time)
	assert.Equal(t, 1.0/30, c.DT)
	assert.True(t, c.Started)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	assert.Equal(t, *ecs.Resource[ecs.Clock](l.World), c, "as Load gives it")

	bare := arche.NewWorld()
	data, err = save.Save(&bare, nil)
	require.NoError(t, err)
	_, ok, err = save.ReadClock(data)
	require.NoError(t, err)
	assert.False(t, ok, "no Clock saved")

	data, err = save.Save(w, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name     string
		old, new string
		want     error
	}{
		{"format", `"format":"archai-world"`, `"format":"other"`, save.ErrFormat},
		{"version", fmt.Sprintf(`"version":%d,`, save.Version), `"version":99999,`, save.ErrVersion},
		{"frame", `"Frame":89`, `"Frame":-1`, save.ErrDomain},
		{"json", `{`, `[`, save.ErrFormat},
	} {
		bad := bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1)
		require.NotEqual(t, data, bad, tc.name)
		_, _, err := save.ReadClock(bad)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
}

// A grid without the saved run's edits is refused with an error that says how to
// rebuild it: record the edits in the meta, read them with ReadMeta.
func TestGridMismatchSaysHowToRebuild(t *testing.T) {
	world := arche.NewWorld()
	g := grid.New(8, 8)
	arche.AddResource(&world, g)
	g.SetCost(grid.Cell{X: 3, Y: 3}, grid.Blocked)
	data, err := save.Save(&world, nil)
	require.NoError(t, err)
	other := arche.NewWorld()
	arche.AddResource(&other, grid.New(8, 8))
	_, err = save.LoadInto(data, save.Registry{}, &other)
	require.ErrorIs(t, err, save.ErrGridMismatch)
	assert.ErrorContains(t, err, "record the edits in the save's meta and rebuild them from save.ReadMeta (save.ReadClock gives the saved frame)")
}
