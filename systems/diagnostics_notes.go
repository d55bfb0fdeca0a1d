package systems

import (
	"strconv"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"strings"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// uncheckedNote ends a Report's String when no archai system was initialized.
const uncheckedNote = "before any system's Initialize: missing systems not checked; " +
	"call Diagnose after Initialize"

// onlyDiagnosticsNote is uncheckedNote for a world whose only archai system
// initialized is a Diagnostics (its Initialize is no other system's).
const onlyDiagnosticsNote = "no archai system initialized but a Diagnostics: missing systems not checked; " +
	"add and initialize the systems the agents need (a Decision, a Steer, a Movement ...)"

// uncheckedNote returns the note of a Report whose missing systems were not checked.
func (r *Report) uncheckedNote() string {
	if r.onlyDiagnostics {
		return onlyDiagnosticsNote
	}
	return uncheckedNote
}

// exampleNote is what a Report's String says of a cause's example entity beyond
// its ID: where its unusable goal is ("goal (100.5, 40.5) off the 48×48 grid") or
// which system its decision component needs ("a StateMachine needs systems.FSM").
// Plain values, so that recording one allocates nothing; String formats it.
type exampleNote struct {
	kind  noteKind
	what  string // noteGoal, noteCell: "goal", "path goal"; noteNeeds: the component and system; noteVec: the component
	then  string // noteVec: what the systems do about it; noteKey: the tree's name; noteGoal: deepInWall or empty
	pos   r2.Vec // noteGoal: the goal
	more  r2.Vec // noteHeldOff: the SeparationRadius (X) and the one advised (Y)
	cell  grid.Cell
	to    grid.Cell // noteFlowCut: the follower's goal cell
	w, h  int       // the grid's size
	inMap bool      // the cell is on the grid (so blocked); noteMoveNoPath: the agent is a FlowFollower (no Mover can go beside it)

	machine *fsm.Machine // noteState: the machine and its state re-entered n times
	state   fsm.StateID
	other   fsm.StateID // noteState: the state it went back and forth with (None: itself)
	n       uint32

	keys [2]intentKey // noteIntentFlips: the two Intents, n: the flip-flops

	target arche.Entity // noteDownedTarget: the downed or removed target

	reasoner *utility.Reasoner // noteNaNInput, noteHybridKey: the reasoner of the State

	tree *bt.Tree // noteHybridHTN, noteHybridGOAP, noteHybridKey: the tree of the hybrid node running the plan or choice (nil: none found)
	node int      // its index in tree
}

type noteKind uint8

const (
	noteNone         noteKind = iota
	noteGoal                  // a goal point: pos, cell, w, h, inMap
	noteCell                  // a goal cell: cell, w, h, inMap
	noteNeeds                 // what: "a StateMachine needs systems.FSM", or another sentence (CausePerceptionAfterDecision)
	noteKey                   // what: a blackboard key read and never written (CauseBlackboardKeyUnwritten)
	noteState                 // machine, state, n: a state entered again on n updates in a row (CauseStateReentered)
	noteStep                  // pos: the clock's step (X) and the agent's SeparationStepLimit (Y), seconds (CauseStepTooLong)
	noteVec                   // what: "position" or "velocity", pos: its value (NaN or infinite), what follows from it in then
	noteKin                   // pos: MaxSpeed (X) and MaxForce (Y); what: "radius" when only the Radius is wrong (CauseKinematics)
	noteInterval              // pos.X: a Think.Interval over MaxThinkInterval, seconds (CauseThinkIntervalLong)
	noteSpeedFactor           // pos.X: an Intent.SpeedFactor outside (0, 1] (CauseSpeedFactor)
	noteStarved               // what: the system, h: its Budget, w: its Waiting, pos: the longest wait and the backlog's length, s (CauseDecisionStarved)
	noteFlips                 // what, then: the two actions, pos: Policy.Hysteresis (X) and State.FlipFlops (Y) (CauseUtilityFlipFlop)
	noteNarrow                // cell: the path goal, w: its clearance, h: the clearance the radius needs, pos.X: the radius, n: when no route its disc fits leads beside the goal, the widest clearance of a route to it, else 0 (CausePathGoalNarrow)
	noteNoRand                // what: the reasoner's name, then: its policy kind (CauseUtilityNoRand)
	noteTooWide               // cell: the path goal, h: the clearance the radius needs, w: the widest that has a route, pos.X: the radius (CausePathUnreachable)
	noteHeldOff               // pos: the distance to the goal (X) and the nearest gap (Y), more: see there (CauseHeldOffGoal)
	noteIntentFlips           // keys: the two Intents, n: the flip-flops, what: the decision system (CauseIntentFlipFlop)
	noteFlowCut               // cell: the follower's cell, to: its goal cell (CauseFlowUnreachable)
	noteBlocked               // pos, more, w: see blockedNote (CauseBlockedByAgents)
	noteCooldown              // pos.X: a Weapon.Cooldown over MaxWeaponCooldown, seconds (CauseWeaponCooldownLong)
	noteWeapon                // what: the Weapon's field, pos.X: its unusable value (CauseWeaponInvalid)
	noteTreeTimer             // what: the timer node's name, pos.X: its duration over MaxTreeTimer, seconds, machine and state: the state whose tree it is in (nil: a Brain's) (CauseTreeTimerLong)
	noteHTNIdle               // what: htn.Domain.WhyNoPlan's explanation, pos: htn.Run.NoPlanSince (X) and Think.Last (Y) (CausePlannerDomainError)
	noteDownedTarget          // target, pos.X: the seconds, pos.Y: 1 when removed, n: 1 when Intent.Attack is set (CauseAttackingDowned)
	noteAlly                  // target, n: its team (CauseAttackingAlly)
	noteMoveNoPath            // pos: Intent.Goal (n 0) or the pursuit's Point (n 1, target the zero Entity), target: the pursuit's Target (CauseMoveWithoutPath)
	noteNaNInput              // reasoner, w: utility.State.NaNInput, n: NaNInputs, what: "" or the component field holding the State (CauseUtilityInputNaN)
	noteHeldFar               // pos: the distance to the goal (X) and the room's radius (Y), more.X: the agents sent there (CauseHeldFarFromGoal)
	noteMode                  // what: "Intent.Mode", "Desired.Mode" or "Path.State", n: its value (CauseModeInvalid)
	noteHybridHTN             // then: the component field holding the htn.Run, what: htn.Domain.WhyNoPlan's explanation ("" without the node), pos: NoPlanSince (X) and NoPlanLast (Y), tree, node, machine, state: the hybrid.HTNAction running it (CausePlannerDomainError)
	noteHybridGOAP            // then: the component field holding the goap.Run, what: the note (goapWhy's, or goapDomainErrors), tree, node, machine, state: the hybrid.GOAPAction running it, if found (CausePlannerDomainError)
	noteHybridKey             // then: the component field holding the utility.State, what: the key, reasoner, tree, node, machine, state: the hybrid.UtilitySelector deciding with it (CauseBlackboardKeyUnwritten)
)

// tooWideForRoute reports whether an agent at pos of radius r (a clearance
// above 1) has no route wide enough to the passable cell goal that an agent
// of clearance 1 would have, and the widest clearance that has one (at least 1).
func tooWideForRoute(g *grid.Grid, pos *components.Position, goal grid.Cell, r float64) (fit uint8, ok bool) {
	clr := grid.ClearanceFor(r)
	if clr <= 1 || pos == nil || !finiteVec(pos.Vec) {
		return 0, false
	}
	from := g.CellAt(pos.Vec)
	if !g.Passable(from) || !g.Connected(from, goal) || g.ConnectedWide(from, goal, clr) {
		return 0, false
	}
	fit = clr - 1
	for fit > 1 && !g.ConnectedWide(from, goal, fit) { // the radius advised must pass the map's gaps
		fit--
	}
	return fit, true
}

// tooWideNote is the note of a wide agent of radius r whose path goal cell c
// only narrower agents reach (tooWideForRoute), those of clearance fit or less.
func tooWideNote(c grid.Cell, r float64, fit uint8) exampleNote {
	return exampleNote{kind: noteTooWide, cell: c, h: int(grid.ClearanceFor(r)), w: int(fit), pos: r2.Vec{X: r}}
}

// narrowNote is the note of a path goal cell c of g too close to a wall for an agent
// of radius r.
func narrowNote(g *grid.Grid, c grid.Cell, r float64) exampleNote {
	return exampleNote{kind: noteNarrow, cell: c, w: int(g.Clearance(c)), h: int(grid.ClearanceFor(r)), pos: r2.Vec{X: r}}
}

// narrowRouteNote is narrowNote for an agent at pos that found no route its disc
// fits to the point beside c where it would rest (its path answered unreachable):
// moving the goal off the walls would not help, so the note names the radius that
// has a route to c and fits there (the widest clearance of a route, tried down
// from the goal's own). Without such a route (pos not on an open cell connected
// to c), narrowNote's.
func narrowRouteNote(g *grid.Grid, pos *components.Position, c grid.Cell, r float64) exampleNote {
	n := narrowNote(g, c, r)
	if pos == nil || !finiteVec(pos.Vec) {
		return n
	}
	from := g.CellAt(pos.Vec)
	if !g.Passable(from) || !g.Connected(from, c) {
		return n
	}
	fit := min(g.Clearance(c), grid.ClearanceFor(r)-1)
	for fit > 1 && !g.ConnectedWide(from, c, fit) {
		fit--
	}
	n.n = uint32(max(fit, 1))
	return n
}

// kinematicsNote is the note of unusable Kinematics k: which value is wrong.
func kinematicsNote(k *components.Kinematics) exampleNote {
	n := exampleNote{kind: noteKin, pos: r2.Vec{X: k.MaxSpeed, Y: k.MaxForce}}
	if UsableKinematics(k) { // only the radius
		n.what = "radius"
	}
	return n
}

// deepInWall ends the note of a flow follower in a blocked cell with no open cell
// within 4 cells: it aims for open ground only that near, so it never walks out.
const deepInWall = "; no open cell within 4 cells: a flow follower stands there for good (move it to grid.NearestOpen)"

// placeNote is the note of an agent at p, off g or in a blocked cell.
func placeNote(g *grid.Grid, p r2.Vec) exampleNote {
	n := goalNote(g, p)
	n.what = "position"
	return n
}

// goalNote is the note of an unusable goal point p on g.
func goalNote(g *grid.Grid, p r2.Vec) exampleNote {
	c := g.CellAt(p)
	return exampleNote{kind: noteGoal, what: "goal", pos: p, cell: c, w: g.Width(), h: g.Height(), inMap: g.InBounds(c)}
}

// cellNote is the note of an unusable goal cell c on g, called what.
func cellNote(g *grid.Grid, c grid.Cell, what string) exampleNote {
	return exampleNote{kind: noteCell, what: what, cell: c, w: g.Width(), h: g.Height(), inMap: g.InBounds(c)}
}

// unitHint ends the note of a position or goal far off the grid (farOffGrid), in
// the words of the spawner's check of a Radius out of range ("a unit mistake?").
const unitHint = " (a unit mistake? positions are in cells, cell (x, y) covering [x, x+1)×[y, y+1): pixels given?)"

// farOffGrid reports whether the point or cell (x, y) lies at or beyond twice the size
// of a w×h grid on either axis (x ≥ 2w or y ≥ 2h): farther than any slip past the edge,
// and where positions in pixels land (16 times as far on a map of 16-pixel cells: all
// but the map's top-left eighth). Negative coordinates are never pixels and are not
// counted.
func farOffGrid(x, y float64, w, h int) bool {
	return w > 0 && h > 0 && (x >= 2*float64(w) || y >= 2*float64(h))
}

// decisionNeeds names, for a pointer to a decision component, the component and
// the system that runs it.
func decisionNeeds(b any) string {
	switch b.(type) {
	case *components.Brain:
		return "a Brain needs systems.Decision"
	case *components.UtilityBrain:
		return "a UtilityBrain needs systems.Utility"
	case *components.StateMachine:
		return "a StateMachine needs systems.FSM"
	case *components.HTNPlanner:
		return "an HTNPlanner needs systems.HTN"
	case *components.GOAPPlanner:
		return "a GOAPPlanner needs systems.GOAP"
	}
	return ""
}

// needsNote is the note of a CauseNo… cause: what component needs which system,
// "a Path needs systems.PathQueue".
func needsNote(what string) exampleNote { return exampleNote{kind: noteNeeds, what: what} }

// append writes the note after an example's ID: ", goal (100.5, 40.5) off the
// 48×48 grid", ", flow goal cell (3, 4) in a blocked cell", ", a StateMachine
// needs systems.FSM"; nothing for no note.
func (n *exampleNote) append(b *strings.Builder) {
	switch n.kind {
	case noteGoal, noteCell:
		b.WriteString(", ")
		b.WriteString(n.what)
		if n.kind == noteGoal {
			b.WriteString(" (")
			b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 6, 64))
			b.WriteString(", ")
			b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', 6, 64))
			b.WriteString(")")
		}
		b.WriteString(" cell (")
		b.WriteString(strconv.Itoa(int(n.cell.X)))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(n.cell.Y)))
		b.WriteString(")")
		far := false
		if n.inMap {
			b.WriteString(" in a blocked cell")
		} else {
			b.WriteString(" off the ")
			b.WriteString(strconv.Itoa(n.w))
			b.WriteString("×")
			b.WriteString(strconv.Itoa(n.h))
			b.WriteString(" grid")
			x, y := float64(n.cell.X), float64(n.cell.Y)
			if n.kind == noteGoal {
				x, y = n.pos.X, n.pos.Y
			}
			if far = farOffGrid(x, y, n.w, n.h); far {
				b.WriteString(unitHint)
			}
		}
		if n.what == "goal" && !far { // a goal clicked into a wall or just past the edge
			b.WriteString("; grid.NearestOpen(goal, 8) gives the open cell nearest it")
		}
		b.WriteString(n.then) // deepInWall for a follower deep in a wall, else empty
	case noteNarrow:
		b.WriteString(", path goal cell (")
		b.WriteString(strconv.Itoa(int(n.cell.X)))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(n.cell.Y)))
		b.WriteString(") of clearance ")
		b.WriteString(strconv.Itoa(n.w))
		b.WriteString(" (grid.Clearance), under the ")
		b.WriteString(strconv.Itoa(n.h))
		b.WriteString(" its radius ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 4, 64))
		if n.n > 0 { // moving the goal would not do: the route there is too narrow too
			b.WriteString(" needs (grid.ClearanceFor), and no route its disc fits leads beside it (its routes need gaps of ")
			b.WriteString(strconv.Itoa(2*n.h - 1))
			b.WriteString(" cells): give the agent a radius of at most ")
			b.WriteString(strconv.FormatFloat(float64(min(n.w, int(n.n)))-0.5, 'g', 4, 64))
			break
		}
		b.WriteString(" needs (grid.ClearanceFor): move the goal away from the walls, or give the agent a radius of at most ")
		b.WriteString(strconv.FormatFloat(float64(n.w)-0.5, 'g', 4, 64)) // what clearance n.w admits: ClearanceFor(r) ≤ n.w
	case noteTooWide:
		b.WriteString(", no route wide enough for its radius ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 6, 64))
		b.WriteString(" to its path goal cell (")
		b.WriteString(strconv.Itoa(int(n.cell.X)))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(n.cell.Y)))
		b.WriteString("), which a smaller agent would reach: its routes need gaps of ")
		b.WriteString(strconv.Itoa(2*n.h - 1))
		b.WriteString(" cells (clearance ")
		b.WriteString(strconv.Itoa(n.h))
		b.WriteString(", grid.ClearanceFor); its decision should test Path.State, or give it a radius of at most ")
		b.WriteString(strconv.FormatFloat(float64(n.w)-0.5, 'g', 6, 64))
		b.WriteString(" (gaps of ")
		b.WriteString(strconv.Itoa(2*n.w - 1))
		b.WriteString(")")
	case noteStep:
		b.WriteString(", clock step ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 4, 64))
		b.WriteString(" s over its separation's limit of ")
		b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', 3, 64))
		b.WriteString(" s (SeparationStepLimit): crowds jitter")
	case noteKey:
		b.WriteString(", key ")
		b.WriteString(strconv.Quote(n.what))
		if n.then != "" {
			b.WriteString(" of tree ")
			b.WriteString(strconv.Quote(n.then))
		}
		if n.then != "" { // a tree's key: counted per agent, until its own store holds it
			b.WriteString(" is read and nothing writes it: misspelt in the tree file? Else write it with an output port, SetBlackboard or a Script; a key your program sets from Go (blackboard.Set, on an event) is counted for each agent whose store has not held it yet: declare it in the registry's schema before loading the tree (Schema().DeclareType)")
			break
		}
		b.WriteString(" is read and nothing writes it: misspelt in the tree file? Else write it with an output port, SetBlackboard or a Script, or set it from Go (blackboard.Set)")
	case noteState:
		b.WriteString(", state ")
		b.WriteString(strconv.Quote(n.machine.FullName(n.state)))
		b.WriteString(" of machine ")
		b.WriteString(strconv.Quote(n.machine.MachineName()))
		if n.other != fsm.None {
			b.WriteString(" and state ")
			b.WriteString(strconv.Quote(n.machine.FullName(n.other)))
			b.WriteString(" taken in turn by each of its last ")
			b.WriteString(strconv.FormatUint(uint64(n.n), 10))
			b.WriteString(" transitions (fsm.Memory.Reentries; an update may take several): rows whose guards both hold, or Update hooks, leading from each to the other")
			break
		}
		b.WriteString(" left and entered again by each of its last ")
		b.WriteString(strconv.FormatUint(uint64(n.n), 10))
		b.WriteString(" transitions (fsm.Memory.Reentries; an update may take several): a row from it to itself or an ancestor whose guard still holds once taken")
	case noteVec: // formatted here, not in the scan: Diagnostics allocates nothing
		b.WriteString(", ")
		b.WriteString(n.what)
		b.WriteString(" (")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', -1, 64))
		b.WriteString(", ")
		b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', -1, 64))
		b.WriteString("): ")
		b.WriteString(n.then)
	case noteInterval: // both readings of a count: hertz or frames, and milliseconds
		v := strconv.FormatFloat(n.pos.X, 'g', 4, 64)
		b.WriteString(", Think.Interval ")
		b.WriteString(v)
		b.WriteString(" s, over MaxThinkInterval (")
		b.WriteString(strconv.FormatFloat(MaxThinkInterval, 'g', -1, 64))
		b.WriteString(" s): Interval is in seconds of simulation time, so ")
		b.WriteString(v)
		b.WriteString(" means one think every ")
		b.WriteString(v)
		b.WriteString(" s; for ")
		b.WriteString(v)
		b.WriteString(" thinks a second write 1.0/")
		b.WriteString(v)
		b.WriteString(", for one every ")
		b.WriteString(v)
		b.WriteString(" ms ")
		b.WriteString(strconv.FormatFloat(n.pos.X/1000, 'g', 4, 64))
		b.WriteString(", for one every ")
		b.WriteString(v)
		b.WriteString(" frames ")
		b.WriteString(v)
		b.WriteString(" × the clock step")
	case noteCooldown: // the value, and its reading in milliseconds
		v := strconv.FormatFloat(n.pos.X, 'g', 4, 64)
		b.WriteString(", Weapon.Cooldown ")
		b.WriteString(v)
		b.WriteString(" s, over MaxWeaponCooldown (")
		b.WriteString(strconv.FormatFloat(MaxWeaponCooldown, 'g', -1, 64))
		b.WriteString(" s): Cooldown is in seconds of simulation time, so ")
		b.WriteString(v)
		b.WriteString(" means one strike every ")
		b.WriteString(v)
		b.WriteString(" s (")
		writeMinutes(b, n.pos.X)
		b.WriteString(" min); for one every ")
		b.WriteString(v)
		b.WriteString(" ms write ")
		b.WriteString(strconv.FormatFloat(n.pos.X/1000, 'g', 4, 64))
	case noteTreeTimer: // the node (and the state whose tree it is in), its duration, and what to write for milliseconds
		v := strconv.FormatFloat(n.pos.X, 'g', 4, 64)
		if n.machine != nil {
			b.WriteString(", the tree of state ")
			b.WriteString(strconv.Quote(n.machine.FullName(n.state)))
		}
		b.WriteString(", node ")
		b.WriteString(strconv.Quote(n.what))
		b.WriteString(" lasts ")
		b.WriteString(v)
		b.WriteString(" s (")
		writeMinutes(b, n.pos.X)
		b.WriteString(" min), over MaxTreeTimer (")
		b.WriteString(strconv.FormatFloat(MaxTreeTimer, 'g', -1, 64))
		b.WriteString(" s): tree durations are seconds of simulation time; for ")
		b.WriteString(v)
		b.WriteString(" ms write seconds=\"")
		b.WriteString(strconv.FormatFloat(n.pos.X/1000, 'g', 4, 64))
		b.WriteString("\" or msec=\"")
		b.WriteString(v)
		b.WriteString("\"")
	case noteWeapon:
		b.WriteString(", Weapon.")
		b.WriteString(n.what)
		b.WriteString(" ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', -1, 64))
		b.WriteString(": want a finite value ≥ 0")
		switch n.what {
		case "Damage":
			b.WriteString(" (health points per strike)")
		case "Range":
			b.WriteString(" (cells, centre to centre)")
		case "Cooldown":
			b.WriteString(" (seconds of simulation time; 0: none)")
		}
	case noteStarved:
		b.WriteString(", ")
		b.WriteString(n.what)
		b.WriteString(".Budget ")
		b.WriteString(strconv.Itoa(n.h))
		b.WriteString(" a frame never catches up: ")
		b.WriteString(strconv.Itoa(n.w))
		b.WriteString(" agents left waiting in its last frame and on every frame for ")
		b.WriteString(strconv.FormatFloat(n.pos.Y, 'f', 1, 64))
		b.WriteString(" s, the longest due for ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'f', 3, 64))
		b.WriteString(" s; raise the Budget or lower the cadence (a longer Think.Interval, LOD levels)")
	case noteMode:
		b.WriteString(", ")
		b.WriteString(n.what)
		b.WriteString(" ")
		b.WriteString(strconv.Itoa(int(n.n)))
		b.WriteString(modeNoteTail[n.what])
	case noteSpeedFactor:
		b.WriteString(", Intent.SpeedFactor ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', -1, 64))
		b.WriteString(" is not a fraction of MaxSpeed in (0, 1] (0: full speed): it moves at full speed")
	case noteKin:
		if n.what == "radius" {
			b.WriteString(", Radius not > 0: its disc has no size (separation and walls keep nothing off it)")
			return
		}
		b.WriteString(", MaxSpeed ")
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', -1, 64))
		b.WriteString(" cells/s, MaxForce ")
		b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', -1, 64))
		b.WriteString(" cells/s²: each must be > 0 and at most ")
		b.WriteString(strconv.FormatFloat(MaxKinematicSpeed, 'g', -1, 64))
		b.WriteString(" and ")
		b.WriteString(strconv.FormatFloat(MaxKinematicForce, 'g', -1, 64))
		b.WriteString(" (MaxKinematicSpeed, MaxKinematicForce), and Radius finite and at most ")
		b.WriteString(strconv.FormatFloat(MaxKinematicRadius, 'g', -1, 64))
		b.WriteString(" cells (MaxKinematicRadius): it stands still")
	case noteFlips:
		appendFlips(b, n)
	case noteNoRand:
		appendNoRand(b, n)
	case noteHeldOff:
		appendHeldOff(b, n)
	case noteHeldFar:
		appendHeldFar(b, n)
	case noteIntentFlips:
		appendIntentFlips(b, n)
	case noteBlocked:
		appendBlocked(b, n)
	case noteDownedTarget:
		appendDownedTarget(b, n)
	case noteMoveNoPath:
		appendMoveNoPath(b, n)
	case noteAlly:
		appendAlly(b, n)
	case noteNaNInput:
		appendNaNInput(b, n)
	case noteFlowCut:
		b.WriteString(", its cell (")
		b.WriteString(strconv.Itoa(int(n.cell.X)))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(n.cell.Y)))
		b.WriteString(") has no route to its flow goal cell (")
		b.WriteString(strconv.Itoa(int(n.to.X)))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(n.to.Y)))
		b.WriteString("): walls cut it off (a door closed, or spawned in a walled-off pocket) and it stands; " +
			"give it a goal it reaches (grid.Connected(cell, goal)), or open a way")
	case noteNeeds:
		if n.what != "" {
			b.WriteString(", ")
			b.WriteString(n.what)
		}
	case noteHTNIdle:
		b.WriteString(", ")
		writeHTNIdleNote(b, n.what, n.pos.X, n.pos.Y)
	case noteHybridHTN:
		appendHybridHTN(b, n)
	case noteHybridGOAP:
		appendHybridGOAP(b, n)
	case noteHybridKey:
		appendHybridKey(b, n)
	}
}

