package flowfield

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// SectorFieldState is what a [SectorField] holds as plain data, for saving
// a world mid-run: its goal, the sectors whose fields are built in the order
// they were built, and the sectors requested but not built yet, first
// requested first.
//
// A sector's field depends on the fields of the sectors around it that were
// built before it (their values seed it), so [SectorField.Restore] builds
// them again in the saved order and checks each against the saved Sum. A
// field refreshed after grid edits since its goal was set (Edited) no longer
// has such a history: its sectors' values and directions are saved instead
// (D and Dir).
//
// A field that has not caught up with grid edits (Behind: the [Sectors] were
// refreshed by another field's [SectorField.Update] or by [Sectors.Refresh], and
// this one was not updated since, a goal nobody follows any more) is saved as it
// is: each built sector with its values and directions, the seeds it was built
// from (Est) and whether its sector changed since (Changed); Restore takes them
// back as they are, and the field's next Update catches up with the edits as the
// saved one's would.
type SectorFieldState struct {
	Goal   grid.Cell          `json:"goal"`
	Built  []SectorBuildState `json:"built"`  // in build order
	Wanted []int32            `json:"wanted"` // requested, not built yet
	Edited bool               `json:"edited,omitempty"`
	Behind bool               `json:"behind,omitempty"`
}

// SectorBuildState is one built sector of a [SectorFieldState].
type SectorBuildState struct {
	Sector  int32  `json:"sector"`     // row-major index (see [Sectors.SectorOf])
	Sum     uint64 `json:"sum,string"` // FNV-1a of the field's values (float32 bits, little-endian) then its direction codes
	D       []byte `json:"d,omitempty"`
	Dir     []byte `json:"dir,omitempty"`
	Est     []byte `json:"est,omitempty"`     // Behind: the seeds from the portal graph it was built from, 12 bytes each (cell X, Y as int32, value as float32 bits, little-endian)
	Changed bool   `json:"changed,omitempty"` // Behind: its sector's costs or portals changed since it was built
}

// staleGraph is the graph counter of a restored field that has not caught up with
// grid edits, and the version of its sectors that changed: no counter reaches it.
const staleGraph = ^uint64(0)

// State returns the field's state. It returns an error when the grid
// changed since the [Sectors] last caught up with it (call
// [SectorField.Update] first: the next frame's update does), or when the
// Sectors cut the grid anew after its size changed (see [Sectors.Refresh])
// and the field has not caught up with that yet. A field behind
// the Sectors (not updated since another field's Update refreshed them) is
// saved as it is (Behind).
func (f *SectorField) State() (SectorFieldState, error) {
	if f.s.ver != f.s.g.Version() {
		return SectorFieldState{}, fmt.Errorf("flowfield: the sector field towards %v has not caught up with grid edits (the grid was edited after the last Update); save after its next Update", f.goal)
	}
	if f.layout != f.s.layout {
		return SectorFieldState{}, fmt.Errorf("flowfield: the sector field towards %v has not caught up with the grid's new size (%d×%d); save after its next Update", f.goal, f.s.gw, f.s.gh)
	}
	behind := f.graph != f.s.graph
	st := SectorFieldState{Goal: f.goal, Built: []SectorBuildState{}, Wanted: append([]int32{}, f.wanted...), Edited: f.edited, Behind: behind}
	for _, i := range f.order {
		sf := f.fields[i]
		b := SectorBuildState{Sector: i, Sum: sf.sum()}
		if f.edited || behind {
			b.D = make([]byte, 4*len(sf.d))
			for k, v := range sf.d {
				binary.LittleEndian.PutUint32(b.D[4*k:], math.Float32bits(v))
			}
			b.Dir = append([]byte{}, sf.dir...)
		}
		if behind {
			b.Changed = sf.version != f.s.secs[i].version
			b.Est = make([]byte, 0, 12*len(sf.est))
			for _, e := range sf.est {
				b.Est = binary.LittleEndian.AppendUint32(b.Est, uint32(e.c.X))
				b.Est = binary.LittleEndian.AppendUint32(b.Est, uint32(e.c.Y))
				b.Est = binary.LittleEndian.AppendUint32(b.Est, math.Float32bits(e.v))
			}
		}
		st.Built = append(st.Built, b)
	}
	return st, nil
}

