package debugview

import (
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
)

// Snapshot is what the page sees of the world at one frame: the JSON of GET
// /state and of each "snapshot" event. Positions are in cells, times in
// seconds of simulation time unless named otherwise. A NaN or infinite number
// of the world (which JSON cannot hold) is shown as 0.
type Snapshot struct {
	Version uint64  `json:"version"` // bumped at each snapshot published
	Frame   int64   `json:"frame"`   // the clock's frame number (frames seen, without a clock)
	Time    float64 `json:"time"`    // the frame's simulation time (Clock.Time: n·DT in frame n at a constant step)
	Paused  bool    `json:"paused"`
	Speed   float64 `json:"speed"` // pace, multiples of real time (0: unpaced)
	FPS     float64 `json:"fps"`   // frames per wall-clock second since the last snapshot (0 while paused or ended)
	// Ended is true once the Viewer is finalized (the program's frames are over):
	// the snapshot is the last frame's and no frame follows until Initialize again.
	Ended bool `json:"ended"`

	// Agents packs every agent (entity with a Position), AgentSize bytes
	// each, little-endian: entity ID uint32, x float32, y float32, team
	// uint8 (255: no Faction), state uint8 (idle 0, moving 1, attacking 2,
	// fleeing 3, pursuing 4, down 5, arrived 6, frozen 7), 2 bytes padding.
	Agents []byte `json:"agents"`
	Count  int    `json:"count"` // number of agents

	MapVersion uint64 `json:"mapVersion"` // GET /map again when it changes
	FlowKey    string `json:"flowKey"`    // GET /flow again when it changes; "" without a field

	Systems     []SystemMs `json:"systems"`     // ms per frame of each system since the last snapshot
	Diagnostics []CauseN   `json:"diagnostics"` // the last diagnostics check: every cause
	DiagFrame   int64      `json:"diagFrame"`   // the frame of that check

	// LogSeconds is how far back the selected agent's logs go (Viewer.LogSeconds): each
	// log holds its entries of the last LogSeconds, its "selected" entry however old,
	// and the last entry before them (the state in force at the window's start).
	LogSeconds float64 `json:"logSeconds"`

	Selected    *Agent `json:"selected"`    // the selected agent, or null
	SelectError string `json:"selectError"` // why the last selection failed, if it did

	// Stalled is true when the simulation has not come back to the viewer for
	// [StallAfter] of wall-clock time, enabled, not paused and not ended: a loop that
	// stopped without Finalize, a system stuck in its Update, or a frame that slow
	// (FPS is then the last snapshot's, not a live rate). The HTTP side sets it, and
	// SinceFrame, as it serves the snapshot (and sends a "heartbeat" event of the two
	// every second while stalled, and once when a stall ends).
	Stalled bool `json:"stalled"`
	// SinceFrame is the wall-clock seconds since the viewer's Update last returned
	// (the end of the last frame); 0 while the simulation is inside it (paused, or
	// waiting for the pace), before the first frame and once ended.
	SinceFrame float64 `json:"sinceFrame"`
}

// AgentSize is the bytes per agent in [Snapshot.Agents].
const AgentSize = 16

// SystemMs is one system's time per frame.
type SystemMs struct {
	Name string  `json:"name"`
	Ms   float64 `json:"ms"`
}

// CauseN is one diagnostics cause and the number of agents with it.
type CauseN struct {
	Cause   string `json:"cause"`
	Count   int    `json:"count"`
	Example uint32 `json:"example"` // entity ID of one such agent; 0 when Count is 0
}

