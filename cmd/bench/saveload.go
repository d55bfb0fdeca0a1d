package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/jsonkeys"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
)

// Saving and loading a run (-save FILE -save-at N, -load FILE): the file is a
// systems/save file whose meta records the run's scenario, agents, seed, map and
// settings, so a loaded run continues the saved one with the same frames; -workers may
// differ (results do not depend on it).

// crowdMeta is what a save file records of the run, as its meta.
type crowdMeta struct {
	Scenario    string  `json:"scenario"`
	Agents      int     `json:"agents"`
	Seed        uint64  `json:"seed"`
	MapFile     string  `json:"map_file,omitempty"`
	LOD         bool    `json:"lod"`
	ThinkBudget int     `json:"think_budget"`
	Avoid       string  `json:"avoid"`
	DT          float64 `json:"dt"`
	MapSize     int     `json:"map_size,omitempty"` // -map-size (0: grows with the agents)
	Sectors     int     `json:"sectors,omitempty"`  // -sectors (0 or -1, see mapsize.go)
}

// metaFields are the keys of crowdMeta's JSON.
var metaFields = []string{"scenario", "agents", "seed", "map_file", "lod", "think_budget", "avoid", "dt", "map_size", "sectors"}

// metaKeyFault returns a key of a save file's meta written twice ("duplicate key"), or
// one crowdMeta does not have ("unknown field"), as the library's loaders refuse them
// (internal/jsonkeys): encoding/json keeps the last of two (of any case) and drops an
// unknown one, so the run would resume with settings the file does not say.
func metaKeyFault(raw []byte) (key, what string, bad bool) {
	if !json.Valid(raw) {
		return "", "", false // not a save file of cmd/bench: said by the caller
	}
	if _, key, dup := jsonkeys.Duplicate(raw, func(p jsonkeys.Path) bool { return len(p) == 0 }); dup {
		return key, "duplicate key", true
	}
	if _, key, unknown := jsonkeys.Unknown(raw, func(p jsonkeys.Path) []string {
		if len(p) == 0 {
			return metaFields
		}
		return nil
	}); unknown {
		return key, "unknown field", true
	}
	return "", "", false
}

// savedFlags are the flags a save file records: with -load they come from the file.
var savedFlags = []string{"scenario", "agents", "seed", "map", "lod", "think-budget", "avoid", "map-size", "sectors"}

// applyLoad reads the save file named by cfg.LoadFile and sets cfg's scenario, agents,
// seed, map and settings from it. It returns an error if the file cannot be read or is
// not a save file, or if one of the recorded settings was also given as a flag.
func applyLoad(cfg *crowdConfig, fs *flag.FlagSet) error {
	var conflict []string
	fs.Visit(func(f *flag.Flag) {
		for _, name := range savedFlags {
			if f.Name == name {
				conflict = append(conflict, "-"+name)
			}
		}
	})
	if len(conflict) > 0 {
		return fmt.Errorf("-load continues the run recorded in the file: %v come from it; leave them out", conflict)
	}
	data, err := readSaveFile(cfg.LoadFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is said next
			}
		}
		return fmt.Errorf("-load %s: %w", cfg.LoadFile, err)
	}
	raw, err := save.ReadMeta(data)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.LoadFile, err)
	}
	if key, what, bad := metaKeyFault(raw); bad {
		return fmt.Errorf("%s: meta: %s %q", cfg.LoadFile, what, key)
	}
	var m crowdMeta
	if err := json.Unmarshal(raw, &m); err != nil || m.Agents <= 0 {
		return fmt.Errorf("%s: not a save file of cmd/bench (its meta has no run settings)", cfg.LoadFile)
	}
	if m.Scenario != "guards" && m.Scenario != "swarm" {
		return fmt.Errorf("%s: meta.scenario %q: only guards and swarm runs are saved", cfg.LoadFile, m.Scenario)
	}
	if err := checkSavedAgents(cfg.LoadFile, data, m.Agents); err != nil { // harden.go
		return err
	}
	cfg.Scenario, cfg.Agents, cfg.Seed, cfg.MapFile = m.Scenario, m.Agents, m.Seed, m.MapFile
	cfg.LOD, cfg.ThinkBudget, cfg.Avoid = m.LOD, m.ThinkBudget, m.Avoid
	cfg.MapSize, cfg.Sectors = m.MapSize, m.Sectors
	if _, ok := raw2map(raw)["sectors"]; !ok {
		cfg.Sectors = -1 // files from before -sectors: the default
	}
	cfg.loadData = data
	return nil
}

