package debugview_test

import (
	"math"
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pace is read from Viewer.Speed at Initialize; a program that sets the
// field afterwards changed nothing, silently (a new user's skirmish ran paced
// at real time though it had set Speed = 0 after Initialize). SetSpeed changes
// it from any goroutine, as the page does, and refuses a pace the page would.
func TestSetSpeedChangesThePaceAfterInitialize(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every, v.Speed = 1, 3 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(1)
	require.Equal(t, 3.0, getState(t, srv).Speed)
	tw.v.Speed = 0 // too late: read at Initialize
	tw.run(1)
	assert.Equal(t, 3.0, getState(t, srv).Speed)
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1), debugview.MaxSpeed + 1} {
		assert.False(t, tw.v.SetSpeed(bad), "%v", bad)
	}
	require.True(t, tw.v.SetSpeed(0))
	tw.run(2)
	assert.Equal(t, 0.0, getState(t, srv).Speed)
	require.True(t, tw.v.SetSpeed(debugview.MaxSpeed))
	tw.run(2)
	assert.Equal(t, float64(debugview.MaxSpeed), getState(t, srv).Speed)
}
