package systems

import (
	"encoding/json"
	"fmt"
)

// plannerCursor is where a planner system's think budget resumes: the query index of the
// first agent left waiting in the last frame (0 without a budget). Its JSON form,
// {"cursor": n}, is the one the other decision systems save.
type plannerCursor struct {
	Cursor int `json:"cursor"`
}

// SaveState returns the think budget's cursor as JSON ({"cursor": n}), for a save file.
func (s *HTN) SaveState() (json.RawMessage, error) {
	return json.Marshal(plannerCursor{Cursor: s.run.due.cursor})
}

// LoadState restores the think budget's cursor saved by [HTN.SaveState]. It returns an
// error for a malformed or negative cursor.
func (s *HTN) LoadState(raw json.RawMessage) error {
	return loadPlannerCursor("htn", raw, &s.run.due.cursor)
}

// SaveState returns the think budget's cursor as JSON ({"cursor": n}), for a save file.
func (s *GOAP) SaveState() (json.RawMessage, error) {
	return json.Marshal(plannerCursor{Cursor: s.run.due.cursor})
}

// LoadState restores the think budget's cursor saved by [GOAP.SaveState]. It returns an
// error for a malformed or negative cursor.
func (s *GOAP) LoadState(raw json.RawMessage) error {
	return loadPlannerCursor("goap", raw, &s.run.due.cursor)
}

func loadPlannerCursor(name string, raw json.RawMessage, cursor *int) error {
	var st plannerCursor
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("%s think cursor: %w", name, err)
	}
	if st.Cursor < 0 {
		return fmt.Errorf("%s think cursor: %d < 0", name, st.Cursor)
	}
	*cursor = st.Cursor
	return nil
}
