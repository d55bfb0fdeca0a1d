package save

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/jsonkeys"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	archeserde "github.com/mlange-42/arche-serde"
	arche "github.com/mlange-42/arche/ecs"
)

// errRecovered marks a panic caught in Load: the fuzz test fails on it.
var errRecovered = errors.New("recovered from a panic")

// MaxFrame is the largest Clock.Frame [Load] accepts: 2⁵³, 4.7 million years of
// frames at 60 Hz, far from where counting frames (and Time = Frame·DT) would overflow
// or lose precision; a file with a larger frame cannot be a run's, and its run could
// not advance.
const MaxFrame = 1 << 53

// Loaded is a world loaded by [Load], with what the file carried besides.
type Loaded struct {
	World *arche.World
	Meta  json.RawMessage // the caller's meta given to Save (nil if none)

	states  map[string]json.RawMessage
	leftOut []string // systems saved with Without

	clock       *ecs.Clock // the saved clock (nil: none)
	grid        *gridPrint // the saved grid's fingerprint (nil: none, or not recorded)
	gridChecked bool       // the file records the grid (null or a fingerprint): Restore checks it
	restored    bool       // Restore succeeded once
}

// Load builds a new world from a file written by [Save], resolving the IDs of trees,
// machines, reasoners and planner domains against reg (a planner's Name against reg.HTN
// or reg.GOAP, setting its cached Domain ID and Cache from that registry): the world has the saved entities (same IDs and
// generations, so entity references survive), their components (in the saved order, so
// queries visit them as the saved run did), the Clock resource, and a [systems.Arena]
// holding every buffer the components point to. Add the program's resources (the grid
// the save was made on, with the edits it had then) and systems to it, Initialize them,
// then call [Loaded.Restore] with the systems whose state was saved (with none if
// none was): it checks the grid too.
//
// Loading is all or nothing: it changes nothing of the caller's (the new world is
// returned only on success; reg is read only). It returns an error naming what and
// where, wrapping ErrFormat (truncated or not this format), ErrVersion, ErrType (a
// component type reg does not know), ErrEntities, ErrUnknownID (a tree, machine,
// reasoner or planner domain name not in reg), ErrDuplicateID (reg's tree, machine,
// reasoner or planner domain under a saved ID is not the one saved: the file records a
// fingerprint of each, see [Save]; files from before them are not checked; or reg
// lists two different ones under one name), ErrMemory (node memory that does not fit
// its tree, a plan or step that does not fit its domain: htn.Domain.CheckRun,
// goap.Domain.CheckRun) or
// ErrDomain (a value out of its domain: a Clock with a NaN, infinite or negative Time
// or DT, or started with DT 0, an unknown path state, a waypoint index past the
// path, a blackboard value of the wrong type, an arche.Entity past the saved pool in any
// field, array or slice of any component, archai's or reg.Components', a component's
// own [Checker] error, ...). It never panics on a bad file.
//
// Important: Load makes the new world itself, so nothing in reg can have been built on
// it. A machine, tree or reasoner whose hooks or leaves reach components through a
// generic.Map (or any handle of a world: a hybrid.TreeState's run function, a Spawner)
// built on the world that was saved still reads and writes that world after Load: the
// loaded agents then run on the old world's components, silently (newbie18: every
// agent ended elsewhere, by up to 68 cells, with Load and Restore returning nil and the
// hash at load equal). Load cannot tell: the world a hook's closure holds is not
// visible to it. Build such machines, trees and spawners on a new world and call
// [LoadInto] with it; use Load only when the registry's hooks and leaves hold no world
// (they use the fsm.Context, bt.Context and the blackboard alone).
func Load(data []byte, reg Registry) (*Loaded, error) {
	world := arche.NewWorld()
	return LoadInto(data, reg, &world)
}

// LoadInto is [Load] into w, a world the caller made for it, with no entity yet: its
// resources (the grid) and what the caller built over it (trees whose leaves hold
// component maps of w, spawners) are kept; a Clock resource is overwritten. If w has a
// *grid.Grid, it is checked first: a grid of another size or other costs than the saved
// one's (another map, or the map without the edits the saved run had made: a door
// closed) is an error wrapping ErrGridMismatch naming both, as is a grid when the saved
// world had none; a file written before grids were fingerprinted is not checked. On
// error w is left half-filled: discard it (the caller's running world is another).
//
// It panics if w has entities (never created one): that is the caller's mistake, not
// the file's.
func LoadInto(data []byte, reg Registry, w *arche.World) (l *Loaded, err error) {
	if d := w.DumpEntities(); len(d.Entities) > 1 || d.Available > 0 {
		panic("save: LoadInto needs a world that never had an entity")
	}
	defer func() {
		if r := recover(); r != nil { // a check missed something: still an error, not a crash
			l, err = nil, fmt.Errorf("load: %w: %w: %v", ErrFormat, errRecovered, r)
		}
	}()
	f, err := readFile(data)
	if err != nil {
		return nil, err
	}
	if err := duplicateKey(data); err != nil {
		return nil, err
	}
	ld := &loading{w: w}
	if err := ld.head(&f, reg); err != nil {
		return nil, err
	}
	if err := ld.count(len(f.Components)); err != nil {
		return nil, err
	}
	if err := ld.types(&f, reg); err != nil {
		return nil, err
	}
	if err := ld.clock(&f); err != nil {
		return nil, err
	}
	for i, raw := range f.Components {
		f.Components[i] = nil // the decoded entity takes the place of its text as the loop goes
		if err := ld.entity(i, raw); err != nil {
			return nil, err
		}
	}
	if err := ld.targets(&f, len(f.Components)); err != nil {
		return nil, err
	}
	return ld.done(&f), nil
}

