package debugview

import (
	"fmt"
	"math"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
)

// Timer reports each system's accumulated Update time, as
// [ecs.Scheduler.AppendTimes] does: the viewer charts the difference between
// two snapshots, per frame.
type Timer interface {
	AppendTimes(dst []ecs.SystemTime) []ecs.SystemTime
}

// StallAfter is how long the simulation may stay away from the viewer, in wall-clock
// time, before the snapshot says it has stalled ([Snapshot.Stalled]): no frame for 3 s
// while not paused nor ended (a loop that stopped without Finalize, a system stuck in
// its Update, or a frame that takes that long).
const StallAfter = 3 * time.Second

// MaxSpeed is the largest pace [Viewer.Speed] and the page's speed command
// accept: 1000 times real time.
const MaxSpeed = 1000

// Viewer is the debugger's system: add it to the world's systems, last (after
// Movement), so each snapshot sees a finished frame and a pause falls between
// two frames. Make it with [New]; set the fields before Initialize.
//
// Contract:
//
//	requires   nothing (agents are the entities with a Position)
//	optional   Faction, Health, Intent, Velocity, Think, Brain, Blackboard,
//	           UtilityBrain, StateMachine, Path, Perception, FlowFollower,
//	           HTNPlanner, GOAPPlanner, SquadMember
//	writes     nothing of the simulation: it reads the world, and only sets the
//	           selected agent's UtilityBrain.State.Trace (utility.Trace: the
//	           reasoner then records that agent's raw inputs; no decision reads
//	           it, it is neither saved nor hashed) and has its Brain's and
//	           TreeRuns' bt.Memory record which nodes each tick reaches
//	           (bt.Memory.RecordTicks: likewise read by no decision, neither saved
//	           nor hashed, allocated once), both taken out again when the
//	           agent is deselected, another selected, or at Finalize
//	resources  *ecs.Clock and *grid.Grid optional (without a clock a frame
//	           counts as 1/60 s; without a grid the page draws no map)
//
// Important: while paused, Update blocks the simulation goroutine until the
// page resumes or steps, [Viewer.SetEnabled](false) or [Viewer.Close].
type Viewer struct {
	// Every is the number of frames between snapshots: 6 if zero (10 a
	// second at 60 frames per second). While paused every frame is a snapshot.
	Every int
	// Speed is the initial pace in multiples of real time: 1 runs a second
	// of simulation time per wall-clock second (Update sleeps to keep the
	// pace), 0 does not pace. It is read at Initialize: a later change of the
	// field does nothing; change the pace with [Viewer.SetSpeed] (or the page).
	Speed float64
	// Times, if set, gives each system's time for the page's chart: the
	// *ecs.Scheduler that runs the systems, or, under arche-model's Model (or
	// a loop of the program's own), an *ecs.Timings whose Time wrapped each
	// system where it was added (m.AddSystem(tm.Time(sys))). The viewer's own
	// entry shows its work without the pacing sleep and the pause. Unset, the
	// page's chart says so.
	Times Timer
	// LogSeconds is how far back the selected agent's transition log goes,
	// seconds of simulation time: 10 if zero.
	LogSeconds float64
	// DiagnoseEvery is the number of frames between two diagnostics checks
	// ([systems.Diagnostics]); 60 if zero.
	DiagnoseEvery int
	// Paused starts the simulation paused at the end of the first frame.
	Paused bool
	// AllowHosts lists the host names (without port) besides localhost and IP
	// addresses that requests may name in their Host header, such as the machine's
	// LAN name when the page is opened from another machine. Requests naming any
	// other host get 403: a page of another site whose name was made to resolve to
	// 127.0.0.1 (DNS rebinding) would otherwise read the state and post commands as
	// the debugger's own page. Set it before serving.
	AllowHosts []string

	enabled   atomic.Bool
	ended     atomic.Bool      // finalized: no frame runs until the next Initialize
	left      atomic.Int64     // wall clock (Unix ns) when the last Update returned; 0 inside Update, before the first and after Finalize
	now       func() time.Time // the wall clock of the heartbeat (left): time.Now, or a test's
	cmds      chan command
	done      chan struct{}
	closeOnce sync.Once

	// the simulation goroutine's state
	clock      *ecs.Clock
	grid       *grid.Grid
	filter     arche.Filter
	finalized  bool // Finalize ran, and Initialize not since: Update panics
	ids        componentIDs
	frames     int64
	paused     bool
	stepOnce   bool
	dirty      bool
	speed      float64
	selected   arche.Entity
	selErr     string
	tracer     *bt.Tracer
	traced     *bt.Tree
	traceStart int        // log entries of the baseline, left out
	treeBase   Transition // the tree log's "selected" entry
	planSeen   planSeen
	planLog    []PlanTransition
	fsmSeen    fsmSeen
	fsmLog     []FSMTransition
	activities struct { // the states of a machine that run trees (fsm.Hooks.Activity)
		machine *fsm.Machine
		states  []fsm.StateID
	}
	treeRuns       map[arche.ID][]treeRunField // per component type: where it holds hybrid.TreeRuns
	runComps       []arche.ID                  // the selected agent's components that hold TreeRuns
	stateTracers   []stateTracer
	treesBaselined bool                        // the selected agent's TreeRuns were observed once
	utilTrace      utility.Trace               // given to the selected agent's utility State
	traceOwner     arche.Entity                // the agent whose State holds utilTrace
	tickOwner      arche.Entity                // the agent whose tree memories record their ticks (bt.Memory.RecordTicks)
	stateFields    map[arche.ID][]treeRunField // per component type: where it holds utility.States (capture_selector.go)
	stateComps     []arche.ID                  // the selected agent's components that hold utility.States (not its UtilityBrain)
	stateTraces    []stateTrace                // the selected agent's utility.States outside its UtilityBrain, and their Traces
	stateOwner     arche.Entity                // the agent whose States hold stateTraces' Traces
	utilSeen       utilSeen
	utilLog        []UtilityTransition
	diag           systems.Diagnostics // Check only: never initialized, so not a live Diagnostics whose state a save must hold
	lastDiag       int64
	times          []ecs.SystemTime
	prevTimes      []time.Duration
	prevFrame      int64
	work           time.Duration // the viewer's own work since the last snapshot
	prevWork       time.Duration
	anchorWall     time.Time
	anchorSim      float64
	timer          *time.Timer // pace's, made at its first wait
	fpsWall        time.Time   // wall clock and frame count of the last snapshot
	fpsFrame       int64
	mapVersion     uint64
	flowKey        flowKey
	back           *Snapshot

	// shared with the HTTP side, guarded by mu
	mu      sync.RWMutex
	front   *Snapshot
	mapData *mapData
	flow    *flowData
	version uint64
	changed chan struct{}

	enc encoded
}