// Vec is a point or direction in cells.
type Vec struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Agent is the selected agent in detail; sections are null where the agent
// lacks the components.
type Agent struct {
	ID         uint32            `json:"id"`
	Gen        uint32            `json:"gen"`
	Alive      bool              `json:"alive"`
	Components []string          `json:"components"`
	Values     []KV              `json:"values"` // the values of its components of types outside archai's components package (the program's own), by type name, shallowly: fields by name, each cut to 80 bytes on its own (the first 32 fields, then how many more), slices and maps of more than 4 elements by length
	Pos        Vec               `json:"pos"`
	Vel        *Vec              `json:"vel"`
	Team       *int              `json:"team"`
	Health     *[2]float64       `json:"health"` // current, max
	Intent     *Intent           `json:"intent"`
	Think      *Think            `json:"think"`
	Tree       *Tree             `json:"tree"`
	Blackboard []KV              `json:"blackboard"`
	Utility    *Utility          `json:"utility"`
	Selectors  []SelectorUtility `json:"selectors"` // utility States kept outside the UtilityBrain (hybrid.UtilitySelector's), each as found in the agent's components; null if none
	FSM        *FSM              `json:"fsm"`
	Path       *Path             `json:"path"`
	Perception *Perception       `json:"perception"`
	Flow       *Flow             `json:"flow"`
	Log        []Transition      `json:"log"` // the tree's transitions since it was selected, of the last LogSeconds, oldest first

	Planner *Planner         `json:"planner"` // the HTN or GOAP planner, or null
	PlanLog []PlanTransition `json:"planLog"` // the plan's transitions since it was selected, of the last LogSeconds, oldest first

	FSMLog     []FSMTransition     `json:"fsmLog"`     // the state machine's state changes since it was selected, of the last LogSeconds, oldest first
	UtilityLog []UtilityTransition `json:"utilityLog"` // the changes of choice of its UtilityBrain and of its Selectors' States since it was selected, of the last LogSeconds, oldest first; null without either
}

// Intent is components.Intent for the page.
type Intent struct {
	Mode   string `json:"mode"` // go, flee, pursue, evade
	Move   bool   `json:"move"`
	Goal   Vec    `json:"goal"`
	Attack uint32 `json:"attack"` // entity ID; 0 for none
	Target uint32 `json:"target"` // entity ID of a flee/pursue/evade target; 0: Point
	Point  Vec    `json:"point"`
}

// Think is components.Think.
type Think struct {
	Interval float64 `json:"interval"`
	Last     float64 `json:"last"`
	Next     float64 `json:"next"`
	Frozen   bool    `json:"frozen"`
}

// Tree is the agent's behavior tree: its nodes in pre-order and each node's
// status (0 Idle, 1 Running, 2 Success, 3 Failure, 4 Skipped, as bt.Status; each
// [Node] also carries its status by name, StatusName).
//
// Status is each node's status in the tree's latest tick, as Groot2 shows it: a node
// whose last status is of a run that is over (the child of a Cooldown cooling down, the
// Bite of the last run while Chase runs again: bt.Memory.Current) is Idle there, with
// Stale set, and LastStatus keeps what it returned when it last ran; a node ticked in
// the latest tick, or earlier in its parent's run still going on (the finished children
// of a Running Sequence), shows its status. The viewer knows this from the selected
// agent's first think after its selection (it has the tree's memory record its ticks,
// bt.Memory.RecordTicks; Recorded then true); before, Status is LastStatus. The logs
// record the changes of LastStatus (bt.Tracer), so a scrubbed view shows the last
// statuses at that moment.
type Tree struct {
	Name       string `json:"name"`
	Nodes      []Node `json:"nodes"`
	Status     []int  `json:"status"`
	LastStatus []int  `json:"lastStatus"` // each node's status when it last ran (bt.Memory), ticked in the latest tick or not
	Recorded   bool   `json:"recorded"`   // the latest tick is recorded: Status shows Idle for the nodes whose last status is of a run that is over

	tree *bt.Tree
}

// Node is one node of a [Tree]. Kind is the behavior-tree kind that runs it
// (bt.Tree.NodeKind: "Sequence", "Choose"); Type is the type as the user wrote it
// (bt.Tree.NodeType): "UtilitySelector" for a hybrid.UtilitySelector (a Choose), a
// loaded node's type in the file ("Fallback" for a Selector, "TargetSeen" for a
// registered Condition), else Kind.
type Node struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Type       string `json:"type"`
	Parent     int    `json:"parent"`     // -1 for the root
	StatusName string `json:"statusName"` // its status in [Tree.Status] by name (bt.Status.String): "Idle", "Running", "Success", "Failure", "Skipped"
	// LastStatusName is its status in [Tree.LastStatus] by name: what it returned when
	// it last ran.
	LastStatusName string `json:"lastStatusName"`
	Stale          bool   `json:"stale"` // its last status is of a run that is over (not of the tree's latest tick): StatusName is "Idle", LastStatusName that run's (false while not [Tree.Recorded])
}

// KV is one blackboard entry, its value as text.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Set   bool   `json:"set"`
}