// loading is a load under way, in the steps LoadInto (and LoadIntoFrom) takes: head
// (the format, version, grid and entity pool), count, types, clock, each entity, targets,
// done. Each returns Load's error of that step.
type loading struct {
	w           *arche.World
	r           *resolver
	d           *decoder
	pool        arche.EntityDump
	typeOf      []reflect.Type // by index in the file's types
	idOf        []arche.ID
	savedGrid   *gridPrint
	gridChecked bool
	savedClock  *ecs.Clock // a copy: the world's Clock changes as the run goes on

	compIDs []arche.ID // reused by entity
	values  []reflect.Value
	idx     []int
}

// head checks the format, version and grid of f and parses and checks its entity pool.
func (ld *loading) head(f *file, reg Registry) error {
	if f.Format != Format {
		return fmt.Errorf("load: %w: format %q, want %q", ErrFormat, f.Format, Format)
	}
	if f.Version != Version {
		return fmt.Errorf("load: %w: version %d, this loader reads %d", ErrVersion, f.Version, Version)
	}
	var err error
	ld.savedGrid, ld.gridChecked, err = parseGrid(f.Grid)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if g := ecs.Resource[grid.Grid](ld.w); g != nil && ld.gridChecked {
		if err := checkGrid("load", ld.savedGrid, g); err != nil { // fail before building anything
			return err
		}
	}
	if ld.r, err = newResolver(reg); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	ld.r.prints = f.Definitions

	// entities: check the pool before arche-serde loads it (Arche panics on a bad one)
	var doc struct {
		World arche.EntityDump
	}
	if err := json.Unmarshal(f.World, &doc); err != nil {
		return fmt.Errorf("load: world: %w: %v", ErrFormat, err)
	}
	if err := checkPool(&doc.World); err != nil {
		return fmt.Errorf("load: world: %w", err)
	}
	ld.pool = doc.World
	ld.r.pool = len(ld.pool.Entities)
	ld.d = &decoder{schema: reg.Schema}
	return nil
}

// count checks that the file holds the components of n entities, one per alive one.
func (ld *loading) count(n int) error {
	if n != len(ld.pool.Alive) {
		return fmt.Errorf("load: %w: components of %d entities for %d alive", ErrEntities, n, len(ld.pool.Alive))
	}
	return nil
}

// types finds the file's component types among archai's and reg's and loads the pool.
func (ld *loading) types(f *file, reg Registry) error {
	w := ld.w
	known := map[string]reflect.Type{}
	for _, t := range slices.Concat(archaiTypes, reg.Components) {
		known[typeName(t)] = t
	}
	ids := map[string]arche.ID{}
	ld.typeOf = make([]reflect.Type, len(f.Types)) // by index in Types
	ld.idOf = make([]arche.ID, len(f.Types))
	if len(f.Types) > arche.MaskTotalBits {
		return fmt.Errorf("load: %w: %d component types", ErrFormat, len(f.Types))
	}
	for i, name := range f.Types {
		t, ok := known[name]
		if !ok {
			return fmt.Errorf("load: types[%d]: %w: %s (add it to Registry.Components)", i, ErrType, name)
		}
		if _, dup := ids[name]; dup {
			return fmt.Errorf("load: types[%d]: %w: %s twice", i, ErrFormat, name)
		}
		ids[name] = arche.TypeID(w, t)
		ld.typeOf[i], ld.idOf[i] = t, ids[name]
	}
	if err := archeserde.Deserialize(f.World, w, archeserde.Opts.SkipAllComponents(), archeserde.Opts.SkipAllResources()); err != nil {
		return fmt.Errorf("load: world: %w: %v", ErrFormat, err)
	}
	return nil
}

// clock checks f's Clock, if it holds one, and sets it in the world.
func (ld *loading) clock(f *file) error {
	if f.Clock == nil {
		return nil
	}
	var c ecs.Clock
	if err := decodeRaw(&decoder{}, reflect.ValueOf(&c).Elem(), f.Clock, "Clock"); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if err := checkClock(&c); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	ecs.SetClock(ld.w, c) // a ClockSystem initialized in w goes on from it
	saved := c
	ld.savedClock = &saved
	return nil
}