// New returns an enabled viewer with the default settings (a snapshot every
// 6 frames, real-time pace, a 10 s log).
func New() *Viewer {
	v := &Viewer{Speed: 1, cmds: make(chan command, 64), done: make(chan struct{}), changed: make(chan struct{})}
	v.enabled.Store(true)
	v.front, v.back = &Snapshot{}, &Snapshot{}
	return v
}

// SetEnabled turns the viewer on or off; safe from any goroutine. Disabled,
// Update returns at once (a paused simulation carries on) and commands get
// 503; enabled again, it resumes where it was (still paused if it was).
func (v *Viewer) SetEnabled(on bool) {
	v.enabled.Store(on)
	select { // wake a paused Update
	case v.cmds <- command{op: opWake}:
	default:
	}
}

// Select asks for the agent whose entity ID is id to be selected at the next
// Update, as the page's click does (an ID that is no agent's leaves nothing
// selected and says so in [Snapshot.SelectError]); safe from any goroutine.
// It reports false, selecting nothing, when too many commands are waiting.
func (v *Viewer) Select(id uint32) bool {
	select {
	case v.cmds <- command{op: opSelect, id: id}:
		return true
	default:
		return false
	}
}

// SetSpeed asks for the pace to become s times real time (0: unpaced) at the
// next Update, as the page's speed buttons do; safe from any goroutine. It
// reports false, changing nothing, when s is NaN, negative or above
// [MaxSpeed], or when too many commands are waiting.
func (v *Viewer) SetSpeed(s float64) bool {
	if !goodSpeed(s) {
		return false
	}
	select {
	case v.cmds <- command{op: opSpeed, value: s}:
		return true
	default:
		return false
	}
}

