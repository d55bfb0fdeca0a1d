// Package compare measures archai's behavior trees against other designs, side by side in
// one process. It is a module of its own (github.com/archai-go/archai/cmd/bench/compare,
// with archai replaced by the checkout three folders up), so that the rival libraries it
// imports stay out of archai's go.mod and users of archai do not inherit them. It uses
// only archai's public API.
//
// The same guard tree (flee when hurt, shoot an enemy in range with a cooldown, else patrol
// and pause) ticks the same 10,000 agents with the same clock on three designs:
//   - archai: one compiled tree ([bt.Compile]) shared by every agent, per-agent [bt.Memory];
//   - github.com/joeycumines/go-behaviortree v1.11.0: one tree of closures per agent (its
//     Sequence and Selector are reactive; Memorize gives the patrol Sequence memory; it has
//     no halt);
//   - oop: one tree of node objects per agent, state in node fields, children behind an
//     interface, as the common tutorials write it.
//
// Run it on a quiet machine, from this folder:
//
//	ARCHAI_COMPARE=1 go test -run TestGuardCompareRatios -v .  # ns per agent tick and the ratios
//	go test -run XXX -bench GuardCompare -benchmem .            # the three benchmarks alone
//
// Without ARCHAI_COMPARE, go test checks only that the three designs agree on what the
// agents did, so that the figures compare the same work.
package compare
