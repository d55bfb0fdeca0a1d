package systems

import (
	"fmt"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// Doors that flicker (FlowField.Hold, archai's own rule): a grid edit that
// leaves a follower's cell without a path to its goal (a door closing
// before it) does not stop it at once. When a follower that had a
// direction on its field samples again and finds no path from its cell, and
// the grid was edited less than Hold frames ago (DefaultFlowHold, 20, when
// Hold is 0; never when Hold is negative), it keeps its last Aim (Steer
// true, Held set); it stands (Steer false) at the first sample with no path
// that comes Hold frames or more after the grid's last edit. A held agent is
// sampled again as any other (when it enters a new cell, or its field
// changes), and every follower once in the frame Hold frames after the last
// edit, so that no agent holds longer. So:
//
//   - a door closed for good stops the followers it cut off Hold frames
//     after it closed: they walk on towards it for that long, and Movement
//     keeps them out of its closed cells;
//   - a door that closes and opens again at least every Hold frames (a game
//     toggling it every frame by mistake, a physics door) never stops them:
//     they walk up to it, step in on a frame it is open, and, when it
//     closes on them, walk out to the open cell of least integration value
//     in the nearest ring (the goal's side, which alone has a path then; see
//     the Contract row "Position in a blocked cell"). Every follower before
//     such a door crosses it, however short its open frames; none steps into
//     a cell while it is closed (Movement), and a follower inside a door
//     that closed on it walks out of it.
//
// Before this rule, a door toggled every frame or two stalled the followers
// before it for good: each frame with no path braked them to a stop
// (DesiredNone), and the next frame started them again from rest, a few
// hundredths of a cell a second. With whole-grid fields and Budget 0 the
// field rebuilt after an edit is served in the same frame (it was served one
// frame late, so the agents saw the door open while it was closed and closed
// while it was open). With Budget > 0 a door toggled more often than the
// goal's field builds keeps restarting the rebuild: the followers keep the
// last complete field, from before the door began to flicker.
//
// DefaultFlowHold is FlowField.Hold's value when it is 0, in frames (a
// third of a second at 60 frames a second).
const DefaultFlowHold = 20

// flowEdits is what Hold needs of the grid's edits: the frame, counted by
// FlowField's Update, of the last edit it saw, and whether a follower that
// loses its path this frame keeps its Aim.
type flowEdits struct {
	tick    uint64 // Updates since Initialize
	version uint64 // the grid's Version at the last Update
	edited  uint64 // the tick in which the grid's Version last changed; 0: never
	holding bool   // this Update is less than Hold frames after the last edit
	expires bool   // this Update is Hold frames after the last edit: every follower samples again

	// Diagnose's Report.FlowBehind: followers whose field (whole-grid,
	// Budget > 0) is older than the grid at the end of the last Update, and
	// for how many Updates in a row some were
	behindFollowers int
	behindFrames    int64
}

// behind counts, after the fields of goals were resolved, the followers of
// fields older than the grid: a field rebuilt within Budget that grid edits
// keep restarting (a door toggled every frame) is never current, and its
// followers follow the field from before the edits for good.
func (e *flowEdits) behind(goals []flowGoal) {
	n := 0
	for i := range goals {
		if goals[i].field.Stale() {
			n += goals[i].followers
		}
	}
	e.behindFollowers = n
	if n == 0 {
		e.behindFrames = 0
	} else {
		e.behindFrames++
	}
}

// reset starts counting against g's current version (Initialize).
func (e *flowEdits) reset(g *grid.Grid) {
	*e = flowEdits{version: g.Version()}
}

// update counts one Update of a FlowField whose Hold is hold (see
// DefaultFlowHold) over g, and decides holding for it.
func (e *flowEdits) update(g *grid.Grid, hold int) {
	e.tick++
	if v := g.Version(); v != e.version {
		e.version, e.edited = v, e.tick
	}
	if hold == 0 {
		hold = DefaultFlowHold
	}
	e.holding = hold > 0 && e.edited > 0 && e.tick-e.edited < uint64(hold)
	e.expires = hold > 0 && e.edited > 0 && e.tick-e.edited == uint64(hold)
}

// set writes a new sample (aim, direct, steer, taken in cell) into ff,
// unless the sample has no direction where ff had one and the grid was
// edited less than Hold frames ago: ff then keeps its Aim, Direct and Steer,
// and is marked Held.
func (e *flowEdits) set(ff *components.FlowFollower, cell grid.Cell, aim r2.Vec, direct, steer bool) {
	if !steer && e.holding && ff.Steer && (ff.Held || ff.Cell != noCell) {
		ff.Cell, ff.Held = cell, true
		return
	}
	ff.Cell, ff.Aim, ff.Direct, ff.Steer, ff.Held = cell, aim, direct, steer, false
}

// flowEditsState is flowEdits in a save: Age is the Updates since the one
// that saw the grid's last edit, plus 1 (1: the last Update saw it), and
// Pending says the grid was edited after the last Update, so that the loaded
// run holds followers in the same frames as the saved one would. Behind and
// BehindFrames are behindFollowers and behindFrames (Diagnose's
// Report.FlowBehind), so that the loaded run reports followers of a field
// older than the grid at the frame the saved one would; a file written before
// them (2026-12-04) reads them as 0, and the count starts at the load.
type flowEditsState struct {
	Age          uint64 `json:"age,omitempty"`
	Pending      bool   `json:"pending,omitempty"`
	Behind       int    `json:"behind,omitempty"`
	BehindFrames int64  `json:"behind_frames,omitempty"`
}

// state returns e's state for a save (nil when no edit matters any more:
// none within hold frames, and none pending).
func (e *flowEdits) state(g *grid.Grid, hold int) *flowEditsState {
	if hold == 0 {
		hold = DefaultFlowHold
	}
	var st flowEditsState
	if e.edited > 0 && hold > 0 && e.tick-e.edited < uint64(hold) {
		st.Age = e.tick - e.edited + 1
	}
	st.Pending = g.Version() != e.version
	st.Behind, st.BehindFrames = e.behindFollowers, e.behindFrames
	if st == (flowEditsState{}) {
		return nil
	}
	return &st
}

// restore sets e from a save's state over g (the loaded grid, with the
// saved run's edits made again), nil for none.
func (e *flowEdits) restore(g *grid.Grid, st *flowEditsState) error {
	e.reset(g)
	if st == nil {
		return nil
	}
	if st.Age > 1<<32 {
		return fmt.Errorf("flowfield state: edits: age %d frames: %w", st.Age, ErrOutOfDomain)
	}
	if st.Behind < 0 || st.BehindFrames < 0 || st.BehindFrames > MaxPathWait || (st.Behind > 0) != (st.BehindFrames > 0) {
		return fmt.Errorf("flowfield state: edits: behind %d followers for %d frames: both 0, or followers > 0 for 1 to %d frames: %w",
			st.Behind, st.BehindFrames, int64(MaxPathWait), ErrOutOfDomain)
	}
	e.behindFollowers, e.behindFrames = st.Behind, st.BehindFrames
	if st.Age > 0 {
		e.tick, e.edited = st.Age, 1
	}
	if st.Pending {
		e.version = g.Version() - 1 // the next Update sees an edit
	}
	return nil
}