// sum is the checksum of a built sector (see [SectorBuildState]).
func (sf *sectorField) sum() uint64 {
	h := fnv.New64a()
	var b [4]byte
	for _, v := range sf.d {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
		h.Write(b[:])
	}
	h.Write(sf.dir)
	return h.Sum64()
}

// Restore makes the field hold st: it sets the goal (as [SectorField.SetGoal]),
// builds the saved sectors again in their order (or takes their saved values
// for an Edited state), checking each against its Sum, and marks the wanted
// sectors. It returns an error, leaving the field without a goal, when a
// sector index is outside the grid's sectors or given twice, the goal's
// sector is missing or (unless Edited) not the first built, a wanted sector is built, a saved sector's
// data has the wrong length, or a sector built again differs from the saved
// one (the grid is not the saved run's).
func (f *SectorField) Restore(st SectorFieldState) error {
	err := f.restore(st)
	if err != nil {
		f.SetGoal(grid.Cell{X: -1, Y: -1})
	}
	return err
}

func (f *SectorField) restore(st SectorFieldState) error {
	if st.Behind {
		return f.restoreBehind(st)
	}
	f.SetGoal(st.Goal)
	n := int32(len(f.fields))
	seen := make([]bool, n)
	for k, b := range st.Built {
		i := b.Sector
		if i < 0 || i >= n {
			return fmt.Errorf("flowfield: goal %v: built sector %d is not among the grid's %d", st.Goal, i, n)
		}
		if seen[i] {
			return fmt.Errorf("flowfield: goal %v: sector %d built twice", st.Goal, i)
		}
		seen[i] = true
		switch {
		case b.Est != nil || b.Changed:
			return fmt.Errorf("flowfield: goal %v: sector %d: seeds or a change saved in a state not Behind", st.Goal, i)
		case b.D != nil || b.Dir != nil:
			if err := f.install(int(i), b, nil); err != nil {
				return fmt.Errorf("flowfield: goal %v: %w", st.Goal, err)
			}
		case int(i) == f.goalSec: // built by SetGoal
			if k != 0 {
				return fmt.Errorf("flowfield: goal %v: the goal's sector %d is built first, not at %d", st.Goal, i, k)
			}
		default:
			f.build(int(i))
		}
		if sum := f.fields[i].sum(); sum != b.Sum {
			return fmt.Errorf("flowfield: goal %v: sector %d built again differs from the saved one (sum %x, saved %x): not the saved run's grid", st.Goal, i, sum, b.Sum)
		}
	}
	if f.goalSec >= 0 && !seen[f.goalSec] {
		return fmt.Errorf("flowfield: goal %v: the goal's sector %d is not among the built ones", st.Goal, f.goalSec)
	}
	f.order = f.order[:0]
	for _, b := range st.Built {
		f.order = append(f.order, b.Sector)
	}
	for _, i := range st.Wanted {
		if i < 0 || i >= n {
			return fmt.Errorf("flowfield: goal %v: wanted sector %d is not among the grid's %d", st.Goal, i, n)
		}
		if f.fields[i] != nil || f.want[i] {
			return fmt.Errorf("flowfield: goal %v: wanted sector %d is built or wanted twice", st.Goal, i)
		}
		f.want[i] = true
		f.wanted = append(f.wanted, i)
	}
	f.edited = st.Edited
	f.last = f.last[:0]
	return nil
}

