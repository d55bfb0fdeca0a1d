package debugview

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
	FPS     float64 `json:"fps"`   // frames per wall-clock second since the last snapshot (0 while paused)

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

	Selected    *Agent `json:"selected"`    // the selected agent, or null
	SelectError string `json:"selectError"` // why the last selection failed, if it did
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
	ID         uint32       `json:"id"`
	Gen        uint32       `json:"gen"`
	Alive      bool         `json:"alive"`
	Components []string     `json:"components"`
	Pos        Vec          `json:"pos"`
	Vel        *Vec         `json:"vel"`
	Team       *int         `json:"team"`
	Health     *[2]float64  `json:"health"` // current, max
	Intent     *Intent      `json:"intent"`
	Think      *Think       `json:"think"`
	Tree       *Tree        `json:"tree"`
	Blackboard []KV         `json:"blackboard"`
	Utility    *Utility     `json:"utility"`
	FSM        *FSM         `json:"fsm"`
	Path       *Path        `json:"path"`
	Perception *Perception  `json:"perception"`
	Flow       *Flow        `json:"flow"`
	Log        []Transition `json:"log"` // the tree's transitions since it was selected, of the last LogSeconds, oldest first

	Planner *Planner         `json:"planner"` // the HTN or GOAP planner, or null
	PlanLog []PlanTransition `json:"planLog"` // the plan's transitions since it was selected, of the last LogSeconds, oldest first
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
// last status (0 Idle, 1 Running, 2 Success, 3 Failure, 4 Skipped, as
// bt.Status).
type Tree struct {
	Name   string `json:"name"`
	Nodes  []Node `json:"nodes"`
	Status []int  `json:"status"`
}

// Node is one node of a [Tree].
type Node struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Parent int    `json:"parent"` // -1 for the root
}

// KV is one blackboard entry, its value as text.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Set   bool   `json:"set"`
}

// Utility is the agent's utility reasoner and its last scores.
type Utility struct {
	Name    string    `json:"name"`
	Actions []string  `json:"actions"`
	Scores  []float64 `json:"scores"`
	Choice  int       `json:"choice"` // index in Actions, or -1
}

// FSM is the agent's state machine.
type FSM struct {
	Name        string   `json:"name"`
	Active      []string `json:"active"`   // the active states, outermost first
	Previous    string   `json:"previous"` // the leaf left last, with its parents: "Patrol/Idle" (fsm.Machine.FullName)
	Elapsed     float64  `json:"elapsed"`
	Transitions uint32   `json:"transitions"`
}

// Path is components.Path: the waypoints are cell centres.
type Path struct {
	State     string `json:"state"`
	Goal      Vec    `json:"goal"`
	Waypoints []Vec  `json:"waypoints"`
	Next      int    `json:"next"`
}

// Perception is components.Perception.
type Perception struct {
	Range       float64 `json:"range"`
	FieldOfView float64 `json:"fov"` // radians; 0 sees all around
	Heading     Vec     `json:"heading"`
	Visible     bool    `json:"visible"`
	Target      uint32  `json:"target"`
	TargetAt    Vec     `json:"targetAt"`
	Distance    float64 `json:"distance"`
	HasLastSeen bool    `json:"hasLastSeen"`
	LastSeen    Vec     `json:"lastSeen"`
}

// Flow is the agent's FlowFollower.
type Flow struct {
	Goal    Vec  `json:"goal"` // centre of the goal cell
	Has     bool `json:"has"`
	Arrived bool `json:"arrived"`
}

// Transition is one change of a node's status (bt.Transition): Time is
// the simulation time of the frame whose tick made it.
type Transition struct {
	Time float64 `json:"t"`
	Node int     `json:"node"`
	From int     `json:"from"`
	To   int     `json:"to"`
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