// moveNoPathNote is the note of a steered agent without a Path whose Intent in
// asks it to go to its Goal or pursue (CauseMoveWithoutPath).
// A FlowFollower (flow) is told how to add one: a Mover, the other way, cannot be
// spawned beside it.
func moveNoPathNote(in *components.Intent, flow bool) exampleNote {
	if in.Mode == components.IntentPursue {
		return exampleNote{kind: noteMoveNoPath, n: 1, target: in.Target, pos: in.Point, inMap: flow}
	}
	return exampleNote{kind: noteMoveNoPath, pos: in.Goal, inMap: flow}
}

// appendMoveNoPath writes a noteMoveNoPath: what the Intent asks, and what the
// agent lacks to follow a path round the walls.
func appendMoveNoPath(b *strings.Builder, n *exampleNote) {
	switch {
	case n.n == 0:
		b.WriteString(", Intent goes to goal (")
	case n.target != (arche.Entity{}):
		b.WriteString(", Intent pursues entity ")
		b.WriteString(strconv.FormatUint(uint64(n.target.ID()), 10))
	default:
		b.WriteString(", Intent pursues point (")
	}
	if n.n == 0 || n.target == (arche.Entity{}) {
		b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 6, 64))
		b.WriteString(", ")
		b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', 6, 64))
		b.WriteString(")")
	}
	b.WriteString(" and it has no Path component on a grid with walls: PathFollow steers it in a straight line " +
		"and it stops at walls; give it a components.Path (")
	if n.inMap { // a FlowFollower: no Mover beside it (two moving bundles)
		b.WriteString("a FlowFollower whose decision sends it to a goal: spawn it with systems.With(components.Path{}) " +
			"beside the FlowFollower bundle")
	} else {
		b.WriteString("spawn it as a systems.Mover, whose bundle has one, or add a components.Path to it")
	}
	b.WriteString("), served by systems.PathQueue and PathFollow in the schedule")
}

