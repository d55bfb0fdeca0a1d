package components

import (
	"github.com/archai-go/archai/ai/bt"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Brain is an agent's behavior tree: the compiled tree shared by every agent
// that runs it, and this agent's node memory (allocated once, when the agent
// gets the tree).
//
// ID, the tree's name (bt.Tree.Name), is the truth: a saved world stores it and
// loading resolves it against the trees the program supplies; Tree is a cache of
// that lookup (not saved). A Brain with an empty ID is saved under Tree.Name(). A
// program that swaps the Tree sets ID to the new tree's name (or ""): save.Save
// refuses an ID that is not its Tree's name. At the agent's next think the Decision
// system halts the old tree (the halt hooks of its Running nodes run) and starts the new
// one from its root with a fresh Memory (systems.Decision.Swapped counts it). A save
// in between is taken (see MemoryOf).
type Brain struct {
	ID     string   // the tree's name in the program's registry
	Tree   *bt.Tree `json:"-"`
	Memory bt.Memory
	// MemoryOf is, in a saved world only, the name of the tree Memory belongs to when
	// it is not Tree's: a swap made by the program and not done yet (the agent has not
	// thought since). save.Save writes it and Load gives the Memory to that tree and
	// clears it, so the loaded agent's next think halts the old tree and starts the
	// new one, as it would have. Always "" in a running world.
	MemoryOf string `json:",omitempty"`
}

// Think is an agent's decision cadence. The decision system ticks the brain
// in the frame whose step contains Next (see systems.Due), passes Time−Last
// as the tree's dt, then sets Last to now and Next to Next + Interval (which
// keeps the agent's stagger phase; if that is already past, now + Interval).
// Staggering Next at spawn spreads the work over frames. The level-of-detail
// system sets Interval and Frozen from the agent's distance to the focus
// points; perception follows the same cadence.
type Think struct {
	Interval float64 // seconds between decisions (0.1 for 10 Hz)
	Next     float64 // simulation time of the next decision
	Last     float64 // simulation time of the last decision
	Frozen   bool    // too far from every focus point to think at all

	// IntentFlips, IntentBack and IntentSum are the decision system's count of the
	// changes of the agent's Intent at its thinks, for systems.Diagnose's
	// intent_flip_flop: the changes back in a row (each to the Intent the change
	// before it left), a 16-bit mark of the Intent the last change left and a 32-bit
	// mark of the Intent after the last think (0: none yet). They sit in the padding
	// after Frozen, so a Think stays 32 bytes for the scan that finds the agents due.
	// Saved and hashed while not zero (json:",omitempty"), with the decision system's
	// records of the agents' flips (systems.ThinkCursorState), so that a loaded world
	// reports intent_flip_flop at the frames the unbroken run does; a Think written
	// whole, or loaded from a file written before 2026-12-06 (without them), starts
	// the count afresh at its next think.
	IntentFlips uint8  `json:",omitempty"`
	IntentBack  uint16 `json:",omitempty"`
	IntentSum   uint32 `json:",omitempty"`
}

// LOD is an agent's level of detail, set by the LOD system: 0 is the nearest
// band around a focus point; a level past the last band means frozen.
type LOD struct {
	Level    uint8
	Distance float64 // cells to the nearest focus point
}

// Focus marks an entity whose Position is a focus point of the level of
// detail (a camera, a player): agents near it think more often.
type Focus struct{}

// Intent is what the decision layer wants; it never moves the agent itself.
//
// Movement: with Mode IntentGo (the zero value) the agent goes to Goal while
// Move is set, and otherwise stands (or wanders, or follows its flow field).
// Mode IntentFlee, IntentPursue or IntentEvade asks to run from, chase or
// run from the predicted position of a target instead, Move and Goal being
// ignored: the entity Target if it is not the zero Entity (read from the
// frame's systems.Neighbours, so it needs a Position and a Velocity), else
// the fixed point Point.
//
// The zero Intent is no goal: Move is false, so the agent stands (or wanders, or
// follows its flow field). Goal is read only while Move is set, and its zero value
// is the point (0, 0), the grid's corner, not "no goal": set Move together with a
// Goal you know, and keep Move false while a unit's order has not arrived.
// systems.Diagnose counts a Move whose Goal is exactly (0, 0) as goal_unset
// (CauseGoalUnset); a goal meant for the corner cell is its centre, (0.5, 0.5).
//
// Important: the zero Target means Point, and the zero Point is (0, 0), the
// grid's corner. A Target copied from a [Perception] that no longer sees its foe
// (Perception.Target is the zero Entity unless Visible) sends the agent to the
// map's corner; copy it only while Visible (guard the action with a reactive
// node) and set Mode back to IntentGo when the chase ends. systems.Diagnose counts
// a flee, pursue or evade with the zero Target and Point exactly (0, 0) as
// target_unset (CauseTargetUnset). A Target that has died, by contrast, is no target: the agent brakes.
//
// A Mode past IntentEvade is no mode (a value written by hand, or cast from a
// number of the program's own): systems.PathFollow takes it as no move intent at
// all, neither to Goal nor along a flow field, so the agent brakes (or wanders, a
// Wanderer); systems.Diagnose counts it as mode_invalid (CauseModeInvalid), and
// systems/save's Save and Load refuse it.
type Intent struct {
	Move        bool         // go to Goal (Mode IntentGo)
	Goal        r2.Vec       // cells; read only while Move ((0, 0) unless set: the grid's corner)
	SpeedFactor float64      // fraction of Kinematics.MaxSpeed to move at, (0, 1]; 0 means 1; any other value (NaN, negative, over 1: 50 meant as a percentage) moves at full speed and is counted by systems.Diagnose (speed_factor_invalid)
	Attack      arche.Entity // a target to strike this frame; the zero Entity for none

	Mode   IntentMode   // IntentGo, or a target to flee, pursue or evade
	Target arche.Entity // the target of Flee, Pursue and Evade; the zero Entity: Point
	Point  r2.Vec       // cells: the target when Target is the zero Entity ((0, 0) unless set: the grid's corner)
}

// IntentMode is what an [Intent] asks of the movement pipeline. The modes
// with a target are Reynolds' steering behaviors ("Steering Behaviors For
// Autonomous Characters", 1999).
type IntentMode uint8

// Intent modes.
const (
	IntentGo     IntentMode = iota // go to Goal while Move; else stand, wander or flow
	IntentFlee                     // run straight away from the target
	IntentPursue                   // chase the target where it will be (pursuit); around walls along a path
	IntentEvade                    // run away from where the target will be (evasion)
)
