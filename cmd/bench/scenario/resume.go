package scenario

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
)

// Saving and resuming the scenarios (cmd/bench -save, -load): a scenario's world goes
// into a save file with the state of its systems that persists across frames
// (SaveStates); ResumeGuards and ResumeSwarm build the scenario again over the world in
// such a file. Call the result's Restore after initializing its systems.

// SaveStates returns the guard scenario's systems whose state persists across frames.
func (s *Guards) SaveStates() []save.State {
	return []save.State{s.PathQueue, s.Decision, s.Combat, s.Casualties}
}

// Registry is what loading a guard world needs: its trees and its own components.
func (s *Guards) Registry() save.Registry {
	return save.Registry{Trees: []*bt.Tree{s.GuardTree, s.IntruderTree},
		Components: []reflect.Type{reflect.TypeFor[Guard](), reflect.TypeFor[Intruder]()}}
}

// ResumeGuards builds the guard scenario of cfg (its Grid, or the map generated from
// its Seed and Agents, must be the saved run's) over the world saved in data, spawning
// nobody. Initialize its systems, then call the returned restore function. It returns
// the loader's error (see save.Load).
func ResumeGuards(cfg Config, data []byte) (*Guards, func() error, error) {
	cfg = cfg.defaults()
	g, err := cfg.gridOrGenerated()
	if err != nil {
		return nil, nil, err
	}
	world := arche.NewWorld()
	s, _, err := buildGuards(cfg, &world, g)
	if err != nil {
		return nil, nil, err
	}
	l, err := save.LoadInto(data, s.Registry(), &world)
	if err != nil {
		return nil, nil, err
	}
	return s, func() error { return l.Restore(s.SaveStates()...) }, nil
}

// SaveStates returns the swarm's systems whose state persists across frames.
func (s *Swarm) SaveStates() []save.State { return []save.State{s.Director, s.Flow} }

// ResumeSwarm builds the swarm of cfg over the world saved in data (see ResumeGuards).
func ResumeSwarm(cfg SwarmConfig, data []byte) (*Swarm, func() error, error) {
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	if err := cfg.defaults(); err != nil {
		return nil, nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g := cfg.Grid
	if g == nil {
		var err error
		if g, err = generateFor(cfg.Agents, cfg.Seed); err != nil {
			return nil, nil, err
		}
	}
	world := arche.NewWorld()
	s := buildSwarm(cfg, &world, g, workers, steer.Rand{}, grid.Cell{}) // the director's state comes from the file
	l, err := save.LoadInto(data, save.Registry{}, &world)
	if err != nil {
		return nil, nil, err
	}
	return s, func() error { return l.Restore(s.SaveStates()...) }, nil
}

// directorState is what a GoalDirector carries across frames.
type directorState struct {
	Goal  grid.Cell `json:"goal"`
	Moves int       `json:"moves"`
	Rand  uint64    `json:"rand"`
	Next  float64   `json:"next"` // simulation time of the next move
}

// SaveState returns the director's goal, random source and schedule as JSON.
func (d *GoalDirector) SaveState() (json.RawMessage, error) {
	return json.Marshal(directorState{Goal: d.Goal, Moves: d.Moves, Rand: d.rng.State, Next: d.next})
}

// LoadState restores what SaveState saved, after Initialize.
func (d *GoalDirector) LoadState(raw json.RawMessage) error {
	var st directorState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("director: %w", err)
	}
	if d.grid != nil && !d.grid.InBounds(st.Goal) {
		return fmt.Errorf("director: goal %v is off the map", st.Goal)
	}
	d.Goal, d.Moves, d.rng.State, d.next = st.Goal, st.Moves, st.Rand, st.Next
	return nil
}

// casualtiesState is the casualty totals.
type casualtiesState struct {
	GuardsDown    int `json:"guards_down"`
	IntrudersDown int `json:"intruders_down"`
}

// SaveState returns the casualty totals as JSON.
func (s *Casualties) SaveState() (json.RawMessage, error) {
	return json.Marshal(casualtiesState{s.GuardsDown, s.IntrudersDown})
}

// LoadState restores the casualty totals.
func (s *Casualties) LoadState(raw json.RawMessage) error {
	var st casualtiesState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("casualties: %w", err)
	}
	s.GuardsDown, s.IntrudersDown = st.GuardsDown, st.IntrudersDown
	return nil
}
