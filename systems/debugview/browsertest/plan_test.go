package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/chromedp/chromedp"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// planWorld is a squad of four HTN agents patrolling: Walk (0.4 s) then Look.
func planWorld(t *testing.T) (*arche.World, *ecs.Scheduler, *debugview.Viewer, []arche.Entity) {
	t.Helper()
	w := arche.NewWorld()
	b := htn.NewBuilder("patrol")
	rounds := b.Fact("rounds")
	walk := b.Primitive("Walk", htn.Primitive{Effects: []htn.Effect{htn.Add(rounds, 1)}, Run: func(c *htn.Context) htn.Status {
		if c.Time-c.Start < 0.4 {
			return htn.Running
		}
		return htn.Success
	}})
	look := b.Primitive("Look", htn.Primitive{Run: func(*htn.Context) htn.Status { return htn.Success }})
	root := b.Compound("Root")
	b.Method(root, htn.Method{Name: "Patrol", Tasks: []htn.TaskID{walk, look}})
	b.Root(root)
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	reg := &htn.Registry{}
	id, err := reg.Add(d)
	if err != nil {
		t.Fatal(err)
	}
	arche.AddResource(&w, reg)
	squad := w.NewEntity()
	sp, err := systems.NewSpawner(&w, systems.HTNThinker{Registry: reg, Domain: id}, systems.With(components.SquadMember{Squad: squad}))
	if err != nil {
		t.Fatal(err)
	}
	var agents []arche.Entity
	for i := range 4 {
		agents = append(agents, sp.Spawn(r2.Vec{X: 2 + float64(i), Y: 3}, func(a *systems.Spawned) {
			systems.Component[components.SquadMember](a).Slot = uint8(i)
		}))
	}
	v := debugview.New()
	v.Every = 3
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.HTN{}, v)
	v.Times = s
	s.Initialize(&w)
	return &w, s, v, agents
}

// TestPlanInChromium: the selected HTN agent's plan is drawn with its current step
// highlighted, its squad listed, and its plan transitions in the log, which scrubs.
func TestPlanInChromium(t *testing.T) {
	ctx := browser(t, 60*time.Second)
	w, sched, v, agents := planWorld(t)
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				sched.Update(w)
			}
		}
	}()
	defer func() { close(stop); v.Close(); wg.Wait(); sched.Finalize(w) }()
	poll := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("%s: %s: %v", what, expr, err)
		}
	}
	eval := func(what, expr string, out any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %s: %v", what, raw, err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	poll("loaded", `window.debugview.snap !== null`)
	v.Select(agents[2].ID())
	poll("plan drawn", `document.getElementById("plan-name").textContent === "HTN patrol" && document.querySelectorAll("#plan .step").length === 2`)
	var steps []string
	eval("steps", `[...document.querySelectorAll("#plan .step .name")].map(e => e.textContent)`, &steps)
	if fmt.Sprint(steps) != "[Walk Look]" {
		t.Fatalf("plan steps %v, want [Walk Look]", steps)
	}
	poll("one current step", `document.querySelectorAll("#plan .step[data-current]").length === 1`)
	poll("the walk runs", `document.querySelector("#plan .step[data-status=running] .name") !== null`)
	poll("the squad", `document.querySelectorAll("#plan span.mate").length === 3 && document.querySelectorAll("#plan span.me").length === 1`)
	poll("plan transitions in the log", `[...document.querySelectorAll("#log div.plan")].some(e => e.textContent.includes("plan done Walk")) &&
		[...document.querySelectorAll("#log div.plan")].some(e => e.textContent.includes("plan plan: Walk → Look"))`)

	// scrubbed back, the plan shows a step of then, and later log entries are greyed
	var ok bool
	eval("scrub", `(() => { const r = document.getElementById("scrub"); r.value = 300; r.dispatchEvent(new Event("input")); return true; })()`, &ok)
	poll("greyed", `document.querySelectorAll("#log div.future").length > 0`)
	poll("a plan at that time", `document.querySelectorAll("#plan .step").length === 2 || document.getElementById("plan").textContent.includes("older than the log")`)

	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "debugview-plan.png")
	if dir := os.Getenv("DEBUGVIEW_SHOT_DIR"); dir != "" {
		out = filepath.Join(dir, "debugview-plan-test.png")
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(png))
}
