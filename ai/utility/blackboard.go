package utility

import (
	"math"

	"github.com/archai-go/archai/ai/blackboard"
)

// BlackboardAgent is an agent view that carries the agent's blackboard store (nil if it
// has none), such as the *systems.Agent the Utility system passes to considerations.
type BlackboardAgent interface {
	BlackboardStore() *blackboard.Store
}

// Number is a type a blackboard key may hold for [KeyInput].
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
}

// KeyInput returns a consideration Input that reads the blackboard key k of the agent,
// which must be a [BlackboardAgent], as a float64, so a designer-declared fact (a threat
// level, an ammo count) is a consideration without Go code of its own. Any other agent, a
// nil store, a key of another schema or a key not set reads NaN, which scores 0 (see
// [Fact]). The setup mistakes are counted: an agent that is not a BlackboardAgent in
// [State].Unread (so is the zero Key), an agent without a store of k's schema (no store, or another
// schema's) in [State].NoBlackboard; a key not set is not (an unset key is a designer's
// veto). It allocates nothing.
func KeyInput[T Number](k blackboard.Key[T]) func(agent any) float64 {
	return func(agent any) float64 {
		a, ok := agent.(BlackboardAgent)
		if !ok || !k.Valid() {
			return unread // counted in State.Unread
		}
		st := a.BlackboardStore()
		if st == nil || st.Schema() != k.Schema() {
			return noStore // counted in State.NoBlackboard
		}
		v, ok := blackboard.Get(st, k)
		if !ok {
			return math.NaN()
		}
		return float64(v)
	}
}