// Utility is the agent's utility reasoner and its last decision: each option's
// score and how it was made (see [Option]).
type Utility struct {
	Name    string    `json:"name"`
	Actions []string  `json:"actions"`
	Scores  []float64 `json:"scores"`
	Choice  int       `json:"choice"` // index in Actions, or -1

	Policy     string   `json:"policy"`     // "Argmax", "Softmax (T=0.2)", "TopN (N=2)"
	Hysteresis float64  `json:"hysteresis"` // the policy's: the held option's score counts ×(1 + Hysteresis) at selection
	Held       int      `json:"held"`       // the choice before the last decision (utility.State.Previous), the option that got the bonus; -1 for none
	Decisions  uint64   `json:"decisions"`
	Traced     bool     `json:"traced"`     // the inputs were recorded (a decision since the agent was selected): Input is known
	Unread     uint64   `json:"unread"`     // inputs that could not read the agent, since its State was made (utility.State.Unread)
	NaNInputs  uint32   `json:"nan_inputs"` // inputs of the program's own that returned NaN in the last decision (utility.State.NaNInputs: utility_input_nan)
	Options    []Option `json:"options"`

	reasoner *utility.Reasoner
}

// Option is one action of a utility reasoner in the agent's last decision:
//
//	Score = Weight × Combine(considerations)       (utility.Action)
//	Selection = Score × (1 + Hysteresis) for the held option, else Score
//
// Selection is what the policy compared.
type Option struct {
	Name           string               `json:"name"`
	Weight         float64              `json:"weight"`  // the weight as it counts: utility.Action's zero Weight shows as 1
	Combine        string               `json:"combine"` // "Compensated", "Product", "WeightedSum"
	Score          float64              `json:"score"`
	Selection      float64              `json:"selection"`
	Vetoed         bool                 `json:"vetoed"` // a consideration scored 0 and vetoed the option
	Considerations []ConsiderationScore `json:"considerations"`
}

// ConsiderationScore is one consideration of an [Option] in the agent's last
// decision: its raw input, the curve's x (the input through the Range, clamped
// to [0, 1]), the curve's output and, for a Compensated option, the output
// raised by the compensation factor (utility.Compensate), which the product
// multiplies. Input and X are null until the reasoner has decided once since the
// agent was selected (Pending), for a consideration a veto skipped, and for a NaN or
// infinite input (which scores 0: Note says why).
//
// Pending is true, with a Note, where Input and X are null only because no decision
// has been recorded since the selection: a utility.State keeps each consideration's
// curve output (Score) but not its raw input, which only a utility.Trace records, and
// the viewer gives the State its Trace at the selection, so the inputs of the decision
// made before it are not known (a utility choice inside a tree, hybrid.UtilitySelector,
// shows them once that branch decides again). In a log entry ([UtilityTransition])
// it means that decision's inputs were not recorded.
type ConsiderationScore struct {
	Name        string      `json:"name"`
	Input       *float64    `json:"input"`
	Range       *[2]float64 `json:"range"` // Min, Max; null: the input is taken as normalised
	X           *float64    `json:"x"`
	Curve       string      `json:"curve"`       // "Logistic(M=10 K=1 B=0 C=0.5)"
	Score       float64     `json:"score"`       // the curve's output; 0 where not evaluated
	Compensated float64     `json:"compensated"` // the factor the combination used: Score raised by the compensation factor (Compensated), else Score
	// Weight is the weight as it counts in a WeightedSum option (utility.Consideration's
	// zero Weight shows as 1); 0, and left out of the JSON, in a Product or Compensated
	// option, whose combination ignores weights (the page shows none there either).
	Weight    float64 `json:"weight,omitempty"`
	Veto      bool    `json:"veto"`
	Evaluated bool    `json:"evaluated"` // false: an earlier consideration vetoed the option first
	Pending   bool    `json:"pending"`   // Input and X not recorded yet: they come with the first decision after the selection
	Note      string  `json:"note"`
}