// entity decodes, checks and adds the components of the i-th alive entity, raw (its
// element of the file's components). i is below the pool's alive count.
func (ld *loading) entity(i int, raw json.RawMessage) error {
	w, d, r, typeOf, idOf := ld.w, ld.d, ld.r, ld.typeOf, ld.idOf
	e := ld.pool.Entities[ld.pool.Alive[i]]
	where := fmt.Sprintf("entity %d (components[%d])", e.ID(), i)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("load: %s: %w: %v", where, ErrFormat, err)
	}
	idx, bad, isBad := ld.idx[:0], "", false
	for key := range m {
		k, err := strconv.Atoi(key)
		if err != nil || k < 0 || k >= len(typeOf) || strconv.Itoa(k) != key {
			if !isBad || key < bad { // the same key named at every load: the first by name
				bad, isBad = key, true
			}
			continue
		}
		idx = append(idx, k)
	}
	if isBad {
		ld.idx = idx
		return fmt.Errorf("load: %s: %w: component key %q is no index in the file's %d types", where, ErrFormat, bad, len(typeOf))
	}
	slices.Sort(idx) // errors name the same component whatever the map's order
	ld.idx = idx
	compIDs, values := ld.compIDs[:0], ld.values[:0]
	defer func() { clear(values); ld.compIDs, ld.values = compIDs, values }()
	r.where, r.at = where, i
	for _, k := range idx {
		t, id := typeOf[k], idOf[k]
		v := reflect.New(t).Elem()
		if err := decodeRaw(d, v, m[strconv.Itoa(k)], shortName(t)); err != nil {
			return fmt.Errorf("load: %s: %w", where, err)
		}
		if err := r.check(v, shortName(t)); err != nil {
			return fmt.Errorf("load: %s: %w", where, err)
		}
		compIDs = append(compIDs, id)
		values = append(values, v)
	}
	if len(compIDs) == 0 {
		return nil
	}
	w.Add(e, compIDs...)
	for k, id := range compIDs {
		reflect.NewAt(values[k].Type(), w.Get(e, id)).Elem().Set(values[k]) // typed: the collector sees it
	}
	return nil
}

// targets sets the targets of the relation components of the file's entities (of
// which there are entities).
func (ld *loading) targets(f *file, entities int) error {
	w, typeOf, idOf := ld.w, ld.typeOf, ld.idOf
	for i, t := range f.Targets {
		where := fmt.Sprintf("load: targets[%d]", i)
		if t.Entity < 0 || t.Entity >= entities || t.Type < 0 || t.Type >= len(typeOf) {
			return fmt.Errorf("%s: %w: entity %d of %d, type %d of %d", where, ErrFormat, t.Entity, entities, t.Type, len(typeOf))
		}
		e, id := ld.pool.Entities[ld.pool.Alive[t.Entity]], idOf[t.Type]
		if info, _ := arche.ComponentInfo(w, id); !info.IsRelation || !w.Has(e, id) {
			return fmt.Errorf("%s: %w: entity %d has no relation component %s", where, ErrFormat, e.ID(), shortName(typeOf[t.Type]))
		}
		// Alive indexes the pool, and calls the reserved zero entity (0, generation
		// 4294967295) alive: Save writes no target for a relation to the zero entity.
		// uint: an ID over 2³¹ is not negative on 32-bit.
		if t.Target.ID() == 0 || uint(t.Target.ID()) >= uint(len(ld.pool.Entities)) || !w.Alive(t.Target) {
			return fmt.Errorf("%s: %w: the target of entity %d's %s, entity %d (generation %d), is not alive", where, ErrEntities, e.ID(), shortName(typeOf[t.Type]), t.Target.ID(), t.Target.Generation())
		}
		w.Relations().Set(e, id, t.Target)
	}
	return nil
}

// done ends the load: the arena holds the loaded buffers, and the world records the
// states to restore.
func (ld *loading) done(f *file) *Loaded {
	w := ld.w
	systems.ArenaOf(w).HoldAll(w)
	if len(f.Systems) > 0 { // Diagnose tells a load never restored (Report.Unrestored)
		names := slices.Sorted(maps.Keys(f.Systems))
		if rp := ecs.Resource[systems.RestorePending](w); rp != nil {
			rp.States = names
		} else {
			arche.AddResource(w, &systems.RestorePending{States: names})
		}
	}
	return &Loaded{World: w, Meta: f.Meta, states: f.Systems, leftOut: f.LeftOut, clock: ld.savedClock, grid: ld.savedGrid, gridChecked: ld.gridChecked}
}

// checkClock returns an error wrapping ErrDomain, naming the field, for a Clock no run
// can have: Frame outside 0..MaxFrame, Time or DT NaN, infinite or negative, or a
// started clock (Started) whose DT is 0.
func checkClock(c *ecs.Clock) error {
	switch {
	case c.Frame < 0 || c.Frame > MaxFrame:
		return fmt.Errorf("Clock.Frame: %d outside 0..%d (save.MaxFrame): %w", c.Frame, int64(MaxFrame), ErrDomain)
	case !(c.Time >= 0) || math.IsInf(c.Time, 1):
		return fmt.Errorf("Clock.Time: %v, not a finite number of seconds ≥ 0: %w", c.Time, ErrDomain)
	case !(c.DT >= 0) || math.IsInf(c.DT, 1):
		return fmt.Errorf("Clock.DT: %v, not a finite number of seconds ≥ 0: %w", c.DT, ErrDomain)
	case c.Started && c.DT == 0:
		return fmt.Errorf("Clock.DT: 0 in a started clock (frame %d): a run steps dt > 0 (ecs.CheckDT): %w", c.Frame, ErrDomain)
	}
	return nil
}

// ReadMeta returns the caller's meta of a save file (see [Save]) without loading the
// world: what a program needs to know to build the world's resources and trees before
// [LoadInto] (the grid's edits: a file holds only the grid's fingerprint; see the
// example "GridEdits"). It returns an error wrapping ErrFormat or ErrVersion as Load
// does.
func ReadMeta(data []byte) (json.RawMessage, error) {
	h, err := readHead(data)
	return h.Meta, err
}

