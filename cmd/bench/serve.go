package main

// The live debugger in the benchmark (issue 14): -serve runs the chosen
// scenario in real time until interrupted and serves systems/debugview's
// page; -debugview off|on adds the viewer to a measured run, to report its
// cost per frame.

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
)

// viewFlags are the debugger's flags.
type viewFlags struct {
	serve *string
	speed *float64
	mode  *string
}

func addViewFlags(fs *flag.FlagSet) *viewFlags {
	return &viewFlags{
		serve: fs.String("serve", "", "run the scenario in real time until interrupted and serve the live debugger at `ADDR`, host:port, e.g. localhost:8080 (default none: a measured run)"),
		speed: fs.Float64("speed", 1, "-serve: pace `X` in multiples of real time, 0 to 1000 (0: as fast as it runs; the page can change it)"),
		mode:  fs.String("debugview", "", "add the live debugger's system to the measured run, `off|on`: off (added, disabled) or on (enabled, unpaced, a snapshot every 6 frames, one agent selected); its time shows under systems (default none: no viewer)"),
	}
}

// debugviewSystem is the live debugger's system name ((*debugview.Viewer).Name), its
// key in a report's systems.
const debugviewSystem = "debugview"

// apply checks the flags and sets up cfg for -debugview.
func (f *viewFlags) apply(cfg *crowdConfig) error {
	if !(*f.speed >= 0 && *f.speed <= debugview.MaxSpeed) {
		return fmt.Errorf("-speed must be from 0 to %d, not %v", debugview.MaxSpeed, *f.speed)
	}
	switch *f.mode {
	case "":
	case "off", "on":
		if *f.serve != "" {
			return errors.New("-serve and -debugview cannot be used together: -serve adds the viewer already, and -debugview measures the viewer's cost in a timed run; drop -debugview to watch, or drop -serve to measure")
		}
		on := *f.mode == "on"
		cfg.addSystems = func(w *arche.World, s *ecs.Scheduler) {
			v := debugview.New()
			v.Speed, v.Times = 0, s
			v.SetEnabled(on)
			selectFirstThinker(w, v)
			s.Add(v)
		}
	default:
		return fmt.Errorf("-debugview must be off or on, not %q", *f.mode)
	}
	return nil
}

// selectFirstThinker selects the first agent with a behavior tree, else the
// first agent, as a page would.
func selectFirstThinker(w *arche.World, v *debugview.Viewer) {
	for _, id := range []arche.ID{arche.ComponentID[components.Brain](w), arche.ComponentID[components.Position](w)} {
		q := w.Query(arche.All(id))
		if q.Next() {
			v.Select(q.Entity().ID())
			q.Close()
			return
		}
	}
}

// serveContext is the context -serve runs under: cancelled by an interrupt.
func serveContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// runServe builds the scenario, adds the viewer and serves its page at
// addr, running frames until ctx is done. It prints the page's address.
func runServe(ctx context.Context, cfg crowdConfig, addr string, speed float64, stdout, stderr io.Writer) int {
	const dt = 1.0 / 60
	var g *grid.Grid
	if cfg.MapFile != "" {
		var err error
		if g, err = grid.LoadMap(cfg.MapFile); err != nil {
			fmt.Fprintln(stderr, "bench:", mapFileError(mapOrigin(cfg), cfg.MapFile, err))
			return 2
		}
	}
	workers := cmp.Or(cfg.Workers, runtime.GOMAXPROCS(0))
	avoid, err := systems.ParseAvoidance(cmp.Or(cfg.Avoid, "separation"))
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if cfg.Scenario == "" {
		cfg.Scenario = "guards"
	}
	if cfg.Scenario != "guards" && cfg.Scenario != "swarm" {
		fmt.Fprintf(stderr, "bench: -serve runs the guards or swarm scenario, not %q\n", cfg.Scenario)
		return 2
	}
	// A -load file is served from where it was saved: the way to watch a saved bug report.
	var sc world
	var restore func() error
	if cfg.loadData != nil {
		sc, restore, err = resumeCrowd(cfg, g, workers, avoid, dt)
	} else {
		sc, err = newCrowd(cfg, g, workers, avoid, dt)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			fmt.Fprintf(stderr, "bench: warning: %s is reachable from other machines; the page can pause the simulation and has no authentication\n", ln.Addr())
		}
	}
	w := sc.world()
	sched := ecs.NewScheduler(sc.systems()...)
	if cfg.addSystems != nil {
		cfg.addSystems(w, sched)
	}
	v := debugview.New()
	v.Speed, v.Times = speed, sched
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && net.ParseIP(host) == nil {
		v.AllowHosts = []string{host} // the name the page is opened at (localhost and IPs always pass)
	}
	sched.Add(v)
	if err := sched.InitializeChecked(w); err != nil { // a fault of setup (*ecs.SetupError)
		ln.Close()
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if restore != nil {
		if err := restore(); err != nil {
			ln.Close()
			sched.Finalize(w)
			fmt.Fprintf(stderr, "bench: %s: %v\n", cfg.LoadFile, err)
			return 1
		}
	}
	srv := &http.Server{Handler: v.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "debugview: http://%s/ (%s scenario, %d agents; interrupt to stop)\n", ln.Addr(), cmp.Or(cfg.Scenario, "guards"), cfg.Agents)
	go func() {
		<-ctx.Done()
		v.Close() // a paused Update returns
	}()
	for ctx.Err() == nil {
		sched.Update(w)
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
	sched.Finalize(w)
	fmt.Fprintf(stdout, "debugview: stopped after %d frames\n", sched.Frames())
	return 0
}
