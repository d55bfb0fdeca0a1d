package browsertest

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/chromedp/chromedp"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Chores holds a villager's trees run inside its states.
type Chores struct{ Chop, Carry hybrid.TreeRun }

// decideWorld is a 24×24 map with a villager on a hierarchical state machine,
// Day › Work › {Chop, Carry}, whose leaves each run a tree (Chop: Wait 0.6 s, fell;
// Carry: Wait 0.8 s, drop; each goes to the other when its tree succeeds), and a wolf
// choosing by utility between hunt (hungry × prey near, Compensated) and a constant
// howl: hungry 0.6 and 0.1 in turn every 1.5 s, so it hunts, howls, hunts. Neither
// moves.
func decideWorld(t *testing.T) (*arche.World, *ecs.Scheduler, *debugview.Viewer, arche.Entity, arche.Entity) {
	t.Helper()
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(24, 24))
	chores := generic.NewMap[Chores](&w)
	ok := func(*bt.Context) bt.Status { return bt.Success }
	chop, err := bt.Compile("chop", bt.Sequence(bt.Wait(0.6), bt.Action("fell", ok)).Named("chop"))
	if err != nil {
		t.Fatal(err)
	}
	carry, err := bt.Compile("carry", bt.Sequence(bt.Wait(0.8), bt.Action("drop", ok)).Named("carry"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(f func(*Chores) *hybrid.TreeRun) func(*fsm.Context) *hybrid.TreeRun {
		return func(c *fsm.Context) *hybrid.TreeRun { return f(chores.Get(systems.StateAgent(c).Entity)) }
	}
	b := fsm.NewBuilder("villager")
	var chopSt, carrySt fsm.StateID
	work := b.Substate(b.State("Day", fsm.Hooks{}), "Work", fsm.Hooks{})
	chopSt = b.Substate(work, "Chop", hybrid.TreeState(chop, run(func(c *Chores) *hybrid.TreeRun { return &c.Chop }),
		func(*fsm.Context, bt.Status) fsm.StateID { return carrySt }))
	carrySt = b.Substate(work, "Carry", hybrid.TreeState(carry, run(func(c *Chores) *hybrid.TreeRun { return &c.Carry }),
		func(*fsm.Context, bt.Status) fsm.StateID { return chopSt }))
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	fact := func(x float64) func(any) float64 { return func(any) float64 { return x } }
	r, err := utility.New("wolf", utility.Policy{Hysteresis: 0.25},
		utility.Action{Name: "hunt", Considerations: []utility.Consideration{
			{Name: "hungry", Input: func(agent any) float64 { // 0.6 (hunt) then 0.1 (howl), every 1.5 s
				if math.Mod(systems.UtilityAgent(agent).Clock.Time, 3) < 1.5 {
					return 0.6
				}
				return 0.1
			}, Curve: utility.Linear(1, 0)},
			{Name: "prey near", Input: fact(8), Range: utility.Range{Min: 20, Max: 0}, Curve: utility.Linear(1, 0)},
		}},
		utility.Action{Name: "howl", Weight: 0.2},
	)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := systems.NewSpawner(&w, systems.Thinker{Machine: m}, systems.With(Chores{}))
	if err != nil {
		t.Fatal(err)
	}
	villager := vs.Spawn(r2.Vec{X: 6.5, Y: 6.5}, nil)
	ws, err := systems.NewSpawner(&w, systems.Thinker{Reasoner: r})
	if err != nil {
		t.Fatal(err)
	}
	wolf := ws.Spawn(r2.Vec{X: 17.5, Y: 17.5}, nil)
	v := debugview.New()
	v.Every = 3
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.FSM{}, &systems.Utility{}, v)
	v.Times = s
	s.Initialize(&w)
	return &w, s, v, villager, wolf
}

