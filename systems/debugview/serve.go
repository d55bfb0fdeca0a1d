package debugview

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// Serve is the whole loop of a program that only wants to watch its world: it adds a
// [Viewer] (with Speed speed, multiples of real time, 0 unpaced) to sched, initializes
// sched on w, serves the viewer's page on ln and runs frames until ctx is done (a paused
// viewer is released then), finalizing sched and closing the server before it returns.
// Once the page is served it calls announce, if not nil, with its URL. It returns the
// number of frames run. hosts are the names besides localhost and IP addresses the page
// may be opened at ([Viewer.AllowHosts]: the name of addr in "-serve mypc.lan:8080").
//
// Errors: a speed outside 0 to [MaxSpeed] (NaN included), before anything is added or
// served; a fault of setup found by a system's Initialize (an *[ecs.SetupError], as
// [ecs.Scheduler.InitializeChecked] returns it: the systems are finalized again, the
// viewer stays added to sched, nothing is served). ln is closed on every error.
func Serve(ctx context.Context, w *arche.World, sched *ecs.Scheduler, ln net.Listener, speed float64, announce func(url string), hosts ...string) (int, error) {
	if !(speed >= 0 && speed <= MaxSpeed) {
		ln.Close()
		return 0, fmt.Errorf("debugview: speed %v: want 0 (unpaced) to %d", speed, MaxSpeed)
	}
	v := New()
	v.Speed, v.Times, v.AllowHosts = speed, sched, hosts
	sched.Add(v)
	if err := sched.InitializeChecked(w); err != nil {
		ln.Close()
		return 0, err
	}
	srv := &http.Server{Handler: v.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	if announce != nil {
		announce(fmt.Sprintf("http://%s/", ln.Addr()))
	}
	stop := context.AfterFunc(ctx, v.Close)
	defer stop()
	for ctx.Err() == nil {
		sched.Update(w)
	}
	srv.Close()
	sched.Finalize(w)
	return sched.Frames(), nil
}
