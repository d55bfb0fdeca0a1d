package debugview_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func getState(t *testing.T, srv *httptest.Server) debugview.Snapshot {
	t.Helper()
	resp, err := http.Get(srv.URL + "/state")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var s debugview.Snapshot
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	return s
}

func post(t *testing.T, srv *httptest.Server, form url.Values) (int, string) {
	t.Helper()
	resp, err := http.PostForm(srv.URL+"/cmd", form)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestSnapshotHoldsEveryAgent(t *testing.T) {
	tw := newTestWorld(t, 12, 3, func(v *debugview.Viewer) { v.Every = 5 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(10)
	s := getState(t, srv)
	assert.EqualValues(t, 9, s.Frame, "the clock's frame 9 is the tenth; a snapshot every 5 frames")
	assert.InDelta(t, 9.0/60, s.Time, 1e-9, "the clock's time of frame 9")
	require.Equal(t, 15, s.Count)
	require.Len(t, s.Agents, 15*debugview.AgentSize)
	teams := map[uint8]int{}
	seen := map[uint32]bool{}
	for i := range s.Count {
		rec := s.Agents[i*debugview.AgentSize:]
		id := binary.LittleEndian.Uint32(rec)
		x := math.Float32frombits(binary.LittleEndian.Uint32(rec[4:]))
		y := math.Float32frombits(binary.LittleEndian.Uint32(rec[8:]))
		assert.True(t, x > 0 && x < 32 && y > 0 && y < 32, "agent %d at (%v, %v)", id, x, y)
		teams[rec[12]]++
		seen[id] = true
	}
	assert.Equal(t, map[uint8]int{0: 6, 1: 6, 255: 3}, teams, "two teams and the flow followers without a Faction")
	for _, e := range tw.agents {
		assert.True(t, seen[e.ID()])
	}
	// per-system times: every system of the scheduler, the viewer included
	require.Len(t, s.Systems, 11)
	assert.Equal(t, "clock", s.Systems[0].Name)
	assert.Equal(t, "debugview", s.Systems[10].Name)
	// diagnostics: every cause listed, none counted for this world
	assert.NotEmpty(t, s.Diagnostics)
	for _, c := range s.Diagnostics {
		assert.Zero(t, c.Count, c.Cause)
	}
}

func TestMapEndpoint(t *testing.T) {
	tw := newTestWorld(t, 2, 0, nil)
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/map")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "no frame yet")
	resp.Body.Close()
	tw.run(1)
	resp, err = http.Get(srv.URL + "/map")
	require.NoError(t, err)
	defer resp.Body.Close()
	var m struct {
		Width, Height int
		Cells         []byte
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	require.Equal(t, 32, m.Width)
	require.Len(t, m.Cells, 32*32)
	assert.EqualValues(t, 0, m.Cells[5*32+16], "the wall")
	assert.EqualValues(t, 1, m.Cells[5*32+15], "open ground")
	assert.EqualValues(t, 3, m.Cells[30*32+3], "cost 3")
}

func TestSelectShowsTreeAndLog(t *testing.T) {
	tw := newTestWorld(t, 4, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(2)
	e := tw.agents[1]
	code, body := post(t, srv, url.Values{"op": {"select"}, "id": {strconv.Itoa(int(e.ID()))}})
	require.Equal(t, http.StatusAccepted, code, body)
	tw.run(90) // 1.5 s: the Waits finish several times
	s := getState(t, srv)
	require.NotNil(t, s.Selected)
	a := s.Selected
	assert.Equal(t, e.ID(), a.ID)
	assert.True(t, a.Alive)
	require.NotNil(t, a.Tree)
	names := []string{}
	for _, n := range a.Tree.Nodes {
		names = append(names, n.Name)
	}
	assert.Equal(t, []string{"patrol", "Wait", "look", "Wait"}, names)
	assert.Equal(t, []int{-1, 0, 0, 0}, []int{a.Tree.Nodes[0].Parent, a.Tree.Nodes[1].Parent, a.Tree.Nodes[2].Parent, a.Tree.Nodes[3].Parent})
	assert.Equal(t, 1, a.Tree.Status[0], "the root Sequence is Running (a Wait is always running)")
	require.NotEmpty(t, a.Log)
	var wait []debugview.Transition // the first Wait's changes
	assert.Equal(t, "selected", a.Log[0].Kind, "the baseline first")
	for i, x := range a.Log[1:] {
		i++
		assert.NotEqual(t, x.From, x.To)
		if i > 0 {
			assert.GreaterOrEqual(t, x.Time, a.Log[i-1].Time)
		}
		if x.Node == 1 {
			wait = append(wait, x)
		}
	}
	// thinking at 10 Hz from t = 4/60: the 0.3 s Wait runs, succeeds, and
	// starts again once the 0.2 s Wait after it is done (Tracer logs changes only)
	require.Len(t, wait, 5)
	for i, want := range []struct {
		t        float64
		from, to int
	}{{3.0 / 60, 0, 1}, {21.0 / 60, 1, 2}, {39.0 / 60, 2, 1}, {57.0 / 60, 1, 2}, {75.0 / 60, 2, 1}} {
		assert.InDelta(t, want.t, wait[i].Time, 1e-9, "transition %d", i)
		assert.Equal(t, want.from, wait[i].From)
		assert.Equal(t, want.to, wait[i].To)
	}
	require.NotNil(t, a.Perception)
	assert.Equal(t, 6.0, a.Perception.Range)
	assert.Equal(t, 2.0, a.Perception.FieldOfView)
	require.NotNil(t, a.Path)
	assert.NotEmpty(t, a.Path.Waypoints, "a path around the wall")
	require.NotNil(t, a.Intent)
	assert.True(t, a.Intent.Move)
	assert.Contains(t, a.Components, "Brain")
	assert.Nil(t, a.Flow)
	assert.Empty(t, s.FlowKey)

	// deselect
	code, _ = post(t, srv, url.Values{"op": {"deselect"}})
	require.Equal(t, http.StatusAccepted, code)
	tw.run(1)
	assert.Nil(t, getState(t, srv).Selected)

	// an ID that is no agent: the snapshot says why
	code, _ = post(t, srv, url.Values{"op": {"select"}, "id": {"99999"}})
	require.Equal(t, http.StatusAccepted, code)
	tw.run(1)
	s = getState(t, srv)
	assert.Nil(t, s.Selected)
	assert.Equal(t, "no agent with entity ID 99999", s.SelectError)
}

func TestFlowOfTheSelectedGoal(t *testing.T) {
	tw := newTestWorld(t, 0, 2, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	code, _ := post(t, srv, url.Values{"op": {"select"}, "id": {strconv.Itoa(int(tw.flowers[0].ID()))}})
	require.Equal(t, http.StatusAccepted, code)
	tw.run(2)
	s := getState(t, srv)
	require.NotNil(t, s.Selected)
	require.NotNil(t, s.Selected.Flow)
	assert.Equal(t, debugview.Vec{X: 28.5, Y: 4.5}, s.Selected.Flow.Goal)
	require.NotEmpty(t, s.FlowKey)
	resp, err := http.Get(srv.URL + "/flow")
	require.NoError(t, err)
	defer resp.Body.Close()
	var f struct {
		Key   string
		Width int
		Dirs  []byte
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&f))
	assert.Equal(t, s.FlowKey, f.Key)
	at := func(x, y int) byte { return f.Dirs[y*f.Width+x] }
	assert.EqualValues(t, 8, at(28, 4), "the goal")
	assert.EqualValues(t, 0, at(20, 4), "west of the goal in the open: east")
	assert.EqualValues(t, 2, at(28, 10), "south of it: north (y grows down)")
	assert.EqualValues(t, 255, at(16, 5), "a wall: none")
}

func TestMalformedCommandsGet400AndChangeNothing(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(1)
	before := getState(t, srv)
	for _, body := range []string{
		"", "op=", "op=jump", "op=pause&x=1", "op=pause&op=resume", "op=select", "op=select&id=", "op=select&id=-3",
		"op=select&id=0", "op=select&id=4294967296", "op=select&id=1.5", "op=speed", "op=speed&value=fast",
		"op=speed&value=-1", "op=speed&value=NaN", "op=speed&value=Inf", "op=speed&value=1001", "op=speed&value=2&id=3",
		"op=%zz", "op=step&" + strings.Repeat("a", 2000),
	} {
		resp, err := http.Post(srv.URL+"/cmd", "application/x-www-form-urlencoded", strings.NewReader(body))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "%q", body)
	}
	resp, err := http.Get(srv.URL + "/cmd?op=pause")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	tw.run(1)
	after := getState(t, srv)
	assert.False(t, after.Paused)
	assert.Equal(t, before.Speed, after.Speed)
	assert.Nil(t, after.Selected)
	assert.Equal(t, before.Frame+1, after.Frame)

	// another site's page may not command the simulation
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/cmd", strings.NewReader("op=pause"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	req, err = http.NewRequest(http.MethodPost, srv.URL+"/cmd", strings.NewReader("op=step"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.URL) // the page itself
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	tw.run(1) // the step runs this frame, then pauses: the next Update would block until resumed
	assert.True(t, getState(t, srv).Paused)
	code, _ := post(t, srv, url.Values{"op": {"resume"}})
	require.Equal(t, http.StatusAccepted, code)

	// disabled: well-formed commands get 503 and change nothing either
	tw.v.SetEnabled(false)
	code, _ = post(t, srv, url.Values{"op": {"pause"}})
	assert.Equal(t, http.StatusServiceUnavailable, code)
	tw.v.SetEnabled(true)
	tw.run(1)
	assert.False(t, getState(t, srv).Paused)
}

func TestPauseStopsAndStepAdvancesOneFrame(t *testing.T) {
	tw := newTestWorld(t, 4, 0, func(v *debugview.Viewer) { v.Every = 2 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // the simulation goroutine: the viewer blocks it while paused
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				tw.sched.Update(tw.w)
			}
		}
	}()
	defer func() { close(stop); tw.v.Close(); wg.Wait() }()
	waitFor := func(what string, ok func(debugview.Snapshot) bool) debugview.Snapshot {
		t.Helper()
		for range 2000 {
			if s := getState(t, srv); ok(s) {
				return s
			}
			time.Sleep(2 * time.Millisecond)
		}
		t.Fatalf("never: %s", what)
		return debugview.Snapshot{}
	}
	waitFor("frames run", func(s debugview.Snapshot) bool { return s.Frame > 5 })
	code, _ := post(t, srv, url.Values{"op": {"pause"}})
	require.Equal(t, http.StatusAccepted, code)
	paused := waitFor("paused", func(s debugview.Snapshot) bool { return s.Paused })
	for range 5 { // the frame counter stands still
		time.Sleep(5 * time.Millisecond)
		assert.Equal(t, paused.Frame, getState(t, srv).Frame)
	}
	frames := tw.sched.Frames()
	for i := int64(1); i <= 3; i++ {
		code, _ = post(t, srv, url.Values{"op": {"step"}})
		require.Equal(t, http.StatusAccepted, code)
		s := waitFor("stepped", func(s debugview.Snapshot) bool { return s.Frame == paused.Frame+i })
		assert.True(t, s.Paused)
	}
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, paused.Frame+3, getState(t, srv).Frame, "one frame per step")
	assert.Equal(t, frames+3, tw.sched.Frames())

	// selecting while paused shows the agent at once, without a frame
	code, _ = post(t, srv, url.Values{"op": {"select"}, "id": {strconv.Itoa(int(tw.agents[0].ID()))}})
	require.Equal(t, http.StatusAccepted, code)
	s := waitFor("selected", func(s debugview.Snapshot) bool { return s.Selected != nil })
	assert.Equal(t, paused.Frame+3, s.Frame)

	code, _ = post(t, srv, url.Values{"op": {"resume"}})
	require.Equal(t, http.StatusAccepted, code)
	waitFor("running again", func(s debugview.Snapshot) bool { return !s.Paused && s.Frame > paused.Frame+10 })
}

func TestEventsStreamSnapshots(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(1)
	resp, err := http.Get(srv.URL + "/events")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	r := bufio.NewReader(resp.Body)
	read := func() debugview.Snapshot {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, "event: snapshot\n", line)
		line, err = r.ReadString('\n')
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(line, "data: "))
		var s debugview.Snapshot
		require.NoError(t, json.Unmarshal([]byte(line[len("data: "):]), &s))
		blank, _ := r.ReadString('\n')
		require.Equal(t, "\n", blank)
		return s
	}
	first := read()
	assert.EqualValues(t, 0, first.Frame)
	tw.run(1)
	assert.EqualValues(t, 1, read().Frame)
}