// Enabled reports whether the viewer is on.
func (v *Viewer) Enabled() bool { return v.enabled.Load() }

// Close releases a paused Update for good (it no longer blocks, nor waits
// for the pace) and ends the page's event streams; safe from any goroutine,
// more than once. Call it before shutting the HTTP server down.
func (v *Viewer) Close() { v.closeOnce.Do(func() { close(v.done) }) }

// Name implements ecs.Namer: "debugview".
func (v *Viewer) Name() string { return "debugview" }

// Initialize looks up the optional resources and builds the filter.
//
// Panics, with an *[ecs.SetupError] of kind [ecs.ErrSettings] (which
// ecs.Scheduler.InitializeChecked returns as an error):
//   - if v was not made by [New]: use debugview.New();
//   - if Speed is NaN, infinite, negative or above [MaxSpeed]: set it in
//     multiples of real time, or 0 for unpaced;
//   - if Every, DiagnoseEvery or LogSeconds is negative (or LogSeconds NaN or
//     infinite): leave them 0 for the defaults;
//   - if Times is a nil pointer (a nil *ecs.Timings or *ecs.Scheduler): set it,
//     or leave Times itself nil.
func (v *Viewer) Initialize(w *arche.World) {
	if v.cmds == nil {
		panic(&ecs.SetupError{System: "Viewer", Kind: ecs.ErrSettings, Msg: "debugview: Viewer not made by debugview.New(); use v := debugview.New()"})
	}
	if !goodSpeed(v.Speed) {
		panic(&ecs.SetupError{System: "Viewer", Kind: ecs.ErrSettings, Msg: fmt.Sprintf("debugview: Viewer.Speed is %v; set it in multiples of real time (0 to %d), or 0 for unpaced", v.Speed, MaxSpeed)})
	}
	if v.Every < 0 || v.DiagnoseEvery < 0 || v.LogSeconds < 0 || math.IsNaN(v.LogSeconds) || math.IsInf(v.LogSeconds, 0) {
		panic(&ecs.SetupError{System: "Viewer", Kind: ecs.ErrSettings, Msg: fmt.Sprintf("debugview: Viewer.Every (%d), DiagnoseEvery (%d) and LogSeconds (%v) must be ≥ 0 and finite; 0 takes the defaults", v.Every, v.DiagnoseEvery, v.LogSeconds)})
	}
	if t := reflect.ValueOf(v.Times); v.Times != nil && t.Kind() == reflect.Pointer && t.IsNil() {
		panic(&ecs.SetupError{System: "Viewer", Kind: ecs.ErrSettings, Msg: fmt.Sprintf("debugview: Viewer.Times is a nil %T; set it to the *ecs.Scheduler or *ecs.Timings that times the systems, or leave it unset (nil)", v.Times)})
	}
	if v.Every == 0 {
		v.Every = 6
	}
	if v.DiagnoseEvery == 0 {
		v.DiagnoseEvery = 60
	}
	if v.LogSeconds == 0 {
		v.LogSeconds = 10
	}
	v.speed, v.paused = v.Speed, v.Paused
	v.clock = ecs.Resource[ecs.Clock](w)
	v.grid = ecs.Resource[grid.Grid](w)
	v.ids = lookupIDs(w)
	v.treeRuns, v.traceOwner, v.tickOwner = nil, arche.Entity{}, arche.Entity{} // component IDs are the world's
	v.stateFields, v.stateComps, v.stateTraces, v.stateOwner = nil, v.stateComps[:0], v.stateTraces[:0], arche.Entity{}
	v.filter, v.finalized = arche.All(v.ids.pos), false
	v.ended.Store(false)
	v.diag = systems.Diagnostics{} // its checks' filters bind to their first world: new ones for this one
	v.lastDiag = -1 << 62
	v.mapVersion = math.MaxUint64
	v.dirty = true
}

