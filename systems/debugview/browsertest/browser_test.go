package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/chromedp/chromedp"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// chromium returns the browser to run, or skips the test (fails under
// CI=true) when there is none.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ARCHAI_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium found (chromium, chromium-browser, google-chrome or headless-shell on the PATH, or ARCHAI_CHROMIUM): install Debian's chromium package to run the browser test"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// browser starts a headless Chromium and returns its context.
func browser(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // CI containers run as root
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 800),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelCtx := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser; it lives as long as bctx
		cancelCtx()
		cancelAlloc()
		t.Fatalf("start %s: %v", chromium(t), err)
	}
	ctx, cancelTime := context.WithTimeout(bctx, timeout)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	return ctx
}

// world is a 32×32 map with a wall, and 20 agents of two teams that walk
// around it, each thinking with a tree whose statuses change every few
// tenths of a second.
func world(t *testing.T) (*arche.World, *ecs.Scheduler, *debugview.Viewer, []arche.Entity) {
	t.Helper()
	w := arche.NewWorld()
	g := grid.New(32, 32)
	for y := int32(0); y < 26; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	for x := int32(2); x < 10; x++ {
		g.SetCost(grid.Cell{X: x, Y: 29}, 3)
	}
	arche.AddResource(&w, g)
	tree, err := bt.Compile("patrol", bt.Sequence(bt.Wait(0.3), bt.Action("look", func(*bt.Context) bt.Status { return bt.Success }), bt.Wait(0.2)).Named("patrol"))
	if err != nil {
		t.Fatal(err)
	}
	var agents []arche.Entity
	for team := range uint8(2) {
		sp, err := systems.NewSpawner(&w, systems.Mover{Motion: systems.Motion{MaxSpeed: 1}}, systems.Thinker{Tree: tree},
			systems.Combatant{Team: team, SightRange: 6, FieldOfView: 2})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 10 {
			x := 3.5 + float64(i%5)*2
			if team == 1 {
				x += 17
			}
			agents = append(agents, sp.Spawn(r2.Vec{X: x, Y: 4.5 + float64(i/5)*3}, func(a *systems.Spawned) {
				a.MoveTo(r2.Vec{X: 33 - x, Y: 27.5})
			}))
		}
	}
	v := debugview.New()
	v.Every = 3
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.Combat{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, v)
	v.Times = s
	s.Initialize(&w)
	return &w, s, v, agents
}

