package save

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/jsonkeys"
	"github.com/archai-go/archai/systems"
	archeserde "github.com/mlange-42/arche-serde"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Format and Version name the file format; a file of another version is refused.
const (
	Format  = "archai-world"
	Version = 1
)

// Errors returned (wrapped, with what and where) by [Save], [Load] and [Loaded.Restore].
var (
	ErrFormat    = errors.New("not a whole archai save file") // truncated, not JSON, or not this format
	ErrVersion   = errors.New("unsupported format version")
	ErrType      = errors.New("component type unknown to the loader")
	ErrUnknownID = errors.New("unknown tree, machine, reasoner or planner domain ID")
	// ErrDuplicateID: two different trees (machines, reasoners, planner domains) under
	// one ID: two in the world being saved, two in a load's Registry, or the saved one
	// and the one the Registry holds under its ID (see [Load]).
	ErrDuplicateID = errors.New("two different trees, machines, reasoners or planner domains under one ID")
	ErrMemory      = errors.New("node memory or plan does not fit its tree or domain")
	ErrDomain      = systems.ErrOutOfDomain // a value out of its domain (also from a system's LoadState)
	ErrEntities    = errors.New("inconsistent entity pool")
	ErrState       = errors.New("system state does not match")
	// ErrSchemas: the world's Blackboard components hold stores of more than one
	// schema. Load makes every store from one schema (Registry.Schema), so such a
	// file could not be loaded: Save refuses it.
	ErrSchemas = errors.New("blackboard stores of more than one schema")
	// ErrStateLeftOut (errors.Is also matches ErrState): [Save] was not given the state
	// of a system the world runs (systems.StatefulSystems), or [Loaded.Restore] was not
	// given, or the file does not hold, the state of one the loaded world runs.
	// [Without] leaves one out on purpose.
	ErrStateLeftOut error = leftOut{}
	// ErrGridMismatch: the world's *grid.Grid is not the one the save was made on (its
	// size or a cell's cost differs, or one world has a grid and the other none).
	ErrGridMismatch = errors.New("the world's grid is not the saved run's")
)

// leftOut is ErrStateLeftOut, a kind of ErrState.
type leftOut struct{}

func (leftOut) Error() string        { return "a system's state is left out" }
func (leftOut) Is(target error) bool { return target == ErrState }

// stateRefused is a State's SaveState error as Save returns it: a kind of ErrState,
// its text and chain the system's own.
type stateRefused struct{ err error }

func (e stateRefused) Error() string      { return e.err.Error() }
func (e stateRefused) Unwrap() error      { return e.err }
func (stateRefused) Is(target error) bool { return target == ErrState }

// State is a system whose state persists across frames. Name is the key of its state
// in the file (the ecs.Namer name).
//
// archai's are systems.Decision, Utility, FSM, HTN and GOAP (their think budget's
// cursor), systems.PathQueue (its queued and half-done searches) and systems.FlowField
// (its cache's fields and their build progress): [Save] refuses a world running one of
// them (initialized on it and not finalized) unless it is given, and [Loaded.Restore]
// the same for the loaded world (see systems.StatefulSystems). A program's own systems
// with state (a scenario's director, a wave counter) implement State too; Save cannot
// know of them, so give them to Save and Restore alike.
type State interface {
	Name() string
	SaveState() (json.RawMessage, error)
	LoadState(json.RawMessage) error
}

// Without marks sys as left out of a save on purpose: give it to [Save] in place of
// sys, and the file holds no state for it but records its Name as left out, so that
// [Loaded.Restore] does not ask for it (a Restore given sys, or Without(sys), then
// leaves sys as its Initialize made it). Given to Restore, Without(sys) leaves sys as
// its Initialize made it even if the file holds its state (a file of another version
// of the program, say).
//
// Important: a system left out starts afresh after a load, so the loaded run no longer
// continues as the saved one would have (a FlowField with a Budget left out builds its
// fields again from nothing over frames, its followers meanwhile without a field, and
// the crowd ends elsewhere; one with Budget 0 builds them in the first frame, and its
// followers continue as before, TestWithoutLeavesAFlowFieldOutOnPurpose).
// Leave out only a system whose state the program does not care to continue.
func Without(sys State) State { return without{sys} }

