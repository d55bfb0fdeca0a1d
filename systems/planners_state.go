package systems

import (
	"encoding/json"
	"fmt"
)

// PlannerState is what an [HTN] or a [GOAP] saves: its think budget's state (the form
// the other decision systems save, [ThinkCursorState]) and its counts since Initialize,
// Swapped and (HTN) ScriptErrors, so that the loaded system counts on from them. A file
// written before those counts (2026-12-05) reads them as 0: they count from the load.
type PlannerState struct {
	ThinkCursorState
	Swapped      uint64 `json:"swapped,omitempty"`
	ScriptErrors uint64 `json:"script_errors,omitempty"` // HTN only
}

// SaveState returns the HTN's state as JSON (see [PlannerState]), for a save file.
func (s *HTN) SaveState() (json.RawMessage, error) {
	return json.Marshal(PlannerState{ThinkCursorState: s.run.due.thinkState(), Swapped: s.Swapped, ScriptErrors: s.ScriptErrors})
}

// LoadState restores the state saved by [HTN.SaveState]. It returns an error for a
// malformed or negative cursor, or a Waiting, Backlog or TotalThought out of their
// domain (see [ThinkCursorState]).
func (s *HTN) LoadState(raw json.RawMessage) (err error) {
	var st PlannerState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("htn state: %w", err)
	}
	if s.Waiting, err = s.run.due.loadThinkState("htn", raw); err != nil {
		return err
	}
	var now uint64
	for i := range s.run.planners {
		now += s.run.planners[i].v.ScriptErrors
	}
	s.scriptBase, s.ScriptErrors = st.ScriptErrors-now, st.ScriptErrors
	s.run.Swapped, s.Swapped = st.Swapped, st.Swapped
	s.TotalThought = s.run.due.TotalThought
	return nil
}

// SaveState returns the GOAP's state as JSON (see [PlannerState]), for a save file.
func (s *GOAP) SaveState() (json.RawMessage, error) {
	return json.Marshal(PlannerState{ThinkCursorState: s.run.due.thinkState(), Swapped: s.Swapped})
}

// LoadState restores the state saved by [GOAP.SaveState] (see [HTN.LoadState]).
func (s *GOAP) LoadState(raw json.RawMessage) (err error) {
	var st PlannerState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("goap state: %w", err)
	}
	if s.Waiting, err = s.run.due.loadThinkState("goap", raw); err != nil {
		return err
	}
	s.run.Swapped, s.Swapped = st.Swapped, st.Swapped
	s.TotalThought = s.run.due.TotalThought
	return nil
}