// ReadClock returns the Clock a save file holds, without loading the world, and
// whether it holds one (false: the saved world had no Clock resource): the frame and
// time a program needs to rebuild what it keyed to them (a door scripted to open at
// frame 300) before [LoadInto]. The Clock describes the last frame the saved run ran
// (see ecs.Clock: after N Updates, Frame N−1). Like [ReadMeta] it parses the document
// without building the world: about a tenth of Load's time (a 15 MB file of 20,000
// agents: 0.36 to 0.63 s against 4 to 11 s, on a busy 2-core machine). It returns an
// error wrapping ErrFormat or ErrVersion as Load does, and one wrapping ErrDomain for a
// Clock no run can have (as Load).
func ReadClock(data []byte) (ecs.Clock, bool, error) {
	h, err := readHead(data)
	if err != nil || h.Clock == nil {
		return ecs.Clock{}, false, err
	}
	var c ecs.Clock
	if err := decodeRaw(&decoder{}, reflect.ValueOf(&c).Elem(), h.Clock, "Clock"); err != nil {
		return ecs.Clock{}, false, fmt.Errorf("load: %w", err)
	}
	if err := checkClock(&c); err != nil {
		return ecs.Clock{}, false, fmt.Errorf("load: %w", err)
	}
	return c, true, nil
}

// head is what ReadMeta and ReadClock read of a file.
type head struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Meta    json.RawMessage `json:"meta"`
	Clock   json.RawMessage `json:"clock"`
}

// readHead reads a file's format, version, meta and clock, checking the first two.
func readHead(data []byte) (head, error) {
	var h head
	if err := json.Unmarshal(data, &h); err != nil {
		return head{}, fmt.Errorf("load: %w: %v", ErrFormat, err)
	}
	if err := duplicateKey(data); err != nil {
		return head{}, err
	}
	if h.Format != Format {
		return head{}, fmt.Errorf("load: %w: format %q, want %q", ErrFormat, h.Format, Format)
	}
	if h.Version != Version {
		return head{}, fmt.Errorf("load: %w: version %d, this loader reads %d", ErrVersion, h.Version, Version)
	}
	return h, nil
}

// duplicateKey refuses a document (one encoding/json parsed) with an object holding a
// key twice: encoding/json keeps the last silently, so an edited or badly merged file
// would load another world than the one it shows. Keys compare exactly, but in the
// objects encoding/json decodes into structs (the document, definitions, grid, targets'
// elements, world and its entity pool: it matches their fields by any case, "Format"
// sets format) they compare by any case. The maps inside them (definitions' trees,
// machines, ... by ID, world's resources) match keys exactly, as do the components'
// values, decoded by this package, and the systems' states by name: there keys equal but
// for case are data (trees "patrol" and "Patrol" are two IDs).
func duplicateKey(data []byte) error {
	at, key, dup := jsonkeys.Duplicate(data, foldedKeys)
	if !dup {
		return nil
	}
	return fmt.Errorf("load: %w: %s holds the key %q twice", ErrFormat, orDocument(at), key)
}

// foldedKeys reports whether the object at p of a save file is one encoding/json
// decodes into a struct, matching its keys by any case (see duplicateKey).
func foldedKeys(p jsonkeys.Path) bool {
	if len(p) == 0 {
		return true
	}
	if p[0].Array {
		return false
	}
	switch strings.ToLower(p[0].Key) {
	case "definitions", "grid": // a struct of maps by ID; the grid's fingerprint
		return len(p) == 1
	case "targets": // an array of structs
		return len(p) == 2 && p[1].Array
	case "world": // arche-serde's document and its entity pool (World)
		return len(p) == 1 || len(p) == 2 && !p[1].Array && strings.EqualFold(p[1].Key, "World")
	}
	return false
}

// orDocument is p as an error names it: "the document" for the top.
func orDocument(p jsonkeys.Path) string {
	if len(p) == 0 {
		return "the document"
	}
	return p.String()
}

// worldBound is a State that tells the world it was initialized on.
type worldBound interface{ InitializedWorld() *arche.World }