// without is [Without]'s mark; Save and Restore never call its methods but Name.
type without struct{ sys State }

func (o without) Name() string { return o.sys.Name() }

func (o without) SaveState() (json.RawMessage, error) {
	return nil, fmt.Errorf("save.Without(%s): left out of the save", o.sys.Name())
}

func (o without) LoadState(json.RawMessage) error {
	return fmt.Errorf("save.Without(%s): left out of the restore", o.sys.Name())
}

// stateNames returns the Names of states, and whether each is a [Without] mark. It
// returns an error for a nil state (or Without(nil)) or two states of one Name.
func stateNames(states []State, verb string) (map[string]bool, error) {
	names := map[string]bool{}
	for i, s := range states {
		o, isWithout := s.(without)
		if s == nil || isWithout && o.sys == nil {
			return nil, fmt.Errorf("%s: states[%d] is nil", verb, i)
		}
		n := s.Name()
		if _, dup := names[n]; dup {
			return nil, fmt.Errorf("%s: two states named %q", verb, n)
		}
		names[n] = isWithout
	}
	return names, nil
}

// leftOutError returns an error wrapping ErrStateLeftOut naming the systems of live
// (systems.StatefulSystems) not in given, or nil if there is none.
func leftOutError(live []string, given func(string) bool, verb, what, fix string) error {
	var missing []string
	for _, n := range live {
		if !given(n) {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %w: the world runs %s, whose state persists across frames, %s: %s",
		verb, ErrStateLeftOut, strings.Join(missing, ", "), what, fix)
}

// Registry is what a program supplies to load a world: the trees, machines, reasoners
// and planner domains its agents' components name by ID (their names), the blackboard
// schema the agents' stores are made from, and the program's own component types
// (archai's are known).
type Registry struct {
	Trees      []*bt.Tree
	Machines   []*fsm.Machine
	Reasoners  []*utility.Reasoner
	HTN        *htn.Registry  // the domains HTNPlanner.Name names (usually the world's resource)
	GOAP       *goap.Registry // the domains GOAPPlanner.Name names
	Schema     *blackboard.Schema
	Components []reflect.Type // e.g. reflect.TypeFor[MyComponent](); see [Checker]
}

// oneSchema returns an error wrapping ErrSchemas if the stores of w's Blackboard
// components are of more than one schema, naming an entity of each.
func oneSchema(w *arche.World) error {
	var first *blackboard.Schema
	var at arche.Entity
	q := generic.NewFilter1[components.Blackboard]().Query(w)
	for q.Next() {
		st := q.Get().Store
		if st == nil {
			continue
		}
		switch sc := st.Schema(); {
		case first == nil:
			first, at = sc, q.Entity()
		case sc != first:
			e := q.Entity()
			q.Close()
			return fmt.Errorf("save: %w: entity %d's Blackboard and entity %d's: a load makes every store from one schema (Registry.Schema), "+
				"so this world could not be loaded; declare every agent's keys in one schema and make all stores from it "+
				"(bt.NewRegistry(schema) for the trees, and that schema's NewStore for every other store)", ErrSchemas, at.ID(), e.ID())
		}
	}
	return nil
}

// Checker is implemented by a component type (often a program's own, listed in
// Registry.Components) whose values have a domain the codec cannot see: an index into
// its own slice, a count, a finite coordinate. [Load] calls Check on every decoded
// component whose type (or pointer to it) implements Checker, after archai's own checks;
// an error fails the load, wrapped with ErrDomain and the entity and component it was
// found in, so that the program's systems never run on a value they would panic on.
// [Save] calls it on every component it writes, and refuses the same way (writing
// nothing), so that a world it saves loads.
// Check should name the field in its error (e.g. "Waypoint: 4 of a route of 4").
type Checker interface {
	Check() error
}

// file is the saved JSON document.
// relationTarget is the target of one entity's Arche relation component.
type relationTarget struct {
	Entity int          `json:"entity"` // the entity's index in file.Components
	Type   int          `json:"type"`   // the component's index in file.Types
	Target arche.Entity `json:"target"`
}

type file struct {
	Format     string                     `json:"format"`
	Version    int                        `json:"version"`
	Meta       json.RawMessage            `json:"meta,omitempty"`
	Clock      json.RawMessage            `json:"clock,omitempty"`
	Grid       json.RawMessage            `json:"grid"`       // the grid's fingerprint (grid.go); null: no grid; absent: a file from before fingerprints
	Types      []string                   `json:"types"`      // component types, in the world's ID order
	World      json.RawMessage            `json:"world"`      // arche-serde's document: the entity pool
	Components []json.RawMessage          `json:"components"` // per alive entity, in the pool's Alive order: {index in Types: value}
	Systems    map[string]json.RawMessage `json:"systems"`
	LeftOut    []string                   `json:"left_out,omitempty"` // systems saved with Without: no state, on purpose
	Targets    []relationTarget           `json:"targets,omitempty"`  // the targets of Arche relation components (alive ones)

	Definitions *definitions `json:"definitions,omitempty"` // fingerprints of the trees, machines, reasoners and planner domains named (prints.go)
}

// archaiTypes are the component types every loader knows.
var archaiTypes = []reflect.Type{
	reflect.TypeFor[components.Position](), reflect.TypeFor[components.Velocity](),
	reflect.TypeFor[components.Kinematics](), reflect.TypeFor[components.Desired](),
	reflect.TypeFor[components.Steering](), reflect.TypeFor[components.SteeringWeights](),
	reflect.TypeFor[components.Wanderer](), reflect.TypeFor[components.Progress](),
	reflect.TypeFor[components.Faction](), reflect.TypeFor[components.Health](),
	reflect.TypeFor[components.Rand](), reflect.TypeFor[components.Weapon](),
	reflect.TypeFor[components.Blackboard](), reflect.TypeFor[components.Brain](),
	reflect.TypeFor[components.Think](), reflect.TypeFor[components.LOD](),
	reflect.TypeFor[components.Focus](), reflect.TypeFor[components.Intent](),
	reflect.TypeFor[components.FlowFollower](), reflect.TypeFor[components.StateMachine](),
	reflect.TypeFor[components.Path](), reflect.TypeFor[components.ORCA](),
	reflect.TypeFor[components.Perception](), reflect.TypeFor[components.UtilityBrain](),
	reflect.TypeFor[components.HTNPlanner](), reflect.TypeFor[components.GOAPPlanner](),
	reflect.TypeFor[components.SquadMember](), reflect.TypeFor[components.OwnMotion](),
}

// savedType is what Save needs of a component type: the type, its key in the
// file (its index in file.Types, quoted) and whether checkValue checks its values.
type savedType struct {
	t     reflect.Type
	key   string
	check bool
}

// checked reports whether checkValue checks the values of component type t:
// archai's Path, Intent and Desired, and a type implementing Checker (through
// its pointer).
func checked(t reflect.Type) bool {
	switch t {
	case reflect.TypeFor[components.Path](), reflect.TypeFor[components.Intent](), reflect.TypeFor[components.Desired]():
		return true
	}
	return reflect.PointerTo(t).Implements(reflect.TypeFor[Checker]())
}

// typeName is a component type's name in the file: its package path and name.
func typeName(t reflect.Type) string {
	if t.Name() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}

// Save returns world w as a save file: every entity (IDs, generations and the free list,
// through arche-serde), every component of every entity, the Clock resource, meta (any
// JSON-able value of the caller's: scenario, seed, settings) and the state of each of
// states, a fingerprint of each tree, machine, reasoner and planner domain named (its structure and
// names: loading refuses a registry whose definition under that ID differs, see
// [Load]), and a fingerprint of the world's *grid.Grid resource (its size and a hash of
// its costs as they are now, edits included; null without a grid) that loading
// checks. Floats are written exactly, NaN and infinities included (meta aside: it goes
// through encoding/json, which refuses a NaN or infinite float with an error "save: meta:
// json: unsupported value: NaN"; mark a missing value otherwise, or make it a pointer). Trees, machines,
// reasoners and planner domains are written as their IDs (names); a planner with no Name
// is saved under the name of its Domain ID in the world's *htn.Registry or
// *goap.Registry resource.
//
// It returns an error wrapping ErrState if w is locked (Save called inside a query: a
// system's Update, a leaf) or if Save is called between two systems of a frame, some
// of them run and others not (ecs.Frame.Between), naming one of each: from a system of
// an ecs.Scheduler other than its first and its last, or, under any scheduler
// (arche-model's Model, a loop of your own), once archai's systems have not all run
// the same frame (each records the Clock frame it last ran: ecs.Ran); a save from a
// system scheduled before or after all of archai's is taken. An error naming the entity and field of a value it cannot write (a pointer
// or map in a component of your own, a tree without a name, a planner whose Domain ID
// the world's registry does not hold), an error wrapping ErrDomain for a Clock that
// Load would refuse (see [MaxFrame] and [Load]), an error wrapping ErrDomain for a
// component value Load would refuse, with Load's words after the entity ("save:
// entity 7: components.Path.Next: -1, a waypoint index below 0: ..."): an Intent.Mode,
// Desired.Mode or Path.State past its type's last constant, a Path.Next below 0, or a
// [Checker]'s error (Save runs Load's checks of values, so a file it writes loads), an error wrapping ErrState for a state of a
// system initialized on another world than w or not at all (systems.PathQueue,
// systems.FlowField), an error wrapping ErrDuplicateID when two
// different trees (machines, reasoners) of the world go under one name (a load would
// give every such agent the one its registry holds under that name), an error wrapping
// ErrMemory for a hybrid.TreeRun (in any component) whose Memory is an earlier build
// of a tree the world runs (another tree of its name, not one a Brain or a state of the
// world's machines runs: a hot reload) with a node Running, which its TreeState halts
// with that build at the agent's next update (an idle one is written as that update
// makes it: every node Idle; so is a utility.State in a component of the program's
// own last decided by an earlier build of a reasoner the world runs, a UtilityBrain's or
// a hybrid.UtilitySelector's, as its next decision makes it: no choice, every score 0),
// or a state's error,
// which wraps ErrState too (a systems.PathQueue whose grid was edited since its last
// Update: save after its next one).
//
// Every archai system w runs whose state persists across frames must be among states:
// systems.Decision, Utility, FSM, HTN, GOAP, PathQueue, FlowField, Combat and Diagnostics, when initialized on
// w and not finalized (systems.StatefulSystems). Save returns an error wrapping
// ErrStateLeftOut (and ErrState) naming those not given, saving nothing: a load without
// their state would continue another run, silently (a FlowField left out: the crowd ends
// elsewhere). Give [Without](sys) instead of sys to leave one out on purpose. A program's
// own State is not known to w: give it too. It returns an error for a nil state or two
// states of one Name, and one wrapping ErrSchemas when the world's Blackboard stores are
// of more than one schema (Load makes them all from Registry.Schema).
func Save(w *arche.World, meta any, states ...State) ([]byte, error) {
	s, err := prepare(w, meta, states)
	if err != nil {
		return nil, err
	}
	out := &encoder{buf: make([]byte, 0, fileSize(w, len(s.head), &s.f, s.comps)), live: liveTreesOf(w)}
	if err := s.write(out, nil); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// saving is a save checked and begun by prepare: the file's document but its
// components, targets and definitions, its head (the fields before the components) as
// json.Marshal writes them, and the world's component types as the file names them.
type saving struct {
	w     *arche.World
	f     file
	head  []byte
	comps map[arche.ID]savedType
	index map[arche.ID]int // a relation component's index in f.Types
}

// prepare runs Save's checks that need no walk of the components and writes the
// file's head; it returns Save's errors, before anything is written.
func prepare(w *arche.World, meta any, states []State) (*saving, error) {
	if w.IsLocked() {
		return nil, fmt.Errorf("save: %w: the world is locked (a query is open: Save was called from inside a system's Update, a tree leaf or a query loop), so some agents are updated for this frame and others not; save between frames, after the last system's Update", ErrState)
	}
	if ran, next, ok := ecs.Resource[ecs.Frame](w).Between(); ok {
		return nil, fmt.Errorf("save: %w: called between two systems of a frame (%s has run this frame, %s has not), so the file would hold a frame half done and the loaded run would not continue as this one; save between frames: from a system scheduled first or last, or between two Updates of the scheduler (ecs.Scheduler.Update, arche-model's Model.Update)", ErrState, ran, next)
	}
	names, err := stateNames(states, "save")
	if err != nil {
		return nil, err
	}
	if err := leftOutError(systems.StatefulSystems(w), func(n string) bool { _, ok := names[n]; return ok }, "save",
		"not given to Save",
		"give each of them to Save (and to Restore after the load), or save.Without(sys) to leave one out on purpose (the loaded run then starts it afresh and no longer continues as the saved one)"); err != nil {
		return nil, err
	}
	if err := oneSchema(w); err != nil {
		return nil, err
	}
	f := file{Format: Format, Version: Version, Systems: map[string]json.RawMessage{}}
	// the states first: a PathQueue's SaveState joins the searches its Update
	// started (Overlap) and writes their paths, which the components must hold
	for _, s := range states {
		if o, ok := s.(without); ok {
			f.LeftOut = append(f.LeftOut, o.Name())
			continue
		}
		if b, ok := s.(worldBound); ok && b.InitializedWorld() != w {
			what := "not initialized"
			if b.InitializedWorld() != nil {
				what = "initialized on another world"
			}
			return nil, fmt.Errorf("save: state of %s: %w: the system is %s: give the systems running on the world saved", s.Name(), ErrState, what)
		}
		raw, err := s.SaveState()
		if err != nil {
			// a state the system cannot give now (a PathQueue behind a grid
			// edit) is an ErrState, as the README promises, with its own text
			return nil, fmt.Errorf("save: state of %s: %w", s.Name(), stateRefused{err})
		}
		if at, key, dup := jsonkeys.Duplicate(raw, nil); dup { // Load would refuse the file
			return nil, fmt.Errorf("save: state of %s: %w: %s holds the key %q twice", s.Name(), ErrState, orDocument(at), key)
		}
		f.Systems[s.Name()] = raw
	}
	if meta != nil {
		raw, err := json.Marshal(meta)
		if err != nil {
			return nil, fmt.Errorf("save: meta: %w", err)
		}
		if at, key, dup := jsonkeys.Duplicate(raw, nil); dup { // a json.RawMessage: Load would refuse the file
			return nil, fmt.Errorf("save: meta: %w: %s holds the key %q twice", ErrDomain, orDocument(at), key)
		}
		f.Meta = raw
	}
	if c := ecs.Resource[ecs.Clock](w); c != nil {
		if err := checkClock(c); err != nil {
			return nil, fmt.Errorf("save: %w", err)
		}
		var e encoder
		if err := e.root(reflect.ValueOf(*c), "Clock"); err != nil {
			return nil, fmt.Errorf("save: %w", err)
		}
		f.Clock = e.Bytes()
	}
	f.Grid = gridJSON(w)
	ids := arche.ComponentIDs(w)
	comps := map[arche.ID]savedType{}
	index := map[arche.ID]int{} // its index in Types, for a relation component
	for i, id := range ids {
		info, _ := arche.ComponentInfo(w, id)
		comps[id] = savedType{t: info.Type, key: strconv.Quote(strconv.Itoa(i)), check: checked(info.Type)}
		if info.IsRelation {
			index[id] = i
		}
		f.Types = append(f.Types, typeName(info.Type))
	}
	raw, err := archeserde.Serialize(w, archeserde.Opts.SkipAllComponents(), archeserde.Opts.SkipAllResources())
	if err != nil {
		return nil, fmt.Errorf("save: entities: %w", err)
	}
	f.World = raw
	// The components, most of the file, are written once, straight into the file's
	// buffer: encoding them into a value per entity and the file with json.Marshal held
	// them twice (and Marshal's growing buffer and final copy besides), some seven times
	// the file at the peak. The bytes are those json.Marshal(f) wrote: the fields before
	// and after Components are marshalled as before, and an entity's object is compact
	// JSON already (encode writes no space and escapes strings as Marshal does).
	head, err := json.Marshal(fileHead{f.Format, f.Version, f.Meta, f.Clock, f.Grid, f.Types, f.World})
	if err != nil {
		return nil, fmt.Errorf("save: %w", err)
	}
	return &saving{w: w, f: f, head: head, comps: comps, index: index}, nil
}

// write writes the file of s into out: its head, each entity's components and the
// tail. flush, if not nil, is called after the head and after each entity (all false)
// and at the end (all true), and may take what out holds (SaveTo); its error ends the
// write. It returns Save's errors of a component, which end the write too.
func (s *saving) write(out *encoder, flush func(all bool) error) error {
	w, f, head, comps, index := s.w, &s.f, s.head, s.comps, s.index
	out.Write(head[:len(head)-1]) // without its closing brace
	out.WriteString(`,"components":`)
	if flush != nil {
		if err := flush(false); err != nil {
			return err
		}
	}
	entities := 0
	q := w.Query(arche.All())
	named := namedOnce{prints: &definitions{}}
	var ids []arche.ID // the archetype's component IDs: Query.Ids copies them at each call
	var mask arche.Mask
	for q.Next() {
		if m := q.Mask(); ids == nil || m != mask {
			ids, mask = q.Ids(), m
		}
		if entities == 0 {
			out.WriteByte('[')
		} else {
			out.WriteByte(',')
		}
		out.WriteByte('{')
		for i, id := range ids {
			c := comps[id]
			if i > 0 {
				out.WriteByte(',')
			}
			out.WriteString(c.key)
			out.WriteByte(':')
			v := reflect.NewAt(c.t, q.Get(id)).Elem()
			if err := encodeComponent(w, out, v, c.check, &named); err != nil {
				q.Close()
				return fmt.Errorf("save: entity %d: %w", q.Entity().ID(), err)
			}
			if k, ok := index[id]; ok {
				if target := q.Relation(id); w.Alive(target) {
					f.Targets = append(f.Targets, relationTarget{Entity: entities, Type: k, Target: target})
				}
			}
		}
		out.WriteByte('}')
		entities++
		if flush != nil {
			if err := flush(false); err != nil {
				q.Close()
				return err
			}
		}
	}
	if entities == 0 {
		out.WriteString("null") // as json.Marshal writes a nil slice
	} else {
		out.WriteByte(']')
	}
	if !named.prints.empty() {
		f.Definitions = named.prints
	}
	tail, err := json.Marshal(fileTail{f.Systems, f.LeftOut, f.Targets, f.Definitions})
	if err != nil {
		return fmt.Errorf("save: %w", err)
	}
	out.WriteByte(',')
	out.Write(tail[1:]) // without its opening brace
	if flush != nil {
		return flush(true)
	}
	return nil
}

// fileHead and fileTail are the fields of file before and after Components, as
// json.Marshal writes them (Format and Systems, never omitted, keep both non-empty).
type fileHead struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Meta    json.RawMessage `json:"meta,omitempty"`
	Clock   json.RawMessage `json:"clock,omitempty"`
	Grid    json.RawMessage `json:"grid"`
	Types   []string        `json:"types"`
	World   json.RawMessage `json:"world"`
}

type fileTail struct {
	Systems     map[string]json.RawMessage `json:"systems"`
	LeftOut     []string                   `json:"left_out,omitempty"`
	Targets     []relationTarget           `json:"targets,omitempty"`
	Definitions *definitions               `json:"definitions,omitempty"`
}

// namedOnce maps each tree, machine and reasoner ID written so far to the one it
// stands for: a file names them by ID alone, so two different ones under one ID
// would come back as the same after a load. prints records the fingerprint of each.
type namedOnce struct {
	ids    map[string]any
	prints *definitions
}

// check records that id stands for x (a *bt.Tree, *fsm.Machine or *utility.Reasoner)
// and returns an error if the file already uses id for another one of the same kind.
//
// It also returns one if id is not x's own name (an agent whose tree, machine or
// reasoner was swapped and its ID left as it was): the load resolves the ID by name,
// so the agent would get another definition than the one it ran, with that one's
// state.
func (n *namedOnce) check(path, kind, id, name string, x any) error {
	if id != name {
		return fmt.Errorf("%s.ID: %w: %q, but the %s the agent runs is named %q (swapped without its ID?): a load would give it %q with the state of %q; set ID to %q, or to \"\" (saved as the %s's name)",
			path, ErrDuplicateID, id, kind, name, id, name, name, kind)
	}
	key := kind + "\x00" + id
	if prev, ok := n.ids[key]; ok {
		if prev != x {
			hint := ""
			if kind == "tree" {
				hint = "; or, for a tree built again from its edited file (bt.Registry.ReloadDocument), which keeps its name: " +
					"give every agent the new build and save once each has thought since (its Decision halts the old build then, " +
					"which a load could not do without it)"
			}
			return fmt.Errorf("%s: %w: two different %ss named %q in one world (a load would give both agents the one the registry holds): give each its own name%s", path, ErrDuplicateID, kind, id, hint)
		}
		return nil
	}
	if n.ids == nil {
		n.ids = map[string]any{}
	}
	n.ids[key] = x
	n.prints.of(kind, true)[id] = printOf(x)
	if m, ok := x.(*fsm.Machine); ok {
		n.prints.recordStates(id, m) // its fingerprint does not cover what its states run
	}
	return nil
}

// record records the fingerprint of planner domain x (kind "htn" or "goap") under
// name, the first time name is seen (the domain is resolved by name in the world's
// registry, as the planner systems do, so every agent naming it gets the same one).
func (n *namedOnce) record(kind, name string, x any) {
	if m := n.prints.of(kind, true); m[name] == "" {
		m[name] = printOf(x)
	}
}

// encodeComponent writes one component, filling in the ID of a decision component that
// names its tree, machine or reasoner only by pointer, or its planner domain only by ID.
// It returns an error if two different trees (machines, reasoners) go under one ID.
func encodeComponent(w *arche.World, e *encoder, v reflect.Value, check bool, named *namedOnce) error {
	path := v.Type().String()
	if check {
		if err := checkValue(v.Addr().Interface(), path); err != nil { // what Load would refuse
			return err
		}
	}
	switch v.Type() {
	case typeBrain, typeStateMachine, typeUtilityBrain, typeHTNPlanner, typeGOAPPlanner:
	default:
		return e.root(v, path) // not boxed: a component of another type needs nothing filled in
	}
	switch c := v.Interface().(type) {
	case components.Brain:
		if c.Tree == nil && c.Memory.Len() > 0 {
			what := "another tree's"
			if old := c.Memory.Tree(); old != nil {
				what = fmt.Sprintf("tree %q's", old.Name())
			}
			return fmt.Errorf("%s: %w: its Tree is nil but its Memory holds %s %d nodes (a load could give them to no tree): halt that tree and clear the Memory (Brain.Memory = bt.Memory{}) when you take the tree away, or set the tree from a leaf to nil (Decision does both)",
				path, ErrMemory, what, c.Memory.Len())
		}
		if c.ID == "" && c.Tree != nil {
			if c.ID = c.Tree.Name(); c.ID == "" {
				return fmt.Errorf("%s: its tree has no name: compile it with one to save it", path)
			}
		}
		if c.Tree != nil {
			if err := named.check(path, "tree", c.ID, c.Tree.Name(), c.Tree); err != nil {
				return err
			}
			if old := c.Memory.Tree(); old != nil && old != c.Tree {
				// a swap the Decision system does at the agent's next think: the memory
				// is saved as the old tree's, which the load gives it back to
				if old.Name() == "" {
					return fmt.Errorf("%s: %w: its Tree was replaced since its last think, and its Memory is still a tree's without a name (a load could not find it): compile that tree with a name, or save after the agent's next think",
						path, ErrMemory)
				}
				if err := named.check(path, "tree", old.Name(), old.Name(), old); err != nil {
					return err
				}
				c.MemoryOf = old.Name()
			}
		}
		v = reflect.ValueOf(c)
	case components.StateMachine:
		if c.ID == "" && c.Machine != nil {
			if c.ID = c.Machine.MachineName(); c.ID == "" {
				return fmt.Errorf("%s: its machine has no name: build it with one to save it", path)
			}
		}
		if c.Machine != nil {
			if err := named.check(path, "machine", c.ID, c.Machine.MachineName(), c.Machine); err != nil {
				return err
			}
		}
		v = reflect.ValueOf(c)
	case components.UtilityBrain:
		if c.ID == "" && c.Reasoner != nil {
			if c.ID = c.Reasoner.Name(); c.ID == "" {
				return fmt.Errorf("%s: its reasoner has no name: make it with one to save it", path)
			}
		}
		if c.Reasoner != nil {
			if err := named.check(path, "reasoner", c.ID, c.Reasoner.Name(), c.Reasoner); err != nil {
				return err
			}
			if old := c.State.Reasoner(); old != nil && old != c.Reasoner {
				// a Reasoner swapped (a file loaded again) since the agent's last
				// decision: its State is the old one's, which the next decision starts
				// afresh (utility.Reasoner.Score); saved as that decision starts it, so
				// the file loads (the old shape would not fit the new reasoner) and the
				// loaded run does not keep the old choice
				c.State = c.Reasoner.NewState()
			}
		}
		v = reflect.ValueOf(c)
	case components.HTNPlanner:
		if c.Name == "" && (c.Domain != 0 || c.Cache != nil) {
			d := c.Cache
			if d == nil {
				d = ecs.Resource[htn.Registry](w).Domain(c.Domain)
			}
			if d == nil {
				return fmt.Errorf("%s: no Name, and Domain %d is not in the world's *htn.Registry: %w", path, c.Domain, ErrUnknownID)
			}
			c.Name = d.Name()
		}
		if c.Name != "" {
			if c.Cache != nil && c.Cache.Name() != c.Name && c.Run.HasPlan() {
				return fmt.Errorf("%s: %w: its Name was set to %q since its last think, and its Run is still a plan of %q (the HTN system halts it at the agent's next think and plans with %q, a domain of its registry): save after that think",
					path, ErrMemory, c.Name, c.Cache.Name(), c.Name)
			}
			d, _ := ecs.Resource[htn.Registry](w).Resolve(c.Name, c.Domain) // the domain the HTN system runs
			if d != nil && c.Cache != nil && c.Cache != d && c.Cache.Name() == c.Name && c.Run.HasPlan() {
				return fmt.Errorf("%s: %w: its domain %q was replaced in the registry (a reload) since its last think, and its Run is still a plan of the old definition (the HTN system halts it at the agent's next think and plans with the new one): save after that think",
					path, ErrMemory, c.Name)
			}
			if d != nil && c.Cache != nil && c.Cache != d && c.Cache.Name() == c.Name {
				// no plan: the state is saved in the new domain's facts, as its next think puts it
				prev := c.State
				c.State = htn.State{}
				for f := range d.Facts() {
					if i, ok := c.Cache.FactIndex(d.FactName(htn.Fact(f))); ok {
						c.State[f] = prev[i]
					}
				}
			}
			if d == nil && c.Cache != nil && c.Cache.Name() == c.Name {
				d = c.Cache
			}
			if d != nil {
				named.record("htn", c.Name, d)
			}
		}
		v = reflect.ValueOf(c)
	case components.GOAPPlanner:
		if c.Name == "" && (c.Domain != 0 || c.Cache != nil) {
			d := c.Cache
			if d == nil {
				d = ecs.Resource[goap.Registry](w).Domain(c.Domain)
			}
			if d == nil {
				return fmt.Errorf("%s: no Name, and Domain %d is not in the world's *goap.Registry: %w", path, c.Domain, ErrUnknownID)
			}
			c.Name = d.Name()
		}
		if c.Name != "" {
			if c.Cache != nil && c.Cache.Name() != c.Name && c.Run.HasPlan() {
				return fmt.Errorf("%s: %w: its Name was set to %q since its last think, and its Run is still a plan of %q (the GOAP system halts it at the agent's next think and plans with %q, a domain of its registry): save after that think",
					path, ErrMemory, c.Name, c.Cache.Name(), c.Name)
			}
			d, _ := ecs.Resource[goap.Registry](w).Resolve(c.Name, c.Domain)
			if d != nil && c.Cache != nil && c.Cache != d && c.Cache.Name() == c.Name && c.Run.HasPlan() {
				return fmt.Errorf("%s: %w: its domain %q was replaced in the registry (a reload) since its last think, and its Run is still a plan of the old definition (the GOAP system halts it at the agent's next think and plans with the new one): save after that think",
					path, ErrMemory, c.Name)
			}
			if d != nil && c.Cache != nil && c.Cache != d && c.Cache.Name() == c.Name {
				// no plan: the state is saved in the new domain's facts, as its next think puts it
				prev := c.State
				c.State = goap.State{}
				for f := range d.Facts() {
					if i, ok := c.Cache.FactIndex(d.FactName(goap.Fact(f))); ok {
						c.State[f] = prev[i]
					}
				}
			}
			if d == nil && c.Cache != nil && c.Cache.Name() == c.Name {
				d = c.Cache
			}
			if d != nil {
				named.record("goap", c.Name, d)
			}
		}
		v = reflect.ValueOf(c)
	}
	return e.root(v, path)
}