func TestPageIsServed(t *testing.T) {
	tw := newTestWorld(t, 2, 0, nil)
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	for path, want := range map[string]string{"/": "<canvas id=\"map\"", "/static/app.js": "EventSource", "/static/app.css": ".tree"} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, string(body), want, path)
		assert.NotContains(t, string(body), "http://", path+": no external resource")
		assert.NotContains(t, string(body), "https://", path+": no external resource")
	}
	resp, err := http.Get(srv.URL + "/nothing")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestDisabledUpdateAllocatesNothing(t *testing.T) {
	tw := newTestWorld(t, 8, 2, nil)
	tw.v.SetEnabled(false)
	tw.run(2)
	allocs := testing.AllocsPerRun(100, func() { tw.v.Update(tw.w) })
	assert.Zero(t, allocs)
	assert.False(t, tw.v.Enabled())
}

func TestInitializeRejectsBadSettings(t *testing.T) {
	for _, set := range []func(*debugview.Viewer){
		func(v *debugview.Viewer) { v.Speed = math.NaN() },
		func(v *debugview.Viewer) { v.Speed = -1 },
		func(v *debugview.Viewer) { v.Speed = 2000 },
		func(v *debugview.Viewer) { v.Every = -1 },
		func(v *debugview.Viewer) { v.LogSeconds = math.Inf(1) },
	} {
		assert.Panics(t, func() { newTestWorld(t, 2, 0, set) })
	}
	var zero debugview.Viewer
	assert.PanicsWithError(t, "debugview: Viewer not made by debugview.New(); use v := debugview.New()", func() { zero.Initialize(nil) })
}

// TestViewerSettingsAreSetupErrors: ecs.Scheduler.InitializeChecked returns
// an unusable Speed as an ErrSettings error naming the Viewer.
func TestViewerSettingsAreSetupErrors(t *testing.T) {
	world := arche.NewWorld()
	v := debugview.New()
	v.Speed = -1
	err := ecs.NewScheduler(v).InitializeChecked(&world)
	require.ErrorIs(t, err, ecs.ErrSettings)
	var se *ecs.SetupError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "Viewer", se.System)
	assert.EqualError(t, err, "debugview: Viewer.Speed is -1; set it in multiples of real time (0 to 1000), or 0 for unpaced")
}

func TestLogStartsFromTheStatusesAtSelection(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(30) // the tree is running
	require.True(t, tw.v.Select(tw.agents[0].ID()))
	tw.run(1)
	s := getState(t, srv)
	require.NotNil(t, s.Selected)
	require.NotNil(t, s.Selected.Tree)
	assert.Equal(t, 1, s.Selected.Tree.Status[0], "patrol is running")
	for _, x := range s.Selected.Log {
		assert.NotEqual(t, 0, x.From, "no Idle → … entry for statuses the agent already had: %+v", x)
	}
}
