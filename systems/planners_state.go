package systems

import "encoding/json"

// SaveState returns the think budget's state as JSON (see [ThinkCursorState], the form
// the other decision systems save), for a save file.
func (s *HTN) SaveState() (json.RawMessage, error) {
	return json.Marshal(s.run.due.thinkState())
}

// LoadState restores the think budget's state saved by [HTN.SaveState]. It returns an
// error for a malformed or negative cursor, or a Waiting or Backlog out of their domain
// (see [ThinkCursorState]).
func (s *HTN) LoadState(raw json.RawMessage) (err error) {
	s.Waiting, err = s.run.due.loadThinkState("htn", raw)
	return err
}

// SaveState returns the think budget's state as JSON (see [ThinkCursorState]), for a
// save file.
func (s *GOAP) SaveState() (json.RawMessage, error) {
	return json.Marshal(s.run.due.thinkState())
}

// LoadState restores the think budget's state saved by [GOAP.SaveState] (see
// [HTN.LoadState]).
func (s *GOAP) LoadState(raw json.RawMessage) (err error) {
	s.Waiting, err = s.run.due.loadThinkState("goap", raw)
	return err
}
