package main

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
)

// serve adds the live debugger to sched, serves its page at addr and runs
// frames until ctx is done (see debugview.Serve).
func serve(ctx context.Context, w *arche.World, sched *ecs.Scheduler, addr string, speed float64, stdout, stderr io.Writer) int {
	if !(speed >= 0 && speed <= debugview.MaxSpeed) {
		fmt.Fprintf(stderr, "swarm: -speed must be from 0 to %d\n", debugview.MaxSpeed)
		return 2
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "swarm:", err)
		return 1
	}
	frames, err := debugview.Serve(ctx, w, sched, ln, speed, func(url string) {
		fmt.Fprintf(stdout, "debugview: %s (interrupt to stop)\n", url)
	})
	if err != nil {
		fmt.Fprintln(stderr, "swarm:", err)
		return 2
	}
	fmt.Fprintf(stdout, "debugview: stopped after %d frames\n", frames)
	return 0
}
