package systems

import (
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// installed records which of archai's systems were initialized in a world, so that
// [Diagnose] can report agents whose components no system serves (a Path without a
// PathQueue, a Brain without a Decision system, ...). It is a world resource added by
// the first archai system initialized.
type installed struct {
	systems   systemSet
	pathQueue *PathQueue // the last PathQueue initialized in the world, for Diagnose's CausePathNotQueued
}

// systemSet is a set of archai systems, one bit each.
type systemSet uint16

const (
	sysDecision systemSet = 1 << iota
	sysUtility
	sysFSM
	sysPerception
	sysPathQueue
	sysFlowField
	sysSteer
	sysMovement
	sysSpatial
	sysPathFollow
	sysORCA
	sysHTN
	sysGOAP
)

// markInstalled records in w that system s was initialized.
func markInstalled(w *arche.World, s systemSet) {
	r := ecs.Resource[installed](w)
	if r == nil {
		r = &installed{}
		arche.AddResource(w, r)
	}
	r.systems |= s
}

// installedIn returns the set of archai systems initialized in w, and false if none
// was (then nothing can be said about missing ones).
func installedIn(w *arche.World) (systemSet, bool) {
	if r := ecs.Resource[installed](w); r != nil {
		return r.systems, true
	}
	return 0, false
}
