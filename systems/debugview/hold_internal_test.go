package debugview

import (
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A snapshot that met a reader (the swap is skipped rather than making the simulation
// wait) is published while paused once the reader is done, not only at the next
// command: the page of a paused run shows the frame a step ran.
func TestPausedViewerPublishesASnapshotThatMetAReader(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	v := New()
	v.Every = 1000 // no snapshot by cadence: only pause and step make them
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), v)
	sched.Initialize(w)
	defer v.Close()
	frame := func() int64 {
		v.mu.Lock()
		defer v.mu.Unlock()
		return v.front.Frame
	}
	published := func() bool {
		v.mu.Lock()
		defer v.mu.Unlock()
		return v.front.Paused
	}
	done, stop := make(chan struct{}), make(chan struct{})
	go func() { // the simulation goroutine, blocked in Update while paused
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				sched.Update(w)
			}
		}
	}()
	v.cmds <- command{op: opPause}
	require.Eventually(t, published, 5*time.Second, time.Millisecond, "the paused frame reaches the page")
	paused := frame()
	v.mu.Lock() // a reader holds the front snapshot while the step runs
	v.cmds <- command{op: opStep}
	time.Sleep(20 * time.Millisecond)
	v.mu.Unlock()
	assert.Eventually(t, func() bool { return frame() == paused+1 }, 5*time.Second, time.Millisecond, "the stepped frame reaches the page")
	close(stop)
	v.Close()
	<-done
}