func TestPageInChromium(t *testing.T) {
	ctx := browser(t, 90*time.Second)
	w, sched, v, agents := world(t)
	srv := httptest.NewServer(v.Handler()) // 127.0.0.1, a free port
	defer srv.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // the simulation goroutine, in real time
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

	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	poll := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			// what the page held, to tell why
			state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const s = window.debugview.snap; if (!s) return "no snapshot"; const a = s.selected; return JSON.stringify({frame: s.frame, time: s.time, paused: s.paused, selected: a && a.id, tree: a && a.tree && a.tree.status, log: a && a.log, logDivs: document.querySelectorAll("#log div").length}); })()`))
			t.Fatalf("%s: %s: %v\npage: %s", what, expr, err, state)
		}
	}
	text := func(id string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID(id)))
		if err != nil {
			t.Fatalf("read #%s: %v", id, err)
		}
		return s
	}
	eval := func(what, expr string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if out != nil {
			if err := json.Unmarshal(v, out); err != nil {
				t.Fatalf("%s: %s: %v", what, v, err)
			}
		}
	}

	// the page loads, draws the map and every agent
	run("load", chromedp.Navigate(srv.URL+"/"))
	poll("map and agents drawn", `window.debugview.mapCanvas !== null && document.getElementById("map").dataset.agents === "20"`)
	var colours int
	eval("count colours", `(() => {
		const c = document.getElementById("map"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		const seen = new Set();
		for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
		return seen.size;
	})()`, &colours)
	if colours < 5 { // background, open ground, wall, costly ground, two teams
		t.Fatalf("the map canvas shows %d colours; want the map's and the agents'", colours)
	}

	// pause, so the agent stays under the pointer, then click it
	run("pause", chromedp.Click(chromedp.ID("pause")))
	poll("paused", `window.debugview.snap.paused === true`)
	target := agents[3]
	var at []float64
	eval("agent on screen", fmt.Sprintf(`(() => {
		const p = window.debugview.agentScreen(%d), r = document.getElementById("map").getBoundingClientRect();
		return [r.left + p[0], r.top + p[1]];
	})()`, target.ID()), &at)
	run("click the agent", chromedp.MouseClickXY(at[0], at[1]))
	poll("selected", fmt.Sprintf(`window.debugview.snap.selected !== null && window.debugview.snap.selected.id === %d`, target.ID()))
	poll("tree drawn", `document.querySelectorAll("#tree .node").length === 4`)
	var names []string
	eval("node names", `[...document.querySelectorAll("#tree .node .name")].map(e => e.textContent)`, &names)
	if fmt.Sprint(names) != "[patrol Wait look Wait]" {
		t.Fatalf("tree nodes %v, want [patrol Wait look Wait]", names)
	}

	// running, the first Wait's status changes: Running, then Success, then Running again
	run("resume", chromedp.Click(chromedp.ID("resume")))
	eval("watch statuses", `(() => {
		window.seen = [];
		const node = document.getElementById("node-1");
		const look = () => { const s = node.dataset.status; if (window.seen[window.seen.length - 1] !== s) window.seen.push(s); };
		look(); new MutationObserver(look).observe(node, { attributes: true });
		return true;
	})()`, nil)
	poll("the Wait ran, succeeded and ran again", `(() => { const s = window.seen.join(" "); return s.includes("Running Success Running") || s.includes("Success Running Success"); })()`)

	// pause stops the frame counter; step advances it by one
	run("pause again", chromedp.Click(chromedp.ID("pause")))
	poll("paused again", `window.debugview.snap.paused === true`)
	frame := text("frame")
	time.Sleep(300 * time.Millisecond)
	if f := text("frame"); f != frame {
		t.Fatalf("paused, the frame counter moved from %s to %s", frame, f)
	}
	n, err := strconv.Atoi(frame)
	if err != nil {
		t.Fatal(err)
	}
	run("step", chromedp.Click(chromedp.ID("step")))
	poll("stepped", fmt.Sprintf(`document.getElementById("frame").textContent === "%d"`, n+1))
	time.Sleep(200 * time.Millisecond)
	if f := text("frame"); f != strconv.Itoa(n+1) {
		t.Fatalf("one step moved the frame counter from %d to %s", n, f)
	}

	// the transition log scrubs: at its start the later entries are greyed
	// out and the tree shows the statuses of then; "live" goes back
	// the log holds the transitions so far; a slow machine may have paused
	// before the third (CI saw 2 at frame 61): run on until there are more
	var logged int
	eval("log entries", `document.querySelectorAll("#log div").length`, &logged)
	if logged <= 2 {
		run("resume for the log", chromedp.Click(chromedp.ID("resume")))
		poll("log", `document.querySelectorAll("#log div").length > 2`)
		run("pause for the log", chromedp.Click(chromedp.ID("pause")))
		poll("paused for the log", `window.debugview.snap.paused === true`)
	}
	eval("scrub to the start", `(() => { const r = document.getElementById("scrub"); r.value = 0; r.dispatchEvent(new Event("input")); return true; })()`, nil)
	if l := text("scrub-label"); !strings.HasPrefix(l, "t = ") {
		t.Fatalf("scrubbed, the label reads %q", l)
	}
	poll("later entries greyed", `document.querySelectorAll("#log div.future").length > 0`)
	run("live", chromedp.Click(chromedp.ID("live")))
	if l := text("scrub-label"); l != "live" {
		t.Fatalf("after live, the label reads %q", l)
	}

	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "debugview.png")
	if dir := os.Getenv("DEBUGVIEW_SHOT_DIR"); dir != "" {
		out = filepath.Join(dir, "debugview-test.png")
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(png))
}

// TestScreenshotOfARunningPage saves a screenshot of a page already served
// (DEBUGVIEW_URL, e.g. from go run ./cmd/bench -serve localhost:8080) with an
// agent selected, to DEBUGVIEW_SHOT: the README's picture.
func TestScreenshotOfARunningPage(t *testing.T) {
	url, shot := os.Getenv("DEBUGVIEW_URL"), os.Getenv("DEBUGVIEW_SHOT")
	if url == "" || shot == "" {
		t.Skip("set DEBUGVIEW_URL (a running page) and DEBUGVIEW_SHOT (a PNG path) to take the README's screenshot")
	}
	ctx := browser(t, 60*time.Second)
	err := chromedp.Do(ctx, chromedp.Navigate(url))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.debugview.mapCanvas !== null && window.debugview.snap !== null`, chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const a = window.debugview.agents, v = window.debugview.view, m = window.debugview.map;
			let i = 0, best = Infinity; // the agent nearest the map's centre
			for (let k = 0; k < a.n; k++) {
				const d = (a.xs[k] - m.width / 2) ** 2 + (a.ys[k] - m.height / 2) ** 2;
				if (d < best) { best = d; i = k; }
			}
			v.scale = 7; v.ox = 430 - a.xs[i] * v.scale; v.oy = 380 - a.ys[i] * v.scale; window.debugview.dirty = true;
			window.debugview.cmd({ op: "select", id: String(a.ids[i]) });
			return true;
		})()`))
	}
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.debugview.snap.selected !== null`, chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Sleep(4*time.Second))
	}
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const a = window.debugview.snap.selected, v = window.debugview.view;
			v.ox = 430 - a.pos.x * v.scale; v.oy = 380 - a.pos.y * v.scale; window.debugview.dirty = true; return true; })()`))
	}
	var png []byte
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond))
	}
	if err == nil {
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", shot, len(png))
}
