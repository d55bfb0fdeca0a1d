package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
)

// serve adds the live debugger to sched, serves its page at addr and runs
// frames until ctx is done.
func serve(ctx context.Context, w *arche.World, sched *ecs.Scheduler, addr string, speed float64, stdout, stderr io.Writer) int {
	if !(speed >= 0 && speed <= debugview.MaxSpeed) {
		fmt.Fprintf(stderr, "goap: -speed must be from 0 to %d\n", debugview.MaxSpeed)
		return 2
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "goap:", err)
		return 1
	}
	v := debugview.New()
	v.Speed, v.Times = speed, sched
	sched.Add(v)
	sched.Initialize(w)
	defer sched.Finalize(w)
	srv := &http.Server{Handler: v.Handler()}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Fprintf(stdout, "debugview: http://%s/ (interrupt to stop)\n", ln.Addr())
	go func() { <-ctx.Done(); v.Close() }()
	for ctx.Err() == nil {
		sched.Update(w)
	}
	fmt.Fprintf(stdout, "debugview: stopped after %d frames\n", sched.Frames())
	return 0
}