// TestStateMachineInChromium: clicking a villager shows its active states by name and
// the tree inside the active state with live node statuses; its state changes join
// the transition log, and clicking one shows the states of that moment. Clicking the
// wolf shows each consideration's input, curve output and compensated factor.
func TestStateMachineInChromium(t *testing.T) {
	ctx := browser(t, 90*time.Second)
	w, sched, v, villager, wolf := decideWorld(t)
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
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	poll := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("aside").innerText`))
			t.Fatalf("%s: %s: %v\npage:\n%s", what, expr, err, page)
		}
	}
	eval := func(what, expr string, out any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				t.Fatalf("%s: %s: %v", what, raw, err)
			}
		}
	}
	shot := func(name string) { // the side panel scrolled to the state machine's or utility's section
		t.Helper()
		eval("scroll", fmt.Sprintf(`(() => { document.getElementById(%q).closest("section").scrollIntoView(); return true; })()`,
			strings.TrimPrefix(name, "debugview-")), nil)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), name+".png")
		if dir := os.Getenv("DEBUGVIEW_SHOT_DIR"); dir != "" {
			out = filepath.Join(dir, name+"-test.png")
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", out, len(png))
	}
	click := func(e arche.Entity) {
		t.Helper()
		do("pause", chromedp.Click(chromedp.ID("pause")))
		poll("paused", `window.debugview.snap.paused === true`)
		var at []float64
		eval("agent on screen", fmt.Sprintf(`(() => {
			const p = window.debugview.agentScreen(%d), r = document.getElementById("map").getBoundingClientRect();
			return [r.left + p[0], r.top + p[1]];
		})()`, e.ID()), &at)
		do("click the agent", chromedp.MouseClickXY(at[0], at[1]))
		poll("selected", fmt.Sprintf(`window.debugview.snap.selected !== null && window.debugview.snap.selected.id === %d`, e.ID()))
		do("resume", chromedp.Click(chromedp.ID("resume")))
	}

	do("load", chromedp.Navigate(srv.URL+"/"))
	poll("map and agents drawn", `window.debugview.mapCanvas !== null && document.getElementById("map").dataset.agents === "2"`)
	click(villager)

	// the active path by name, and the tree inside the active leaf with live statuses
	poll("the state path", `/^Day›Work›(Chop|Carry)$/.test(document.getElementById("fsm-path").textContent)`)
	poll("the active state's tree", `(() => {
		const leaf = document.getElementById("fsm-path").textContent.split("›")[2].toLowerCase();
		const tr = document.querySelector('#fsm .stree[data-active="1"]');
		return tr !== null && tr.dataset.tree === leaf && tr.querySelectorAll(".node").length === 3 &&
			tr.querySelector('.node[data-node="1"]').dataset.status === "Running";
	})()`)
	var names []string
	eval("chop's nodes", `[...document.querySelectorAll('#fsm .stree[data-tree="chop"] .node .name')].map(e => e.textContent)`, &names)
	if fmt.Sprint(names) != "[chop Wait fell]" && len(names) != 0 { // chop is listed once the villager has run it
		t.Fatalf("chop's nodes %v, want [chop Wait fell]", names)
	}
	// both states run: the path changes, and the log shows the change
	poll("both trees ran", `document.querySelectorAll("#fsm .stree").length === 2`)
	poll("a state change in the log", `[...document.querySelectorAll("#log div.fsm")].some(e => e.textContent.includes("state Day › Work › Chop → Day › Work › Carry"))`)
	poll("the trees' transitions in the log", `[...document.querySelectorAll("#log div.treelog")].some(e => e.textContent.includes("Running → Idle"))`)

	// clicking a state change in the log shows the states and the active tree of then
	do("pause for the log", chromedp.Click(chromedp.ID("pause")))
	poll("paused for the log", `window.debugview.snap.paused === true`)
	var then []string
	eval("click a state change", `(() => {
		const e = [...document.querySelectorAll("#log div.fsm")].find(e => e.textContent.includes("→ Day › Work › Carry"));
		e.click();
		const f = window.debugview.snap.selected.fsmLog.find(x => String(x.t) === e.dataset.t);
		return f.to;
	})()`, &then)
	if strings.Join(then, "/") != "Day/Work/Carry" {
		t.Fatalf("the clicked state change goes to %v", then)
	}
	poll("the path of then", `document.getElementById("fsm-path").textContent === "Day›Work›Carry" && document.getElementById("scrub-label").textContent.startsWith("t = ")`)
	poll("carry active then", `document.querySelector('#fsm .stree[data-active="1"]').dataset.tree === "carry"`)
	do("live", chromedp.Click(chromedp.ID("live")))
	shot("debugview-fsm")
	do("resume after the log", chromedp.Click(chromedp.ID("resume")))

	// the wolf: each consideration's input, curve x, output and compensated factor
	click(wolf)
	poll("the considerations", `document.querySelectorAll("#utility table.cons tr.con").length === 2 &&
		document.querySelector('#utility tr.con[data-name="prey near"] td.input').textContent.startsWith("8")`)
	var cells []string
	eval("prey near", `[...document.querySelectorAll('#utility tr.con[data-name="prey near"] td')].map(e => e.textContent)`, &cells)
	if len(cells) != 6 || cells[2] != "0.600" || cells[4] != "0.600" || cells[5] != "0.720" {
		t.Fatalf("prey near's cells %q: want x 0.600, output 0.600, compensated 0.720", cells)
	}
	poll("the held option's bonus", `document.querySelector('#utility tr.option[data-option="hunt"]').textContent.includes("held: 0.648")`)

	// a change of mind in the log; clicked, the page shows that decision's considerations
	poll("a change of choice in the log", `[...document.querySelectorAll("#log div.util")].some(e => e.textContent.includes("utility hunt → howl"))`)
	do("pause for the choice", chromedp.Click(chromedp.ID("pause")))
	poll("paused for the choice", `window.debugview.snap.paused === true`)
	eval("click the change", `(() => { [...document.querySelectorAll("#log div.util")].find(e => e.textContent.includes("utility hunt → howl")).click(); return true; })()`, nil)
	poll("the decision of then", `document.getElementById("utility").textContent.includes("the decision of t =") &&
		document.querySelector('#utility tr.option.chosen').dataset.option === "howl" &&
		document.querySelector('#utility tr.con[data-name="hungry"] td.input').textContent === "0.100" &&
		document.querySelector('#utility tr.option[data-option="hunt"]').textContent.includes("held: 0.13")`)
	do("live again", chromedp.Click(chromedp.ID("live")))

	shot("debugview-utility")
}