// Restore loads the saved state of each of states (initialized on the loaded world)
// by its Name. It first checks the loaded world's *grid.Grid against the fingerprint
// the file records (see [LoadInto]) and returns an error wrapping ErrGridMismatch,
// restoring nothing, if it is not the saved one (or missing): call Restore, with no
// states if the file has none, once the grid is added. It returns an error wrapping
// ErrState, restoring nothing, if a state has no entry in the file (and was not saved as
// left out with [Without]) or the file holds the state of a system not given (the run
// would not continue as saved), and one wrapping ErrStateLeftOut (a kind of ErrState)
// naming them if l.World runs archai systems whose state persists across frames
// (systems.StatefulSystems: initialized on l.World and not finalized) that are neither
// given nor saved as left out; give Without(sys) to start one afresh. It returns a
// state's own error (wrapping systems.ErrNotInitialized for a system not yet
// initialized, or initialized on another world than l.World, such as the saved one:
// call Initialize on l.World first), a state's error, or one for a nil state or two of
// one Name.
//
// Restore succeeds once: a second call returns an error wrapping ErrState (it would set
// the systems back to the saved frame while the world went on); a Restore that failed
// restores nothing and may be called again.
//
// A nil Restore means that each archai system l.World runs has its saved state back (or
// was left out on purpose, as the file records) and so has every State the file holds;
// systems.StateHash, equal at load to the saved world's, covers the entities, their
// components and the clock, not the systems' state. A program's own system left out of
// both Save and Restore is the one gap neither can see.
//
// A ClockSystem of another step than the saved clock's may run the loaded world (a game
// with a variable step saves the last frame's): the next frame's Time is where the saved
// frame ended (its Time plus its DT), and each frame then steps the new DT (see
// ecs.ClockSystem). Only the saved step continues the run exactly as the saved one.
//
// A program that never calls Restore loses the systems' saved state: the path queue's
// waiting requests, for one. The PathQueue then asks again for every pending path
// (PathQueue.Requeued; before its first Update, systems.Diagnose counts those agents as
// path_not_queued), so agents still get their paths, but the run no longer continues
// as the saved one would have.
func (l *Loaded) Restore(states ...State) error {
	if l.restored {
		return fmt.Errorf("restore: %w: already restored: a second Restore would set the systems back to the saved frame while the world has gone on (load the file again to start over from it)", ErrState)
	}
	if l.gridChecked {
		if err := checkGrid("restore", l.grid, ecs.Resource[grid.Grid](l.World)); err != nil {
			return err
		}
	}
	given, err := stateNames(states, "restore")
	if err != nil {
		return err
	}
	// check every name before restoring any state, so that an error restores nothing
	for _, s := range states {
		if _, ok := s.(without); ok {
			continue
		}
		if b, ok := s.(worldBound); ok && b.InitializedWorld() != nil && b.InitializedWorld() != l.World {
			return fmt.Errorf("restore: state of %q: %w: %w: the system was initialized on another world than the loaded one (Initialize it on Loaded.World first)", s.Name(), ErrState, systems.ErrNotInitialized)
		}
		if _, ok := l.states[s.Name()]; !ok && !slices.Contains(l.leftOut, s.Name()) {
			return fmt.Errorf("restore: %w: the file has no state for %q (saved without it, or before the system had state to save: Restore(save.Without(sys)) starts it afresh, and the run no longer continues as the saved one)", ErrState, s.Name())
		}
	}
	for _, name := range slices.Sorted(maps.Keys(l.states)) {
		if _, ok := given[name]; !ok {
			return fmt.Errorf("restore: %w: the file holds the state of %q, not restored", ErrState, name)
		}
	}
	if err := leftOutError(systems.StatefulSystems(l.World), func(n string) bool {
		_, ok := given[n]
		return ok || slices.Contains(l.leftOut, n)
	}, "restore", "not given to Restore and not saved as left out (save.Without)",
		"give each of them to Restore (if the file holds no state for one, it was saved without it: Restore(save.Without(sys)) starts it afresh, and the run no longer continues as the saved one)"); err != nil {
		return err
	}
	for _, s := range states {
		raw, ok := l.states[s.Name()]
		if _, isWithout := s.(without); isWithout || !ok { // left out, on purpose
			continue
		}
		if err := s.LoadState(raw); err != nil {
			return fmt.Errorf("restore: state of %q: %w: %w", s.Name(), ErrState, err)
		}
	}
	if id := arche.ResourceID[systems.RestorePending](l.World); l.World.Resources().Has(id) {
		l.World.Resources().Remove(id)
	}
	l.restored = true
	return nil
}

// streamAbove is the size of a value's JSON above which decodeRaw decodes it token by
// token (decodeStream) instead of parsing it whole first: a parsed value takes 20 to 70
// times its text (a map per object, an interface per element), and a file must not choose
// gigabytes with one long slice (a path of 10 million waypoints, 30 MB of "{}," took
// 1.2 GB). Smaller values keep the faster parse.
var streamAbove = 64 << 10

// decodeRaw parses raw (numbers kept as text) and decodes it into v.
func decodeRaw(d *decoder, v reflect.Value, raw json.RawMessage, path string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	d.path.at(path)
	if len(raw) > streamAbove {
		return d.decodeStream(v, dec)
	}
	var x any
	if err := dec.Decode(&x); err != nil {
		return fmt.Errorf("%s: %w: %v", path, ErrFormat, err)
	}
	return d.decode(v, x)
}

func shortName(t reflect.Type) string { return t.String() }

// checkPool checks what Arche's LoadEntities and later entity creation rely on.
func checkPool(p *arche.EntityDump) error {
	n := len(p.Entities)
	if n == 0 {
		return fmt.Errorf("%w: no entities (not even the reserved zero entity)", ErrEntities)
	}
	// Arche's Alive compares generations only: a zero entity of generation 0 would make
	// the zero entity, which every unset entity field holds, alive.
	if z := p.Entities[0]; z.ID() != 0 || z.Generation() != math.MaxUint32 {
		return fmt.Errorf("%w: entities[0] is entity %d of generation %d, not the reserved zero entity (0, generation %d)", ErrEntities, z.ID(), z.Generation(), uint32(math.MaxUint32))
	}
	alive := make([]bool, n)
	for i, idx := range p.Alive {
		if idx == 0 || int(idx) >= n {
			return fmt.Errorf("%w: alive[%d] = %d, outside 1..%d", ErrEntities, i, idx, n-1)
		}
		if alive[idx] {
			return fmt.Errorf("%w: entity %d alive twice", ErrEntities, idx)
		}
		alive[idx] = true
		if e := p.Entities[idx]; int(e.ID()) != int(idx) {
			return fmt.Errorf("%w: entities[%d] has ID %d", ErrEntities, idx, e.ID())
		}
	}
	// the free list: Available entities chained through their ID fields from Next
	next := p.Next
	seen := map[uint32]bool{}
	for k := uint32(0); k < p.Available; k++ {
		if next == 0 || int(next) >= n || alive[next] || seen[next] {
			return fmt.Errorf("%w: free list entry %d is %d (next %d, %d available)", ErrEntities, k, next, p.Next, p.Available)
		}
		seen[next] = true
		next = uint32(p.Entities[next].ID())
	}
	// An entity neither alive nor free would be alive to Alive (its generation matches)
	// with no place in the world: Has and Get on it dereference nil.
	if int(p.Available)+len(p.Alive) != n-1 {
		return fmt.Errorf("%w: %d alive and %d free of %d entities: each entity but the reserved zero entity is one or the other", ErrEntities, len(p.Alive), p.Available, n-1)
	}
	return nil
}

