package systems

import (
	"reflect"
	"unsafe"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/internal/fieldscan"
	arche "github.com/mlange-42/arche/ecs"
)

// ownStateChecks counts, as unreadChecks does a UtilityBrain's, the utility.States
// agents keep in components of the program's own (a state machine's hook or a
// hybrid.UtilitySelector deciding with Reasoner.DecideAt): found the way the debug
// view finds them (internal/fieldscan: the component itself, or its fields and
// array elements, not behind pointers or in slices, 4 levels deep). Where a
// component type holds States is learnt once per type and kept, so a check in
// steady state allocates nothing and costs, per agent, only the agents holding such
// a component.
type ownStateChecks struct {
	types   []reflect.Type  // the type of each component ID examined, by ID number
	comps   []ownStateComps // those of them holding utility.States or htn.Runs
	runHits []ownRunHit     // checkRuns' idle Runs and checkGOAPRuns' Runs to explain, reused
}

// hasRuns reports whether some component type learnt holds an htn.Run or a goap.Run.
func (c *ownStateChecks) hasRuns() bool {
	for k := range c.comps {
		if len(c.comps[k].runs) > 0 || len(c.comps[k].goapRuns) > 0 {
			return true
		}
	}
	return false
}

// ownStateComps is a component type holding utility.States, htn.Runs or goap.Runs.
type ownStateComps struct {
	id       arche.ID
	mask     arche.Mask // of id alone: the query's filter
	fields   []ownStateField
	runs     []fieldscan.Field // where it holds htn.Runs (a hybrid.HTNAction's): checkRuns
	goapRuns []fieldscan.Field // where it holds goap.Runs (a hybrid.GOAPAction's): checkGOAPRuns
}

// ownStateField is where a component holds a utility.State, with the notes naming it.
type ownStateField struct {
	off                     uintptr
	unread, noBoard, clamps string // the notes of CauseUtilityFactWrongType, CauseBlackboardMissing, CauseUtilityInputOutOfRange
	name                    string // the component and field ("Fighter.Attack"), for CauseUtilityInputNaN's note
}

// The faults of a utility.State's inputs ownStateChecks counts.
const (
	faultUnread  = 1 << iota // State.Unread > 0: CauseUtilityFactWrongType
	faultNoBoard             // State.NoBlackboard > 0: CauseBlackboardMissing
	faultClamped             // State.Clamped > 0: CauseUtilityInputOutOfRange
	faultNaN                 // State.NaNInputs > 0: CauseUtilityInputNaN
	numFaults    = iota
)

var (
	stateType = reflect.TypeFor[utility.State]()
	runType   = reflect.TypeFor[htn.Run]()
	goapRun   = reflect.TypeFor[goap.Run]()
)

// stateFaults returns the faults s counts.
func stateFaults(s *utility.State) uint8 {
	var f uint8
	if s.Unread > 0 {
		f |= faultUnread
	}
	if s.NoBlackboard > 0 {
		f |= faultNoBoard
	}
	if s.Clamped > 0 {
		f |= faultClamped
	}
	if s.NaNInputs > 0 {
		f |= faultNaN
	}
	return f
}

// componentID returns the ID of the component type Arche registered n-th (from 0).
// Arche numbers component types 0, 1, 2, ... in the order they are registered, but
// lists them only in a new slice (arche.ComponentIDs) and has no constructor of an
// ID: an ID is one uint8 (checked below at compile time, and by a test against
// ComponentIDs), so it is made from its number.
func componentID(n int) arche.ID {
	b := uint8(n)
	return *(*arche.ID)(unsafe.Pointer(&b))
}

var _ [1]struct{} = [unsafe.Sizeof(arche.ID{})]struct{}{} // an arche.ID is one byte

