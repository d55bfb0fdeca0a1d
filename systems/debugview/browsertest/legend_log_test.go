package browsertest

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The legend lists the teams present (this world has teams 0 and 1), not teams 0 to 3
// whatever the world holds; and the transition log wraps its long entries (a tree's
// baseline, a plan) instead of one line with a horizontal scrollbar.
func TestLegendListsTheTeamsPresentAndTheLogWraps(t *testing.T) {
	ctx := browser(t, 90*time.Second)
	w, sched, v, agents := world(t)
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
	v.Select(agents[0].ID())

	if _, err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.debugview.snap && window.debugview.snap.count === 20 && document.querySelectorAll("#log div").length > 0`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatal(err)
	}
	legend, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("legend")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"team 0", "team 1"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend %q lacks %q", legend, want)
		}
	}
	for _, not := range []string{"team 2", "team 3", "no team"} {
		if strings.Contains(legend, not) {
			t.Errorf("legend %q lists %q, which no agent has", legend, not)
		}
	}

	// a long entry, as a plan of many steps makes: the log wraps it
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](`(() => {
		const log = document.getElementById("log"), d = document.createElement("div");
		d.textContent = "t=1.000 plan plan: " + Array(40).fill("GoToTheWellAndDrink").join(" → ");
		log.appendChild(d);
		const r = {white: getComputedStyle(d).whiteSpace, scroll: log.scrollWidth, client: log.clientWidth};
		d.remove();
		return r;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		White          string
		Scroll, Client float64
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.White == "nowrap" || r.Scroll > r.Client {
		t.Errorf("the log does not wrap a long entry: white-space %s, scrollWidth %v > clientWidth %v", r.White, r.Scroll, r.Client)
	}
}