// resolver finds IDs in the registry and checks components' domains.
type resolver struct {
	trees     map[string]*bt.Tree
	machines  map[string]*fsm.Machine
	reasoners map[string]*utility.Reasoner
	htn       *htn.Registry
	goap      *goap.Registry
	pool      int          // entities in the pool: references must be below
	prints    *definitions // the file's fingerprints (nil in files from before them)
	matched   map[string]bool
	holds     map[reflect.Type]bool

	// deferred: the file's fingerprints are not read yet (LoadFrom reads them after
	// the components, where Save writes them): sameAsSaved records the first use of
	// each ID, with the entity (where, at) it was met in, for checkUses.
	deferred bool
	where    string
	at       int
	uses     []printUse
}

// printUse is an ID whose fingerprint check waits for the file's fingerprints.
type printUse struct {
	where, field, kind, id string
	at                     int // the entity's index in the file's components
	x                      any
}

// checkUses checks the fingerprints of the uses recorded in entities up to upTo (the
// index of an entity in the file's components), in the order they were met, with
// prints, the file's; it returns the first mismatch as Load would have at that entity.
func (r *resolver) checkUses(prints *definitions, upTo int) error {
	r.deferred, r.prints, r.matched = false, prints, nil
	for _, u := range r.uses {
		if u.at > upTo {
			break
		}
		if err := r.sameAsSaved(u.field, u.kind, u.id, u.x); err != nil {
			return fmt.Errorf("load: %s: %w", u.where, err)
		}
	}
	return nil
}

// newResolver indexes reg by ID. It returns an error wrapping ErrDuplicateID if reg
// holds two different trees (machines, reasoners) under one name (which the saved
// agents ran cannot be told), or a nil one.
func newResolver(reg Registry) (*resolver, error) {
	r := &resolver{trees: map[string]*bt.Tree{}, machines: map[string]*fsm.Machine{}, reasoners: map[string]*utility.Reasoner{},
		htn: reg.HTN, goap: reg.GOAP}
	for i, t := range reg.Trees {
		if t == nil {
			return nil, fmt.Errorf("Registry.Trees[%d] is nil", i)
		}
		if err := index(r.trees, t.Name(), t, "tree", "Trees", i); err != nil {
			return nil, err
		}
	}
	for i, m := range reg.Machines {
		if m == nil {
			return nil, fmt.Errorf("Registry.Machines[%d] is nil", i)
		}
		if err := index(r.machines, m.MachineName(), m, "machine", "Machines", i); err != nil {
			return nil, err
		}
	}
	for i, x := range reg.Reasoners {
		if x == nil {
			return nil, fmt.Errorf("Registry.Reasoners[%d] is nil", i)
		}
		if err := index(r.reasoners, x.Name(), x, "reasoner", "Reasoners", i); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// index adds x under name to m, or returns an error wrapping ErrDuplicateID if m holds
// another under name (the same one listed twice is fine).
func index[T comparable](m map[string]T, name string, x T, kind, field string, i int) error {
	if prev, ok := m[name]; ok && prev != x {
		return fmt.Errorf("Registry.%s[%d]: %w: a second %s named %q: a registry holds one definition per name", field, i, ErrDuplicateID, kind, name)
	}
	m[name] = x
	return nil
}

// sameAsSaved returns an error wrapping ErrDuplicateID if the file records a fingerprint
// of the kind ("tree", ...) named id and x, the registry's under that ID, has another:
// the saved agents ran another definition than the one they would get. A file without
// fingerprints (from before them), or without one for id, is not checked. Each ID is
// compared once.
func (r *resolver) sameAsSaved(field, kind, id string, x any) error {
	if r.prints == nil && !r.deferred {
		return nil
	}
	key := kind + "\x00" + id
	if r.matched[key] {
		return nil
	}
	if r.deferred {
		if r.matched == nil {
			r.matched = map[string]bool{}
		}
		r.matched[key] = true
		r.uses = append(r.uses, printUse{where: r.where, field: field, kind: kind, id: id, at: r.at, x: x})
		return nil
	}
	saved, ok := r.prints.of(kind, false)[id]
	if !ok {
		return nil
	}
	if now := printOf(x); now != saved {
		return fmt.Errorf("%s: %s %q: %w: the registry's %s %q (%s) is not the one the save was made with (%s): load with the same definition, or give the new one another name", field, kind, id, ErrDuplicateID, kind, id, now, saved)
	}
	if m, ok := x.(*fsm.Machine); ok {
		if err := r.prints.sameStates(field, id, m); err != nil {
			return err
		}
	}
	if r.matched == nil {
		r.matched = map[string]bool{}
	}
	r.matched[key] = true
	return nil
}

func (r *resolver) entity(e arche.Entity, path string) error {
	if !e.IsZero() && int64(e.ID()) >= int64(r.pool) { // int64: an ID over 2³¹ is not negative on 32-bit
		return fmt.Errorf("%s: entity %d is past the pool of %d: %w", path, e.ID(), r.pool, ErrDomain)
	}
	return nil
}

func keys[V any](m map[string]V) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, fmt.Sprintf("%q", k))
	}
	slices.Sort(ks)
	return "[" + strings.Join(ks, " ") + "]"
}