// UtilityTransition is a change of the selected agent's utility choice, seen by
// comparing its UtilityBrain, or a utility State it keeps elsewhere (a
// hybrid.UtilitySelector's: [SelectorUtility], Field says which), from one frame to
// the next: Kind "selected" (the choice when the agent was selected, or when the
// State was first seen scored: the log's baseline) or "choice"; From and To
// are action names ("None" for no choice), Scores every option's score at that
// decision, in the reasoner's order, and Options the decision in detail, as
// [Utility.Options] (Held and Traced as in [Utility]): so the page shows, scrubbed
// back to a change, why the agent changed its mind.
type UtilityTransition struct {
	Time    float64   `json:"t"`
	Field   string    `json:"field"` // "" for the UtilityBrain; else the State's field, as [SelectorUtility.Field]
	Kind    string    `json:"kind"`
	From    string    `json:"from"`
	To      string    `json:"to"`
	Choice  int       `json:"choice"` // index of To, or -1
	Scores  []float64 `json:"scores"`
	Held    int       `json:"held"`
	Traced  bool      `json:"traced"`
	Options []Option  `json:"options"`
}

// FSM is the agent's state machine.
type FSM struct {
	Name        string      `json:"name"`
	Active      []string    `json:"active"`   // the active states, outermost first
	Previous    string      `json:"previous"` // the leaf left last, with its parents: "Patrol/Idle" (fsm.Machine.FullName)
	Elapsed     float64     `json:"elapsed"`
	Transitions uint32      `json:"transitions"`
	Trees       []StateTree `json:"trees"` // the behavior trees run inside its states (hybrid.TreeState)
}

// Path is components.Path: the waypoints are cell centres.
type Path struct {
	State     string `json:"state"`
	Goal      Vec    `json:"goal"`
	Waypoints []Vec  `json:"waypoints"`
	Next      int    `json:"next"`
}

// Perception is components.Perception. TargetAt and Distance are null while no foe is
// Visible: the perception system leaves the last foe's values in the component then.
type Perception struct {
	Range       float64  `json:"range"`
	FieldOfView float64  `json:"fov"` // radians; 0 sees all around
	Heading     Vec      `json:"heading"`
	Visible     bool     `json:"visible"`
	Target      uint32   `json:"target"`
	TargetAt    *Vec     `json:"targetAt"` // the foe's position when seen; null while not Visible (the component keeps the last foe's)
	Distance    *float64 `json:"distance"` // its distance in cells; null while not Visible
	HasLastSeen bool     `json:"hasLastSeen"`
	LastSeen    Vec      `json:"lastSeen"`
}

// Flow is the agent's FlowFollower.
type Flow struct {
	Goal    Vec  `json:"goal"` // centre of the goal cell
	Has     bool `json:"has"`
	Arrived bool `json:"arrived"`
}

// Transition is an entry of a tree's transition log ([Agent.Log],
// [StateTree.Log]). Kind "transition" is one change of a node's status
// (bt.Transition): Time is the simulation time of the frame whose tick made it,
// From and To are bt.Status numbers (0 Idle, 1 Running, 2 Success, 3 Failure,
// 4 Skipped), FromName and ToName the same by name.
//
// Kind "selected" is the log's baseline, first: every node's status when the agent
// was selected (or its tree first seen: a tree swapped in since), in Status and
// StatusNames, as the other logs start with theirs (the utility choice's, the state
// machine's, the plan's). It names the root (Node 0) with From = To = the root's
// status, so that a reader undoing the log's entries from the live statuses, as the
// page does to scrub, gets the same statuses with or without it. A tree of a state
// first run after the selection has no baseline: its log starts from Idle.
type Transition struct {
	Time        float64  `json:"t"`
	Node        int      `json:"node"`
	From        int      `json:"from"`
	To          int      `json:"to"`
	FromName    string   `json:"fromName"`
	ToName      string   `json:"toName"`
	Kind        string   `json:"kind"`                  // "transition" or "selected"
	Status      []int    `json:"status,omitempty"`      // "selected" only: every node's status, as [Tree.Status]
	StatusNames []string `json:"statusNames,omitempty"` // "selected" only: the same by name
}

// mapData is the JSON of GET /map: one cost class per cell, row-major:
// 0 blocked, 1 cost ≤ 1, 2 ≤ 2, 3 ≤ 4, 4 ≤ 8, 5 more.
type mapData struct {
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Version uint64 `json:"version"`
	Cells   []byte `json:"cells"`
}

// flowData is the JSON of GET /flow: per cell (row-major) the direction to
// the next cell of a shortest path to Goal: 0 east, then counter-clockwise
// on screen (1 north-east… 7 south-east, y growing down), 8 goal, 255 none.
type flowData struct {
	Key    string `json:"key"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Goal   Vec    `json:"goal"`
	Dirs   []byte `json:"dirs"`
}

type flowKey struct {
	X, Y    int32
	Version uint64
	Has     bool
}
