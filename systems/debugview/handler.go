package debugview

import (
	"bytes"
	"embed"
	"encoding/json"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed static
var static embed.FS

// encoded caches the JSON of the front snapshot, so that every stream
// shares one encoding per snapshot.
type encoded struct {
	mu      sync.Mutex
	version uint64
	data    []byte
}

// Handler returns the HTTP handler of the page and its data (see the
// package doc for the routes). It may be made before Initialize and serves
// an empty snapshot until the first one. Every request only reads the copies
// the simulation published; commands are queued for the next Update.
func (v *Viewer) Handler() http.Handler {
	mux := http.NewServeMux()
	files, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded folder is part of the package
	}
	mux.Handle("GET /{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, files, "index.html")
	}))
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(files)))
	mux.HandleFunc("GET /state", v.serveState)
	mux.HandleFunc("GET /events", v.serveEvents)
	mux.HandleFunc("GET /map", v.serveMap)
	mux.HandleFunc("GET /flow", v.serveFlow)
	mux.HandleFunc("POST /cmd", v.serveCmd)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !v.hostAllowed(r.Host) {
			http.Error(w, "debugview: host "+strconv.Quote(r.Host)+" not allowed: open the page at localhost or an IP address, "+
				"or add the name to Viewer.AllowHosts", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a request's Host header is empty or names localhost
// (or a name under .localhost), an IP address, or a name of v.AllowHosts: the guard
// against DNS rebinding (a site's own name resolved to 127.0.0.1 passes the
// Origin check, since Origin and Host then name the same site).
func (v *Viewer) hostAllowed(host string) bool {
	if host == "" { // an HTTP/1.0 client: no browser (a browser always names the host)
		return true
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.ToLower(strings.Trim(name, "[]")), ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	for _, a := range v.AllowHosts {
		if strings.EqualFold(strings.TrimSuffix(a, "."), name) {
			return true
		}
	}
	return false
}

// snapshotJSON returns the front snapshot's JSON and its version.
func (v *Viewer) snapshotJSON() ([]byte, uint64, error) {
	v.enc.mu.Lock()
	defer v.enc.mu.Unlock()
	v.mu.RLock()
	ver := v.front.Version
	if v.enc.data != nil && v.enc.version == ver {
		v.mu.RUnlock()
		return v.enc.data, ver, nil
	}
	data, err := json.Marshal(v.front)
	v.mu.RUnlock()
	if err != nil {
		return nil, 0, err
	}
	v.enc.data, v.enc.version = data, ver
	return data, ver, nil
}

func (v *Viewer) serveState(w http.ResponseWriter, r *http.Request) {
	data, _, err := v.snapshotJSON()
	if err != nil {
		http.Error(w, "debugview: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	v.writeLive(w, data)
}

// liveTail is how the encoding of every Snapshot ends: Stalled and SinceFrame as the
// simulation leaves them, which the HTTP side fills in as it serves (writeLive).
const liveTail = `,"stalled":false,"sinceFrame":0}`

// writeLive writes a snapshot's JSON with Stalled and SinceFrame of now, without
// copying it.
func (v *Viewer) writeLive(w io.Writer, data []byte) error {
	if !bytes.HasSuffix(data, []byte(liveTail)) { // (not a Snapshot's encoding: as it is)
		_, err := w.Write(data)
		return err
	}
	if _, err := w.Write(data[:len(data)-len(liveTail)]); err != nil {
		return err
	}
	_, err := w.Write(liveJSON(v.stall()))
	return err
}

// liveJSON is the tail of a snapshot (or the body of a "heartbeat" event, after its
// comma) with stalled and since.
func liveJSON(stalled bool, since float64) []byte {
	b := append([]byte(`,"stalled":`), strconv.FormatBool(stalled)...)
	b = append(b, `,"sinceFrame":`...)
	b = strconv.AppendFloat(b, since, 'f', 3, 64)
	return append(b, '}')
}

func (v *Viewer) serveMap(w http.ResponseWriter, r *http.Request) {
	v.mu.RLock()
	m := v.mapData
	v.mu.RUnlock()
	if m == nil {
		http.Error(w, "debugview: no map yet (the world has no *grid.Grid resource, or no frame has run)", http.StatusNotFound)
		return
	}
	writeJSON(w, m)
}

func (v *Viewer) serveFlow(w http.ResponseWriter, r *http.Request) {
	v.mu.RLock()
	f := v.flow
	v.mu.RUnlock()
	if f == nil {
		http.Error(w, "debugview: no flow field (select an agent with a FlowFollower)", http.StatusNotFound)
		return
	}
	writeJSON(w, f)
}

func writeJSON(w http.ResponseWriter, x any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(x)
}

// serveEvents streams each published snapshot as a server-sent event named
// "snapshot", the current one first, until the client goes or the viewer is
// closed. A comment line every 15 s keeps idle connections open.
func (v *Viewer) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "debugview: streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	beat := time.NewTicker(time.Second) // the stall: no snapshot says so, none comes
	defer beat.Stop()
	wasStalled := false
	var sent uint64 = math.MaxUint64
	for {
		v.mu.RLock()
		changed := v.changed
		v.mu.RUnlock()
		data, ver, err := v.snapshotJSON()
		if err != nil {
			return
		}
		if ver != sent {
			sent = ver
			if _, err := w.Write([]byte("event: snapshot\ndata: ")); err != nil {
				return
			}
			v.writeLive(w, data)
			w.Write([]byte("\n\n"))
			flusher.Flush()
		}
		select {
		case <-changed:
		case <-beat.C:
			stalled, since := v.stall()
			if stalled || wasStalled {
				wasStalled = stalled
				b := append([]byte("event: heartbeat\ndata: {"), liveJSON(stalled, since)[1:]...)
				if _, err := w.Write(append(b, "\n\n"...)); err != nil {
					return
				}
				flusher.Flush()
			}
		case <-keepAlive.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
			flusher.Flush()
		case <-r.Context().Done():
			return
		case <-v.done:
			return
		}
	}
}

// maxCmdBody is the largest command body read; more is a 400.
const maxCmdBody = 1 << 10

// serveCmd parses one command and queues it: 202 when queued, 400 when
// malformed (nothing changes), 403 when posted by another site's page, 503
// when disabled, finalized (the simulation ended) or when too many commands
// are waiting.
func (v *Viewer) serveCmd(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "debugview: a command from another site's page", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxCmdBody)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "debugview: malformed command: "+err.Error(), http.StatusBadRequest)
		return
	}
	c, err := parseCommand(r.Form)
	if err != "" {
		http.Error(w, "debugview: "+err, http.StatusBadRequest)
		return
	}
	if !v.enabled.Load() {
		http.Error(w, "debugview: the viewer is disabled", http.StatusServiceUnavailable)
		return
	}
	if v.ended.Load() {
		http.Error(w, "debugview: the simulation has ended (the Viewer was finalized): no frame will read the command", http.StatusServiceUnavailable)
		return
	}
	select {
	case v.cmds <- c:
		w.WriteHeader(http.StatusAccepted)
	default:
		http.Error(w, "debugview: too many commands waiting for the simulation", http.StatusServiceUnavailable)
	}
}

// sameOrigin reports whether a command comes from the debugger's own page
// or from a client that is not a browser (no Origin header): a page of
// another site that posts to localhost is refused.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// parseCommand checks a command's form values: exactly the parameters its op
// takes, each once and well formed. It returns a message on error.
func parseCommand(form map[string][]string) (command, string) {
	for k, vals := range form {
		if len(vals) != 1 {
			return command{}, "parameter " + strconv.Quote(k) + " given more than once"
		}
	}
	one := func(k string) string { return form[k][0] }
	want := func(params ...string) string {
		if len(form) != len(params)+1 {
			return "op " + strconv.Quote(one("op")) + " takes " + strconv.Itoa(len(params)) + " parameter(s) besides op"
		}
		for _, p := range params {
			if _, ok := form[p]; !ok {
				return "op " + strconv.Quote(one("op")) + " needs parameter " + strconv.Quote(p)
			}
		}
		return ""
	}
	if _, ok := form["op"]; !ok {
		return command{}, "missing op (pause, resume, step, select, deselect or speed)"
	}
	switch name := one("op"); name {
	case "pause", "resume", "step", "deselect":
		if e := want(); e != "" {
			return command{}, e
		}
		return command{op: map[string]op{"pause": opPause, "resume": opResume, "step": opStep, "deselect": opDeselect}[name]}, ""
	case "select":
		if e := want("id"); e != "" {
			return command{}, e
		}
		id, err := strconv.ParseUint(one("id"), 10, 32)
		if err != nil || id == 0 {
			return command{}, "select: id must be an entity ID, a whole number from 1 to 4294967295, not " + strconv.Quote(one("id"))
		}
		return command{op: opSelect, id: uint32(id)}, ""
	case "speed":
		if e := want("value"); e != "" {
			return command{}, e
		}
		x, err := strconv.ParseFloat(one("value"), 64)
		if err != nil || !goodSpeed(x) {
			return command{}, "speed: value must be a number from 0 (unpaced) to " + strconv.Itoa(MaxSpeed) + ", not " + strconv.Quote(one("value"))
		}
		return command{op: opSpeed, value: x}, ""
	default:
		return command{}, "unknown op " + strconv.Quote(name) + " (pause, resume, step, select, deselect or speed)"
	}
}