// resumeCrowd builds cfg's scenario over the world in cfg.loadData. Call the returned
// function after the scheduler's Initialize.
func resumeCrowd(cfg crowdConfig, g *grid.Grid, workers int, avoid systems.Avoidance, dt float64) (world, func() error, error) {
	sc, restore, err := resumeScenario(cfg, g, workers, avoid, dt)
	if err != nil {
		return nil, nil, err
	}
	if err := checkSavedAvoidance(cfg.LoadFile, sc.world(), avoid); err != nil {
		return nil, nil, err
	}
	return sc, restore, nil
}

// checkSavedAvoidance returns an error if the avoidance a save file's meta records is
// not its agents': every agent of an ORCA run carries components.ORCA, none of a
// separation run does. The run would otherwise be reported and go on as the meta's
// (a separation save whose meta said orca ran the ORCA system over agents that
// separate, spawned ORCA intruders beside them and printed "orca avoidance").
func checkSavedAvoidance(file string, w *arche.World, avoid systems.Avoidance) error {
	all := w.Query(arche.All())
	agents := all.Count()
	all.Close()
	withORCA := w.Query(arche.All(arche.ComponentID[components.ORCA](w)))
	n := withORCA.Count()
	withORCA.Close()
	if want := map[bool]int{true: agents, false: 0}[avoid == systems.AvoidORCA]; n != want {
		return fmt.Errorf("%s: meta.avoid is %s, but %d of the world's %d agents avoid by ORCA (components.ORCA)", file, avoid, n, agents)
	}
	return nil
}

// resumeScenario builds cfg's scenario over the world in cfg.loadData.
func resumeScenario(cfg crowdConfig, g *grid.Grid, workers int, avoid systems.Avoidance, dt float64) (world, func() error, error) {
	switch cfg.Scenario {
	case "guards":
		s, restore, err := scenario.ResumeGuards(scenario.Config{Agents: cfg.Agents, Seed: cfg.Seed, Grid: g, DT: dt,
			Workers: workers, LOD: cfg.LOD, ThinkBudget: cfg.ThinkBudget, Avoid: avoid}, cfg.loadData)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", cfg.LoadFile, err)
		}
		return guards{s}, restore, nil
	case "swarm":
		s, restore, err := scenario.ResumeSwarm(scenario.SwarmConfig{Agents: cfg.Agents, Seed: cfg.Seed, Grid: g, DT: dt,
			Workers: workers, Avoid: avoid}, cfg.loadData)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", cfg.LoadFile, err)
		}
		s.Flow.Sectors = sectorSide(cfg, g) // as newCrowd: the saved run's fields
		return swarm{s}, restore, nil
	}
	return nil, nil, fmt.Errorf("%s: unknown scenario %q", cfg.LoadFile, cfg.Scenario)
}

// statesOf returns the scenario's systems whose state is saved.
func statesOf(sc world) []save.State {
	switch s := sc.(type) {
	case guards:
		return s.SaveStates()
	case swarm:
		return s.SaveStates()
	}
	return nil
}

// frameCount returns the frames run since the start of the (original) run.
func frameCount(w *arche.World) int64 {
	c := ecs.ClockOf(w)
	if !c.Started {
		return 0
	}
	return c.Frame + 1
}

