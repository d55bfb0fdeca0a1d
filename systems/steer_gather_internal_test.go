package systems

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// amd64AssemblyOnly skips a test of the layout the amd64 assembly reads on other
// architectures, which build the Go loops instead (steer_*_other.go).
func amd64AssemblyOnly(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the layout amd64's assembly reads; GOARCH=" + runtime.GOARCH + " runs the Go loops")
	}
}

// TestGatherArgsLayout: the offsets and strides gatherRunKernel's assembly
// reads.
func TestGatherArgsLayout(t *testing.T) {
	amd64AssemblyOnly(t)
	var g gatherArgs
	require.Equal(t, []uintptr{0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 168, 176},
		[]uintptr{unsafe.Offsetof(g.ents), unsafe.Offsetof(g.pos), unsafe.Offsetof(g.vel), unsafe.Offsetof(g.kin),
			unsafe.Offsetof(g.des), unsafe.Offsetof(g.wts), unsafe.Offsetof(g.n), unsafe.Offsetof(g.byEntity),
			unsafe.Offsetof(g.nByEntity), unsafe.Offsetof(g.entities), unsafe.Offsetof(g.nEntities),
			unsafe.Offsetof(g.slots), unsafe.Offsetof(g.nSlots), unsafe.Offsetof(g.hot), unsafe.Offsetof(g.nHot),
			unsafe.Offsetof(g.low), unsafe.Offsetof(g.outRun), unsafe.Offsetof(g.modes), unsafe.Offsetof(g.kin0),
			unsafe.Offsetof(g.factor), unsafe.Offsetof(g.wt)})
	var d components.Desired
	require.Equal(t, []uintptr{0, 8, 16, 48}, []uintptr{unsafe.Offsetof(d.Mode), unsafe.Offsetof(d.SpeedFactor),
		unsafe.Offsetof(d.Point), unsafe.Sizeof(d)})
	require.Equal(t, []uintptr{8, 16, 16, 24, 48}, []uintptr{unsafe.Sizeof(arche.Entity{}), unsafe.Sizeof(components.Position{}),
		unsafe.Sizeof(components.Velocity{}), unsafe.Sizeof(components.Kinematics{}), unsafe.Sizeof(components.SteeringWeights{})})
	require.Equal(t, uintptr(24), unsafe.Offsetof(components.SteeringWeights{}.Alignment))
}

