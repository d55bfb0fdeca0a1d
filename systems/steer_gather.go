package systems

import (
	"math"
	"unsafe"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// gatherArgs is a run of the gather's common agents for gatherRunKernel
// (at the offsets steer_gather_amd64.s reads; TestGatherArgsLayout checks
// them): the n agents from ents, their components from pos to wts (one
// column each, from the same agent on), the hash's tables to find each
// one's slot of hot, and the kind they must be of.
type gatherArgs struct {
	ents      *arche.Entity               // 0
	pos, vel  *components.Position        // 8 (Velocity has Position's layout: an r2.Vec), 16
	kin       *components.Kinematics      // 24
	des       *components.Desired         // 32
	wts       *components.SteeringWeights // 40
	n         int                         // 48
	byEntity  *int32                      // 56: Neighbours.byEntity
	nByEntity int                         // 64
	entities  *arche.Entity               // 72: Neighbours.Entities
	nEntities int                         // 80
	slots     *int32                      // 88: the hash's slot by hash ID
	nSlots    int                         // 96
	hot       *steerAgent                 // 104
	nHot      int                         // 112
	low       uint64                      // 120: the record's word at 48 less the mode: the kind's index, aux −1
	outRun    uint64                      // 128: the first agent's out (low 32 bits) and run
	modes     uint64                      // 136: bit m set: an agent of mode m has no aux
	kin0      [3]uint64                   // 144: the kind's Kinematics, bit for bit
	factor    uint64                      // 168: its speed factor's bits
	wt        [6]uint64                   // 176: its SteeringWeights
}

// gatherRun is the gather's loop for agents i from i0 (up to end) of run r
// of the query (its first agent at start; pos to wts its columns, wts not
// nil) while each is of kind kd (bit for bit, see ofBits; with weights),
// has no aux (its mode's bit set in modes) and is in the hash (slots not
// nil): it stores each one's record as the gather's general loop does, and
// returns the index of the first agent it did not store (end if none). The
// general loop takes that one. On amd64 with AVX2 the loop is an assembly
// kernel (gatherRunKernel), which stores the same records
// (TestGatherRunKernelMatchesGo).
func (s *Steer) gatherRun(i0, end, start, r int, pos []components.Position, vel []components.Velocity,
	kin []components.Kinematics, des []components.Desired, wts []components.SteeringWeights,
	slots []int32, kd int, modes uint32, g *gatherArgs) int {
	k0, k1 := i0-start, end-start
	ents := s.cols.ents[i0:end]
	pos, vel, kin, des, wts = pos[k0:k1], vel[k0:k1], kin[k0:k1], des[k0:k1], wts[k0:k1]
	kind := &s.kinds[kd]
	low := uint64(kd) | uint64(0xffffffff)<<32 // aux −1
	outRun := uint64(uint32(k0+1)) | uint64(uint32(r))<<32
	if gatherKernel && len(ents) > 0 {
		*g = gatherArgs{
			ents: &ents[0], pos: &pos[0], vel: (*components.Position)(unsafe.Pointer(&vel[0])),
			kin: &kin[0], des: &des[0], wts: &wts[0], n: len(ents),
			byEntity: unsafe.SliceData(s.nb.byEntity), nByEntity: len(s.nb.byEntity),
			entities: unsafe.SliceData(s.nb.Entities), nEntities: len(s.nb.Entities),
			slots: unsafe.SliceData(slots), nSlots: len(slots), hot: unsafe.SliceData(s.hot), nHot: len(s.hot),
			low: low, outRun: outRun, modes: uint64(modes),
			kin0:   *(*[3]uint64)(unsafe.Pointer(&kind.kin)),
			factor: math.Float64bits(kind.factor),
			wt:     *(*[6]uint64)(unsafe.Pointer(&kind.wt)),
		}
		return i0 + gatherRunKernel(g)
	}
	return i0 + s.gatherRunGo(ents, pos, vel, kin, des, wts, slots, kind, low, outRun, modes)
}

// gatherRunGo is gatherRun's loop in Go (the kernel's reference): it
// returns how many of the agents it stored.
func (s *Steer) gatherRunGo(ents []arche.Entity, pos []components.Position, vel []components.Velocity,
	kin []components.Kinematics, des []components.Desired, wts []components.SteeringWeights,
	slots []int32, kind *steerKind, low, outRun uint64, modes uint32) int {
	byEntity, entities, hot := s.nb.byEntity, s.nb.Entities, s.hot
	kb := *(*[3]uint64)(unsafe.Pointer(&kind.kin))
	wb0 := *(*[3]uint64)(unsafe.Pointer(&kind.wt))
	wb1 := *(*[3]uint64)(unsafe.Pointer(&kind.wt.Alignment))
	fb := math.Float64bits(kind.factor)
	for j := range ents {
		d := &des[j]
		mode := d.Mode
		// arrays of three words (one of six is compared by a call)
		if modes>>mode&1 == 0 || *(*[3]uint64)(unsafe.Pointer(&kin[j])) != kb || math.Float64bits(d.SpeedFactor) != fb ||
			*(*[3]uint64)(unsafe.Pointer(&wts[j])) != wb0 || *(*[3]uint64)(unsafe.Pointer(&wts[j].Alignment)) != wb1 {
			return j
		}
		e := ents[j]
		ei := int(e.ID())
		if ei >= len(byEntity) {
			return j
		}
		id := byEntity[ei]
		if id < 0 || int(id) >= len(entities) || entities[id] != e || int(id) >= len(slots) {
			return j
		}
		slot := slots[id]
		if slot < 0 || int(slot) >= len(hot) {
			return j
		}
		storeAgent(&hot[slot], &pos[j].Vec, &vel[j].Vec, &d.Point, uint64(mode)<<kindBits|low, outRun+uint64(j))
	}
	return len(ents)
}
