package components

import "strconv"

var (
	intentModeNames  = [...]string{"IntentGo", "IntentFlee", "IntentPursue", "IntentEvade"}
	desiredModeNames = [...]string{"DesiredNone", "DesiredSeek", "DesiredArrive", "DesiredFlow", "DesiredStop", "DesiredFlee", "DesiredPursue", "DesiredEvade", "DesiredHold"}
	pathStateNames   = [...]string{"PathNone", "PathPending", "PathReady", "PathUnreachable"}
)

// String returns the constant's name ("IntentGo", "IntentPursue", …), or
// "IntentMode(n)" for a value that is no mode (which systems.Diagnose counts).
func (m IntentMode) String() string { return nameOf(intentModeNames[:], uint8(m), "IntentMode") }

// String returns the constant's name ("DesiredArrive", "DesiredHold", …), or
// "DesiredMode(n)" for a value that is no mode (which systems.Diagnose counts).
func (m DesiredMode) String() string { return nameOf(desiredModeNames[:], uint8(m), "DesiredMode") }

// String returns the constant's name ("PathReady", "PathUnreachable", …), or
// "PathState(n)" for a value that is no state (which systems.Diagnose counts).
func (s PathState) String() string { return nameOf(pathStateNames[:], uint8(s), "PathState") }

// nameOf returns names[v], or typ(v) past its end.
func nameOf(names []string, v uint8, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}