// Update drains the page's commands, follows the selected agent's tree,
// copies a snapshot every Every frames, blocks while paused and sleeps to keep
// the pace. Disabled, it returns at once and allocates nothing.
func (v *Viewer) Update(w *arche.World) {
	if v.filter == nil {
		if v.finalized {
			panic("debugview: Viewer.Update called after Finalize: call Initialize(w) again first (a level restart), or stop updating it")
		}
		panic("debugview: Viewer.Update called before Initialize: call Initialize(w) on every system (ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update")
	}
	if !v.enabled.Load() {
		return
	}
	v.left.Store(0) // inside Update: a pause or the pace is not a stall
	defer v.heartbeat()
	t0 := time.Now()
	v.frames++
	v.drain(w)
	v.observe(w)
	if v.dirty || v.paused || v.frames%int64(v.Every) == 0 {
		v.capture(w, t0)
	}
	v.work += time.Since(t0)
	if v.paused {
		v.hold(w)
	}
	v.pace(w)
}

// Finalize drops the filter, so that an Update after it panics naming the
// Viewer until the next Initialize (as the systems of package systems do),
// and marks the last snapshot ended (Snapshot.Ended, FPS 0): a page still
// served shows the last frame as a simulation that no longer runs, and a
// command gets 503. It ends no stream: call [Viewer.Close] to end the page's
// streams.
func (v *Viewer) Finalize(w *arche.World) {
	if v.filter != nil { // not if never initialized, or finalized already
		v.untrace(w)
		v.untraceStates(w)
		v.unrecordTicks(w)
		v.left.Store(0)
		v.filter, v.finalized = nil, true
		v.ended.Store(true)
		v.publishEnded()
	}
}

// goodSpeed reports whether s is a pace the viewer accepts.
func goodSpeed(s float64) bool { return s >= 0 && s <= MaxSpeed }

// agentState is the state a dot is coloured by on the page.
type agentState uint8

// Agent states, the first that applies, in this order.
const (
	stateIdle    agentState = iota // none of the below
	stateMoving                    // Intent.Move, or a non-zero velocity
	stateAttack                    // Intent.Attack set
	stateFlee                      // Intent.Mode flee or evade
	statePursue                    // Intent.Mode pursue
	stateDown                      // Health.Current ≤ 0
	stateArrived                   // FlowFollower.Arrived
	stateFrozen                    // Think.Frozen
)

func stateOf(in *components.Intent, vel *components.Velocity, hp *components.Health, ff *components.FlowFollower, th *components.Think) agentState {
	switch {
	case hp != nil && hp.Current <= 0:
		return stateDown
	case th != nil && th.Frozen:
		return stateFrozen
	case in != nil && !in.Attack.IsZero():
		return stateAttack
	case in != nil && (in.Mode == components.IntentFlee || in.Mode == components.IntentEvade):
		return stateFlee
	case in != nil && in.Mode == components.IntentPursue:
		return statePursue
	case ff != nil && ff.Arrived:
		return stateArrived
	case in != nil && in.Move, vel != nil && (vel.X != 0 || vel.Y != 0):
		return stateMoving
	}
	return stateIdle
}