func quoted(names []string) string {
	qs := make([]string, len(names))
	for i, n := range names {
		qs[i] = strconv.Quote(n)
	}
	return "[" + strings.Join(qs, " ") + "]"
}

// check resolves the IDs of a decoded component (setting its cached pointer and
// interning its ID) and checks its values' domains, then checks every arche.Entity it
// holds (in fields, arrays and slices, at any depth, of any component type: archai's
// and the program's) against the pool, then the values Save checks too (checkValue).
func (r *resolver) check(v reflect.Value, path string) error {
	if err := r.checkKnown(v, path); err != nil {
		return err
	}
	if err := r.entities(v, path); err != nil {
		return err
	}
	return checkValue(v.Addr().Interface(), path)
}

var entityType = reflect.TypeFor[arche.Entity]()

// entities checks every arche.Entity in v (see [resolver.check]); path names v.
func (r *resolver) entities(v reflect.Value, path string) error {
	if !r.holdsEntity(v.Type()) {
		return nil
	}
	if v.Type() == entityType {
		e := *(*arche.Entity)(unsafe.Pointer(v.UnsafeAddr())) // v is addressable (decoded into reflect.New); this also reads unexported fields
		return r.entity(e, path)
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if err := r.entities(v.Field(i), path+"."+v.Type().Field(i).Name); err != nil {
				return err
			}
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			if err := r.entities(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return r.entities(v.Elem(), path)
		}
	}
	return nil
}

// holdsEntity reports whether values of t can hold an arche.Entity (memoized by type;
// pointers are followed once, so recursive types end).
func (r *resolver) holdsEntity(t reflect.Type) bool {
	if h, ok := r.holds[t]; ok {
		return h
	}
	if r.holds == nil {
		r.holds = map[reflect.Type]bool{}
	}
	r.holds[t] = false // while deciding: a recursive type does not hold one through itself
	h := t == entityType
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField() && !h; i++ {
			h = r.holdsEntity(t.Field(i).Type)
		}
	case reflect.Array, reflect.Slice, reflect.Pointer:
		h = r.holdsEntity(t.Elem())
	}
	r.holds[t] = h
	return h
}

// stateOf returns saved, a StateMachine.Memory's Active or Previous, as a state of m
// (or None), and whether it is one. A file written before StateIDs carried their
// machine's tag (fsm.StateID) holds the state's index alone: 1 to m.Len() without a
// tag is taken as m's state of that index (the fingerprint says the machine is the
// same). Another machine's state, or an index out of range, is not one.
func stateOf(m *fsm.Machine, saved fsm.StateID) (fsm.StateID, bool) {
	switch {
	case saved == fsm.None || m.Has(saved):
		return saved, true
	case saved <= 0xffff && m.State(int(saved)) != fsm.None:
		return m.State(int(saved)), true
	}
	return saved, false
}

