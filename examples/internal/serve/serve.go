// Package serve is the examples' -serve flag: the live debugger on a running example.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
)

// Run adds the live debugger to sched, serves its page at addr and runs frames until
// ctx is done (see debugview.Serve), printing the page's URL and the frames run to
// stdout. It returns the example's exit code: 2 for a speed outside 0 to
// debugview.MaxSpeed, 1 if addr cannot be listened on or a system's Initialize finds a
// fault of setup (an *ecs.SetupError: a missing resource, an unusable setting), else 0.
// Errors are printed to stderr after the example's name, on one line.
func Run(name string, ctx context.Context, w *arche.World, sched *ecs.Scheduler, addr string, speed float64, stdout, stderr io.Writer) int {
	if !(speed >= 0 && speed <= debugview.MaxSpeed) {
		fmt.Fprintf(stderr, "%s: -speed must be from 0 to %d\n", name, debugview.MaxSpeed)
		return 2
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, name+":", err)
		return 1
	}
	var hosts []string // the name the page is opened at (localhost and IP addresses always pass)
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && net.ParseIP(host) == nil {
		hosts = append(hosts, host)
	}
	frames, err := debugview.Serve(ctx, w, sched, ln, speed, func(url string) {
		fmt.Fprintf(stdout, "debugview: %s (interrupt to stop)\n", url)
	}, hosts...)
	if err != nil {
		fmt.Fprintln(stderr, name+":", err)
		if _, setup := errors.AsType[*ecs.SetupError](err); setup {
			return 1
		}
		return 2
	}
	fmt.Fprintf(stdout, "debugview: stopped after %d frames\n", frames)
	return 0
}
