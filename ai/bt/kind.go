package bt

import "strconv"

// kind identifies a node type. The zero kind marks a Node that was not made by a
// constructor of this package; [Compile] rejects it.
type kind uint8

const (
	kindInvalid kind = iota
	// Control nodes.
	kindSequence
	kindSequenceWithMemory
	kindSelector
	kindReactiveSequence
	kindReactiveSelector
	kindParallel
	kindIfThenElse
	kindWhileDoElse
	kindSwitch
	kindChoose
	// Decorators.
	kindInverter
	kindForceSuccess
	kindForceFailure
	kindRepeat
	kindRepeatUntilFailure
	kindRepeatUntilSuccess
	kindRetry
	kindCooldown
	kindTimeout
	kindDelay
	kindRunOnce
	kindPrecondition
	kindSubTree
	// Leaves.
	kindWait
	kindCondition
	kindAction
	kindSetBlackboard
	kindCheckBlackboard
	kindAlwaysSuccess
	kindAlwaysFailure
	// BehaviorTree.CPP 4.x nodes added later (nodes_v4.go).
	kindTryCatch
	kindParallelAll
	kindAsyncSequence
	kindLoop
	kindWasEntryUpdated
	kindEntryUpdated
	kindSleep
	kindAsyncFallback
	kindUnsetBlackboard
	// Scripts (script.go).
	kindScript
	kindScriptCondition
	kindCount
)

// kindInfo is what Compile checks of each kind: its name and allowed number of children.
type kindInfo struct {
	name             string
	minKids, maxKids int
}

const manyKids = 1 << 16

var kinds = [kindCount]kindInfo{
	kindInvalid:            {"Invalid", 0, 0},
	kindSequence:           {"Sequence", 1, manyKids},
	kindSequenceWithMemory: {"SequenceWithMemory", 1, manyKids},
	kindSelector:           {"Selector", 1, manyKids},
	kindReactiveSequence:   {"ReactiveSequence", 1, manyKids},
	kindReactiveSelector:   {"ReactiveSelector", 1, manyKids},
	kindParallel:           {"Parallel", 1, manyKids},
	kindIfThenElse:         {"IfThenElse", 2, 3},
	kindWhileDoElse:        {"WhileDoElse", 2, 3},
	kindSwitch:             {"Switch", 1, manyKids},
	kindChoose:             {"Choose", 1, manyKids},
	kindInverter:           {"Inverter", 1, 1},
	kindForceSuccess:       {"ForceSuccess", 1, 1},
	kindForceFailure:       {"ForceFailure", 1, 1},
	kindRepeat:             {"Repeat", 1, 1},
	kindRepeatUntilFailure: {"RepeatUntilFailure", 1, 1},
	kindRepeatUntilSuccess: {"RepeatUntilSuccess", 1, 1},
	kindRetry:              {"Retry", 1, 1},
	kindCooldown:           {"Cooldown", 1, 1},
	kindTimeout:            {"Timeout", 1, 1},
	kindDelay:              {"Delay", 1, 1},
	kindRunOnce:            {"RunOnce", 1, 1},
	kindPrecondition:       {"Precondition", 1, 1},
	kindSubTree:            {"SubTree", 1, 1},
	kindWait:               {"Wait", 0, 0},
	kindCondition:          {"Condition", 0, 0},
	kindAction:             {"Action", 0, 0},
	kindSetBlackboard:      {"SetBlackboard", 0, 0},
	kindCheckBlackboard:    {"CheckBlackboard", 0, 0},
	kindAlwaysSuccess:      {"AlwaysSuccess", 0, 0},
	kindAlwaysFailure:      {"AlwaysFailure", 0, 0},
	kindTryCatch:           {"TryCatch", 2, manyKids},
	kindParallelAll:        {"ParallelAll", 1, manyKids},
	kindAsyncSequence:      {"AsyncSequence", 1, manyKids},
	kindLoop:               {"Loop", 1, 1},
	kindWasEntryUpdated:    {"WasEntryUpdated", 0, 0},
	kindEntryUpdated:       {"SkipUnlessUpdated", 1, 1},
	kindSleep:              {"Sleep", 0, 0},
	kindAsyncFallback:      {"AsyncFallback", 1, manyKids},
	kindUnsetBlackboard:    {"UnsetBlackboard", 0, 0},
	kindScript:             {"Script", 0, 0},
	kindScriptCondition:    {"ScriptCondition", 0, 0},
}

func (k kind) String() string {
	if k < kindCount {
		return kinds[k].name
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

func composite(k kind, children []*Node) *Node {
	// Copy: the caller owns the variadic slice and could otherwise change it later.
	return &Node{kind: k, children: append([]*Node(nil), children...)}
}

func decorator(k kind, child *Node) *Node { return &Node{kind: k, children: []*Node{child}} }