// checkKnown resolves and checks the components archai knows (see [resolver.check]).
func (r *resolver) checkKnown(v reflect.Value, path string) error {
	switch c := v.Addr().Interface().(type) {
	case *components.Brain:
		if c.ID == "" {
			if c.Memory.Len() > 0 {
				return fmt.Errorf("%s: node memory of %d nodes but no tree ID: %w", path, c.Memory.Len(), ErrMemory)
			}
			return nil
		}
		t, ok := r.trees[c.ID]
		if !ok {
			return fmt.Errorf("%s.ID: tree %q: %w (save.Registry.Trees has %s)", path, c.ID, ErrUnknownID, keys(r.trees))
		}
		if c.MemoryOf != "" { // a swap pending at the save: the memory is the old tree's
			old, ok := r.trees[c.MemoryOf]
			if !ok {
				return fmt.Errorf("%s.MemoryOf: tree %q: %w (save.Registry.Trees has %s)", path, c.MemoryOf, ErrUnknownID, keys(r.trees))
			}
			if err := old.Adopt(&c.Memory); err != nil {
				return fmt.Errorf("%s.Memory: %w: %v", path, ErrMemory, err)
			}
			if err := r.sameAsSaved(path+".MemoryOf", "tree", c.MemoryOf, old); err != nil {
				return err
			}
			c.MemoryOf = ""
		} else if c.Memory.Len() > 0 {
			if err := t.CheckMemory(c.Memory); err != nil {
				return fmt.Errorf("%s.Memory: %w: %v", path, ErrMemory, err)
			}
		}
		if err := r.sameAsSaved(path+".ID", "tree", c.ID, t); err != nil {
			return err
		}
		c.ID, c.Tree = t.Name(), t
	case *components.StateMachine:
		if c.ID == "" {
			if c.Memory != (fsm.Memory{}) {
				return fmt.Errorf("%s: a state but no machine ID: %w", path, ErrDomain)
			}
			return nil
		}
		m, ok := r.machines[c.ID]
		if !ok {
			return fmt.Errorf("%s.ID: machine %q: %w (save.Registry.Machines has %s)", path, c.ID, ErrUnknownID, keys(r.machines))
		}
		active, okA := stateOf(m, c.Memory.Active)
		previous, okP := stateOf(m, c.Memory.Previous)
		if !okA || !okP {
			return fmt.Errorf("%s.Memory: state %s or %s of machine %q of %d states: %w", path,
				m.Name(c.Memory.Active), m.Name(c.Memory.Previous), m.MachineName(), m.Len(), ErrDomain)
		}
		c.Memory.Active, c.Memory.Previous = active, previous
		if err := r.sameAsSaved(path+".ID", "machine", c.ID, m); err != nil {
			return err
		}
		c.ID, c.Machine = m.MachineName(), m
	case *components.UtilityBrain:
		if c.ID == "" {
			if c.State.Scores != nil {
				return fmt.Errorf("%s: scores but no reasoner ID: %w", path, ErrDomain)
			}
			return nil
		}
		x, ok := r.reasoners[c.ID]
		if !ok {
			return fmt.Errorf("%s.ID: reasoner %q: %w (save.Registry.Reasoners has %s)", path, c.ID, ErrUnknownID, keys(r.reasoners))
		}
		if c.State.Scores != nil || c.State.Considerations != nil {
			fresh := x.NewState()
			if len(c.State.Scores) != len(fresh.Scores) || len(c.State.Considerations) != len(fresh.Considerations) {
				return fmt.Errorf("%s.State: %d scores and %d considerations, the reasoner has %d and %d: %w", path,
					len(c.State.Scores), len(c.State.Considerations), len(fresh.Scores), len(fresh.Considerations), ErrDomain)
			}
		}
		for _, ch := range []int{c.State.Choice, c.State.Previous} {
			if ch < utility.None || ch >= x.Len() {
				return fmt.Errorf("%s.State: choice %d of %d actions: %w", path, ch, x.Len(), ErrDomain)
			}
		}
		if err := r.sameAsSaved(path+".ID", "reasoner", c.ID, x); err != nil {
			return err
		}
		c.ID, c.Reasoner = x.Name(), x
	case *components.HTNPlanner:
		c.Domain, c.Cache = 0, nil
		if c.Name == "" {
			if c.Run.Plan.Len != 0 || c.Run.Step != 0 {
				return fmt.Errorf("%s: a plan but no domain name: %w", path, ErrMemory)
			}
			return nil
		}
		d, id := r.htn.Resolve(c.Name, 0)
		if d == nil {
			return fmt.Errorf("%s.Name: HTN domain %q: %w (save.Registry.HTN has %s)", path, c.Name, ErrUnknownID, quoted(r.htn.Names()))
		}
		if err := r.sameAsSaved(path+".Name", "htn", c.Name, d); err != nil {
			return err
		}
		if err := d.CheckRun(&c.Run); err != nil {
			return fmt.Errorf("%s.Run: %w: %v", path, ErrMemory, err)
		}
		c.Name, c.Domain, c.Cache = d.Name(), id, d
	case *components.GOAPPlanner:
		c.Domain, c.Cache = 0, nil
		if c.Name == "" {
			if c.Run.Plan.Len != 0 || c.Run.Step != 0 {
				return fmt.Errorf("%s: a plan but no domain name: %w", path, ErrMemory)
			}
			return nil
		}
		d, id := r.goap.Resolve(c.Name, 0)
		if d == nil {
			return fmt.Errorf("%s.Name: GOAP domain %q: %w (save.Registry.GOAP has %s)", path, c.Name, ErrUnknownID, quoted(r.goap.Names()))
		}
		if err := r.sameAsSaved(path+".Name", "goap", c.Name, d); err != nil {
			return err
		}
		if err := d.CheckRun(&c.Run); err != nil {
			return fmt.Errorf("%s.Run: %w: %v", path, ErrMemory, err)
		}
		c.Name, c.Domain, c.Cache = d.Name(), id, d
	}
	return nil
}

// checkValue checks the values of component *p (p points to it) that [Save] and
// [Load] both refuse, so that a world Save writes loads: in archai's components, a
// Path.State, Intent.Mode or Desired.Mode past its type's last constant and a
// Path.Next below 0 (an error wrapping ErrDomain naming the field); then, for a
// type that implements [Checker], its Check (its error wrapped with ErrDomain).
// path names the component ("components.Path").
func checkValue(p any, path string) error {
	switch c := p.(type) {
	case *components.Path:
		if c.State > components.PathUnreachable {
			return fmt.Errorf("%s.State: %d is no PathState: %w", path, c.State, ErrDomain)
		}
		if c.Next < 0 { // (past the waypoints is a path done or emptied: PathFollow skips it)
			return fmt.Errorf("%s.Next: %d, a waypoint index below 0: %w", path, c.Next, ErrDomain)
		}
		return nil
	case *components.Intent:
		if c.Mode > components.IntentEvade {
			return fmt.Errorf("%s.Mode: %d is no IntentMode: %w", path, c.Mode, ErrDomain)
		}
		return nil
	case *components.Desired:
		if c.Mode > components.DesiredHold {
			return fmt.Errorf("%s.Mode: %d is no DesiredMode: %w", path, c.Mode, ErrDomain)
		}
		return nil
	case Checker:
		if err := c.Check(); err != nil {
			return fmt.Errorf("%s: %w: %w", path, ErrDomain, err)
		}
	}
	return nil
}
