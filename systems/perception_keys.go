package systems

import (
	"errors"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// The well-known blackboard keys of perception. [Perception] writes each one the agent's
// schema declares (with the type given here) every time the agent perceives, so a tree
// loaded from a file reads them through ports: <MoveTo goal="{target_position}"/>,
// <CheckBlackboard value_A="{target_visible}" value_B="true"/>. Declare them with
// [DeclarePerceptionKeys] before loading trees, so that blackboard nodes comparing them
// with literals get their types.
const (
	// KeyTarget (arche.Entity) is Perception.Target, the visible foe picked (the nearest, or
	// the one kept: components.Perception.TargetMargin); unset while none is visible.
	KeyTarget = "target"
	// KeyTargetVisible (bool) is whether a foe is in sight now.
	KeyTargetVisible = "target_visible"
	// KeyTargetPosition (r2.Vec, cells) is where the target was seen this perception;
	// unset while none is visible.
	KeyTargetPosition = "target_position"
	// KeyTargetDistance (float64, cells) is the distance to the target; unset while none
	// is visible.
	KeyTargetDistance = "target_distance"
	// KeyLastSeenPosition (r2.Vec, cells) is where a foe was last seen; unset until one
	// has been seen.
	KeyLastSeenPosition = "last_seen_position"
	// KeyLastSeenTime (float64, seconds of simulation time) is when a foe was last seen;
	// unset until one has been seen.
	KeyLastSeenTime = "last_seen_time"
)

// DeclarePerceptionKeys declares the well-known perception keys ([KeyTarget] and the
// rest) in schema with their types. It returns an error wrapping
// blackboard.ErrTypeMismatch if schema already declares one with another type.
func DeclarePerceptionKeys(schema *blackboard.Schema) error {
	pk := resolvePerceptionKeys(schema, true)
	return pk.err
}

// perceptionKeys are the well-known keys as one schema declares them; a key the
// schema lacks (or declares with another type) is the zero Key, which Set ignores.
type perceptionKeys struct {
	schema   *blackboard.Schema
	declared int // schema.Len() when resolved: re-resolved when the schema grows
	err      error

	target                 blackboard.Key[arche.Entity]
	visible                blackboard.Key[bool]
	position, lastPosition blackboard.Key[r2.Vec]
	distance, lastSeenTime blackboard.Key[float64]
}

// resolvePerceptionKeys looks up (or, with declare, declares) the keys in schema.
func resolvePerceptionKeys(schema *blackboard.Schema, declare bool) *perceptionKeys {
	pk := &perceptionKeys{schema: schema}
	var errs []error
	key := func(name string, bind func(string, bool) error) {
		if err := bind(name, declare); err != nil && !errors.Is(err, blackboard.ErrUnknownKey) {
			errs = append(errs, err)
		}
	}
	key(KeyTarget, bindKey(schema, &pk.target))
	key(KeyTargetVisible, bindKey(schema, &pk.visible))
	key(KeyTargetPosition, bindKey(schema, &pk.position))
	key(KeyTargetDistance, bindKey(schema, &pk.distance))
	key(KeyLastSeenPosition, bindKey(schema, &pk.lastPosition))
	key(KeyLastSeenTime, bindKey(schema, &pk.lastSeenTime))
	pk.err = errors.Join(errs...)
	pk.declared = schema.Len()
	return pk
}

func bindKey[T any](schema *blackboard.Schema, k *blackboard.Key[T]) func(string, bool) error {
	return func(name string, declare bool) error {
		var err error
		if declare {
			*k, err = blackboard.Declare[T](schema, name)
		} else {
			*k, err = blackboard.Lookup[T](schema, name)
		}
		return err
	}
}

// keysOf returns the keys of schema, resolved once per schema (and again when it has
// grown). It runs on the system's goroutine, before the workers.
func (s *Perception) keysOf(schema *blackboard.Schema) *perceptionKeys {
	for i, pk := range s.keys {
		if pk.schema == schema {
			if pk.declared != schema.Len() {
				pk = resolvePerceptionKeys(schema, false)
				s.keys[i] = pk
				if pk.err != nil {
					s.KeyError = pk.err
				}
			}
			return pk
		}
	}
	pk := resolvePerceptionKeys(schema, false)
	if pk.err != nil {
		s.KeyError = pk.err
	}
	s.keys = append(s.keys, pk)
	return pk
}

// write copies per's facts into the keys of st (only the keys the schema declares).
func (pk *perceptionKeys) write(st *blackboard.Store, per *components.Perception) {
	blackboard.Set(st, pk.visible, per.Visible)
	if per.Visible {
		blackboard.Set(st, pk.target, per.Target)
		blackboard.Set(st, pk.position, per.TargetAt)
		blackboard.Set(st, pk.distance, per.Distance)
	} else {
		blackboard.Unset(st, pk.target)
		blackboard.Unset(st, pk.position)
		blackboard.Unset(st, pk.distance)
	}
	if per.HasLastSeen {
		blackboard.Set(st, pk.lastPosition, per.LastSeen)
		blackboard.Set(st, pk.lastSeenTime, per.LastSeenTime)
	} else {
		blackboard.Unset(st, pk.lastPosition)
		blackboard.Unset(st, pk.lastSeenTime)
	}
}