// learn examines the component types registered since the last check; if a type
// examined before is no longer under its ID (another world, or one Reset), it
// forgets them all and starts again.
func (c *ownStateChecks) learn(w *arche.World) {
	for n, t := range c.types {
		if info, ok := arche.ComponentInfo(w, componentID(n)); !ok || info.Type != t {
			c.types, c.comps = c.types[:0], c.comps[:0]
			break
		}
	}
	brain := reflect.TypeFor[components.UtilityBrain]()      // its State is unreadChecks'
	planner := reflect.TypeFor[components.HTNPlanner]()      // its Run is plannerChecks'
	goapPlanner := reflect.TypeFor[components.GOAPPlanner]() // likewise
	for n := len(c.types); n < arche.MaskTotalBits; n++ {
		id := componentID(n)
		info, ok := arche.ComponentInfo(w, id)
		if !ok {
			break
		}
		c.types = append(c.types, info.Type)
		if info.Type == brain || info.Type == planner || info.Type == goapPlanner {
			continue
		}
		found := fieldscan.Of(stateType, info.Type)
		runs := fieldscan.Of(runType, info.Type)
		goapRuns := fieldscan.Of(goapRun, info.Type)
		if len(found) == 0 && len(runs) == 0 && len(goapRuns) == 0 {
			continue
		}
		fields := make([]ownStateField, len(found))
		for i, f := range found {
			in := "its utility.State " + f.Name + ": "
			fields[i] = ownStateField{off: f.Off,
				unread: in + "a consideration's Input could not read the agent given to Decide: " +
					"a utility.Fact of another type than that agent's, or a utility.KeyInput of the zero blackboard.Key, a key never declared",
				noBoard: in + "a utility.KeyInput consideration reads a blackboard key: give the agent a Blackboard " +
					"whose Store is made from the key's schema (and Decide an agent that reads it, as *systems.Agent does)",
				clamps: in + "an input outside [0, 1] under a consideration's zero Range: set its Range",
				name:   f.Name}
		}
		c.comps = append(c.comps, ownStateComps{id: id, mask: arche.All(id), fields: fields, runs: runs, goapRuns: goapRuns})
	}
}

// faults returns the faults of the States at fields of the component at p, and
// (shown non-nil) the first field with each.
func faults(p unsafe.Pointer, fields []ownStateField, shown *[numFaults]*ownStateField) uint8 {
	var got uint8
	for i := range fields {
		f := stateFaults((*utility.State)(unsafe.Add(p, fields[i].off)))
		if shown != nil {
			for k := range shown {
				if f&^got&(1<<k) != 0 {
					shown[k] = &fields[i]
				}
			}
		}
		got |= f
	}
	return got
}

// check counts the agents whose own components' States count faulty inputs, once
// an agent per cause: a fault its UtilityBrain's State has too (counted by
// unreadChecks), or another of its components met before, is not counted again.
func (c *ownStateChecks) check(w *arche.World, r *Report) {
	brainID := arche.ComponentID[components.UtilityBrain](w)
	c.learn(w)
	for k := range c.comps {
		oc := &c.comps[k]
		if len(oc.fields) == 0 { // Runs only: checkRuns, checkGOAPRuns
			continue
		}
		q := w.Query(&oc.mask)
		for q.Next() {
			var shown [numFaults]*ownStateField
			got := faults(q.Get(oc.id), oc.fields, &shown)
			if got == 0 {
				continue
			}
			if q.Has(brainID) {
				got &^= stateFaults(&(*components.UtilityBrain)(q.Get(brainID)).State)
			}
			for j := range k {
				if q.Has(c.comps[j].id) {
					got &^= faults(q.Get(c.comps[j].id), c.comps[j].fields, nil)
				}
			}
			e := q.Entity()
			if got&faultUnread != 0 {
				r.addNote(CauseUtilityFactWrongType, e, needsNote(shown[0].unread))
			}
			if got&faultNoBoard != 0 {
				r.addNote(CauseBlackboardMissing, e, needsNote(shown[1].noBoard))
			}
			if got&faultClamped != 0 {
				r.addNote(CauseUtilityInputOutOfRange, e, needsNote(shown[2].clamps))
			}
			if got&faultNaN != 0 {
				f := shown[3]
				r.addNote(CauseUtilityInputNaN, e, nanInputNote(f.name, (*utility.State)(unsafe.Add(q.Get(oc.id), f.off))))
			}
		}
	}
}