// restoreBehind is restore for a Behind state: the goal set without a search, each
// sector installed with its saved seeds, and the graph counter one no Sectors reaches,
// so that the next Update catches up.
func (f *SectorField) restoreBehind(st SectorFieldState) error {
	f.SetGoal(grid.Cell{X: -1, Y: -1}) // drops everything, searches nothing
	if g := f.s.g; !g.InBounds(st.Goal) && (len(st.Built) > 0 || len(st.Wanted) > 0) {
		// (a blocked goal is a state's own: the edit that put the field behind may be
		// a door closing on its goal)
		return fmt.Errorf("flowfield: goal %v: off the %d×%d grid, with sectors built or wanted for it", st.Goal, g.Width(), g.Height())
	}
	f.goal = st.Goal
	n := int32(len(f.fields))
	for _, b := range st.Built {
		i := b.Sector
		if i < 0 || i >= n {
			return fmt.Errorf("flowfield: goal %v: built sector %d is not among the grid's %d", st.Goal, i, n)
		}
		if f.fields[i] != nil {
			return fmt.Errorf("flowfield: goal %v: sector %d built twice", st.Goal, i)
		}
		if len(b.Est)%12 != 0 {
			return fmt.Errorf("flowfield: goal %v: sector %d: %d bytes of seeds, not 12 a seed", st.Goal, i, len(b.Est))
		}
		est := make([]seedRec, len(b.Est)/12)
		for k := range est {
			e := b.Est[12*k:]
			est[k] = seedRec{grid.Cell{X: int32(binary.LittleEndian.Uint32(e)), Y: int32(binary.LittleEndian.Uint32(e[4:]))}, math.Float32frombits(binary.LittleEndian.Uint32(e[8:]))}
			if v := est[k].v; !f.s.g.InBounds(est[k].c) || !(v >= 0) || math.IsInf(float64(v), 1) {
				return fmt.Errorf("flowfield: goal %v: sector %d: seed %d at %v of value %v: off the grid, or not a finite cost ≥ 0", st.Goal, i, k, est[k].c, v)
			}
		}
		if err := f.install(int(i), b, est); err != nil {
			return fmt.Errorf("flowfield: goal %v: %w", st.Goal, err)
		}
		if b.Changed {
			f.fields[i].version = staleGraph
		}
		if sum := f.fields[i].sum(); sum != b.Sum {
			return fmt.Errorf("flowfield: goal %v: sector %d differs from its sum (sum %x, saved %x)", st.Goal, i, sum, b.Sum)
		}
		f.order = append(f.order, i)
	}
	for _, i := range st.Wanted {
		if i < 0 || i >= n {
			return fmt.Errorf("flowfield: goal %v: wanted sector %d is not among the grid's %d", st.Goal, i, n)
		}
		if f.fields[i] != nil || f.want[i] {
			return fmt.Errorf("flowfield: goal %v: wanted sector %d is built or wanted twice", st.Goal, i)
		}
		f.want[i] = true
		f.wanted = append(f.wanted, i)
	}
	f.edited = st.Edited
	f.graph = staleGraph
	return nil
}

// install sets the field of sector i from saved values and directions, built from the
// seeds est (nil: those of the portal graph now).
func (f *SectorField) install(i int, b SectorBuildState, est []seedRec) error {
	sec := &f.s.secs[i]
	cells := int(sec.w * sec.h)
	if len(b.D) != 4*cells || len(b.Dir) != cells {
		return fmt.Errorf("sector %d: %d bytes of values and %d of directions for %d cells", i, len(b.D), len(b.Dir), cells)
	}
	for _, d := range b.Dir {
		if d >= 8 && d != dirGoal && d != dirNone {
			return fmt.Errorf("sector %d: direction code %d", i, d)
		}
	}
	sf := f.fields[i]
	if sf == nil {
		sf = &sectorField{}
	}
	sf.d = resize(sf.d, cells)
	for k := range sf.d {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b.D[4*k:]))
		if !(v >= 0) { // NaN or negative: no integration value (unreached is +Inf)
			if f.fields[i] == nil {
				f.pool = append(f.pool, sf)
			}
			return fmt.Errorf("sector %d: cell %d of %d: value %v, not a cost ≥ 0", i, k, cells, v)
		}
		sf.d[k] = v
	}
	sf.dir = append(sf.dir[:0], b.Dir...)
	sf.version = sec.version
	if est != nil {
		sf.est = append(sf.est[:0], est...)
	} else {
		sf.est = f.seedsOf(i, sf.est[:0], false)
	}
	sf.findDeps(f.s, i)
	f.fields[i] = sf
	return nil
}