// saveCrowd writes the world of sc to cfg.SaveFile and returns the heap objects the
// save allocated (left out of the run's allocations per frame).
func saveCrowd(cfg crowdConfig, sc world, dt float64, rep *saveReport) (uint64, error) {
	allocs0 := heapAllocs()
	t0 := time.Now()
	m := crowdMeta{Scenario: cfg.Scenario, Agents: cfg.Agents, Seed: cfg.Seed, MapFile: cfg.MapFile,
		LOD: cfg.LOD, ThinkBudget: cfg.ThinkBudget, Avoid: cfg.Avoid, DT: dt, MapSize: cfg.MapSize, Sectors: cfg.Sectors}
	if m.Avoid == "" {
		m.Avoid = "separation"
	}
	n, err := writeSaveFile(cfg.SaveFile, func(w io.Writer) error { return save.SaveTo(w, sc.world(), m, statesOf(sc)...) })
	if err != nil {
		return 0, err
	}
	rep.File, rep.Frame, rep.Bytes = cfg.SaveFile, frameCount(sc.world()), int(n)
	rep.Ms = float64(time.Since(t0).Nanoseconds()) / 1e6
	settle() // meter.go
	return heapAllocs() - allocs0, nil
}

// writeSaveFile streams a save (write, save.SaveTo) into a new file beside path and
// renames it to path once whole, so that a save that fails leaves path as it was and
// no part of a file; it returns the bytes written. The file is never held in memory.
// A path that exists and is not a regular file (a device such as /dev/null, a pipe, a
// symbolic link) is written as it is, as os.WriteFile wrote it.
func writeSaveFile(path string, write func(io.Writer) error) (int64, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return 0, err
		}
		cw := &countingWriter{w: f}
		err = write(cw)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return cw.n, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, err
	}
	cw := &countingWriter{w: f}
	err = write(cw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return 0, err
	}
	return cw.n, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// saveReport is what -save wrote.
type saveReport struct {
	File  string  `json:"file"`
	Frame int64   `json:"frame"` // the frame count the world was saved after
	Bytes int     `json:"bytes"`
	Ms    float64 `json:"ms"` // wall-clock time to encode and write (to read, decode and build the scenario, for -load)
}

// checkSaveFlags checks -save and -save-at against -frames (and the loaded run's start).
func checkSaveFlags(cfg crowdConfig) error {
	switch {
	case cfg.SaveFile == "" && cfg.SaveAt != 0:
		return fmt.Errorf("-save-at needs -save FILE")
	case cfg.SaveFile != "" && cfg.SaveAt <= 0:
		return fmt.Errorf("-save needs -save-at N, the frame after which to save (1 to -frames)")
	case cfg.SaveFile != "" && cfg.LoadFile == "" && cfg.SaveAt > cfg.Frames:
		return fmt.Errorf("-save-at %d is out of range: it counts frames since the start of the run, 1 to -frames (%d)", cfg.SaveAt, cfg.Frames)
	}
	return nil
}

// usageError is a usage error found only once the run is set up (-save-at against a
// loaded run's frames, known once its world is read): main exits 2 for it, as for
// those found before anything runs.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// writeSaved prints the frame count at the end and what -save wrote.
func (r *report) writeSaved(w io.Writer) {
	fmt.Fprintf(w, "frame            %d (frames since the start of the run)\n", r.Frame)
	if l := r.Loaded; l != nil {
		fmt.Fprintf(w, "loaded           %s (%.1f MB, resumed after frame %d) in %.0f ms\n", l.File, float64(l.Bytes)/1e6, l.Frame, l.Ms)
	}
	if s := r.Saved; s != nil {
		fmt.Fprintf(w, "saved            %s after frame %d: %.1f MB in %.0f ms\n", s.File, s.Frame, float64(s.Bytes)/1e6, s.Ms)
	}
}

// raw2map decodes a JSON object's keys (nil if it is not one).
func raw2map(raw []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return m
}

// maxLoadStream is the most -load reads from a file that is not a regular one (a pipe,
// a device): such a file has no size to trust, and /dev/zero never ends.
const maxLoadStream = 256 << 20

// readSaveFile reads the save file at path: a regular file whole (its size is the saved
// world's), any other (a pipe, a device) up to maxLoadStream bytes, more being an error
// (-load /dev/zero used to read until the process ran out of memory).
func readSaveFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		return os.ReadFile(path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxLoadStream+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxLoadStream {
		return nil, fmt.Errorf("not a regular file and holds more than %d MiB: not a save file (write a large save to a file)", maxLoadStream>>20)
	}
	return data, nil
}
