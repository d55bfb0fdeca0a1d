package grid

import "strconv"

// String returns "Moves8", "Moves4", or "Moves(n)" for a value that is
// neither (which Options.Validate refuses).
func (m Moves) String() string {
	switch m {
	case Moves8:
		return "Moves8"
	case Moves4:
		return "Moves4"
	}
	return "Moves(" + strconv.Itoa(int(m)) + ")"
}

var heuristicNames = [...]string{"AutoHeuristic", "OctileHeuristic", "ManhattanHeuristic", "EuclideanHeuristic", "ZeroHeuristic"}

// String returns the constant's name ("OctileHeuristic", …), or
// "Heuristic(n)" for a value that is none (which Options.Validate refuses).
func (h Heuristic) String() string {
	if int(h) < len(heuristicNames) {
		return heuristicNames[h]
	}
	return "Heuristic(" + strconv.Itoa(int(h)) + ")"
}