// TestGatherRunKernelMatchesGo: over runs of agents that qualify or not
// for each of gatherRun's reasons (another mode, a kind that differs in
// one bit of any field, −0 for +0, an entity not in the hash, a stale
// entity, a hash ID or a slot out of range), the assembly kernel stops at
// the same agent as gatherRunGo and writes the same bytes to the same
// records, and no others.
func TestGatherRunKernelMatchesGo(t *testing.T) {
	if !setGatherKernel(true) {
		t.Skip("no gather kernel on this build or processor")
	}
	world := arche.NewWorld()
	const n = 64
	ents := make([]arche.Entity, n)
	for i := range ents {
		ents[i] = world.NewEntity()
	}
	world.RemoveEntity(ents[5])
	stale := ents[5]
	ents[5] = world.NewEntity() // the same ID, a new generation
	kin := components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
	wt := components.SteeringWeights{Wall: 1, Separation: 1.5, SeparationRadius: 0.75, Alignment: 0.25, Cohesion: 0.5, NeighbourRadius: 2}
	const factor = 0.5
	rng := rand.New(rand.NewPCG(5, 21))
	for round := range 3000 {
		s := &Steer{}
		s.kinds = []steerKind{newKind(&kin, &wt, 0.9), newKind(&kin, &wt, factor)}
		s.hot = growLines(nil, 2*n)
		s.nb = &Neighbours{Entities: make([]arche.Entity, n), byEntity: make([]int32, n+3)}
		slots := make([]int32, n)
		for i := range s.nb.byEntity {
			s.nb.byEntity[i] = -1
		}
		perm := rng.Perm(2 * n)
		m := 1 + rng.IntN(n)
		pos := make([]components.Position, m)
		vel := make([]components.Velocity, m)
		kins := make([]components.Kinematics, m)
		des := make([]components.Desired, m)
		wts := make([]components.SteeringWeights, m)
		run := ents[:m]
		run = append([]arche.Entity(nil), run...)
		for j := range run {
			id := int32(j)
			s.nb.Entities[id] = run[j]
			s.nb.byEntity[run[j].ID()] = id
			slots[id] = int32(perm[j])
			pos[j].Vec = r2.Vec{X: rng.Float64() * 100, Y: -rng.Float64()}
			vel[j].Vec = r2.Vec{X: rng.NormFloat64(), Y: math.Copysign(0, -1)}
			kins[j], wts[j] = kin, wt
			des[j] = components.Desired{Mode: components.DesiredMode(1 + rng.IntN(4)), SpeedFactor: factor,
				Point: r2.Vec{X: rng.Float64(), Y: math.NaN()}, Vel: r2.Vec{X: 9, Y: 9}}
		}
		// one agent that does not qualify, most rounds
		if j := rng.IntN(m); round%8 != 0 {
			one := math.Float64frombits(1)
			switch round % 17 {
			case 0:
				des[j].Mode = components.DesiredPursue
			case 1:
				des[j].Mode = components.DesiredMode(32 + rng.IntN(200))
			case 2:
				kins[j].MaxSpeed += one * 1e-300
			case 3:
				kins[j].Radius = math.Float64frombits(math.Float64bits(kin.Radius) ^ 1<<uint(rng.IntN(64)))
			case 4:
				des[j].SpeedFactor = 0.25
			case 5:
				wts[j].NeighbourRadius = math.Float64frombits(math.Float64bits(wt.NeighbourRadius) ^ 1<<uint(rng.IntN(64)))
			case 6:
				wts[j].Wall = math.Float64frombits(math.Float64bits(wt.Wall) ^ 1<<uint(rng.IntN(64)))
			case 7:
				wts[j].Alignment = math.Float64frombits(math.Float64bits(wt.Alignment) ^ 1<<uint(rng.IntN(64)))
			case 8:
				s.nb.byEntity[run[j].ID()] = -1 // not in the hash
			case 9:
				if run[j].ID() == stale.ID() {
					s.nb.Entities[j] = stale // the hash holds an older entity of that ID
				} else {
					s.nb.Entities[j] = ents[(j+1)%n]
				}
			case 10:
				s.nb.byEntity[run[j].ID()] = int32(n + rng.IntN(5)) // past Entities
			case 11:
				slots[j] = int32(2*n + rng.IntN(3)) // past hot
			case 12:
				slots[j] = -1 - int32(rng.IntN(3))
			case 13:
				s.nb.byEntity = s.nb.byEntity[:run[j].ID()] // an entity ID past byEntity
			case 14:
				slots = slots[:j] // a hash ID past slots
			case 15:
				kins[j].MaxForce = math.Copysign(0, -1) // kin: MaxForce −0 against 20
			case 16:
				des[j].Mode = components.DesiredNone
			}
		}
		modes := ^uint32(1<<components.DesiredPursue | 1<<components.DesiredEvade | 1<<components.DesiredNone)
		low := uint64(1) | uint64(0xffffffff)<<32
		outRun := uint64(1) | uint64(3)<<32 // the run's first agent, run 3
		for i := range s.hot {
			s.hot[i] = steerAgent{kind: uint32(i), out: -int32(i)}
		}
		s.hot[len(s.hot)-1].run = 77
		want := append([]steerAgent(nil), s.hot...)
		hot := s.hot
		s.hot = want
		wn := s.gatherRunGo(run, pos, vel, kins, des, wts, slots, &s.kinds[1], low, outRun, modes)
		s.hot = hot
		s.cols.ents = run
		var g gatherArgs
		gn := s.gatherRun(0, m, 0, 3, pos, vel, kins, des, wts, slots, 1, modes, &g)
		storeFence()
		require.Equal(t, wn, gn, "round %d: the agent it stops at", round)
		bytes := func(a []steerAgent) []byte {
			return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), len(a)*int(unsafe.Sizeof(a[0])))
		}
		require.Equal(t, bytes(want), bytes(s.hot), "round %d: the records, to the bit", round)
	}
}