// addNote is add with a note kept when e becomes the cause's example.
func (r *Report) addNote(c Cause, e arche.Entity, n exampleNote) {
	if r.Counts[c] == 0 {
		r.notes[c] = n
	}
	r.add(c, e)
}

// writeMinutes writes seconds as minutes with one decimal ('g' for huge values, which
// 'f' would write every digit of).
func writeMinutes(b *strings.Builder, seconds float64) {
	if m := seconds / 60; m < 1e6 {
		b.WriteString(strconv.FormatFloat(m, 'f', 1, 64))
	} else {
		b.WriteString(strconv.FormatFloat(m, 'g', 4, 64))
	}
}

// modeNoteTail ends a noteMode, by field: the constants it may hold and what the
// systems do with any other value.
var modeNoteTail = map[string]string{
	"Intent.Mode": " is no IntentMode (IntentGo 0 to IntentEvade 3): PathFollow takes it as no move intent, " +
		"so the agent brakes rather than go to its Goal, and a save refuses it; set one of the constants",
	"Desired.Mode": " is no DesiredMode (DesiredNone 0 to DesiredHold 8): Steer brakes the agent, " +
		"and a save refuses it; leave Desired to PathFollow, which writes it each frame",
	"Path.State": " is no PathState (PathNone 0 to PathUnreachable 3): PathFollow reads and sets it as PathNone, " +
		"and a save refuses it; ask for a path with Path.Want and leave State to the PathQueue",
}
