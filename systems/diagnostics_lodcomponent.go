package systems

import (
	"math/bits"

	arche "github.com/mlange-42/arche/ecs"
)

// noLODComponentNote is CauseNoLODComponent's note: what is missing and how to add it.
const noLODComponentNote = "a LOD system runs but no thinking agent has a components.LOD, so it sets no level: " +
	"spawn the agents it should slow down or freeze with systems.With(components.LOD{}) " +
	"(those without one keep their Think.Interval, which is right for a few that must always think)"

// lodComponentChecks counts the agents with a Position and a Think while a LOD system
// is live (initialized and not finalized) and no agent with a Position and a Think has
// a components.LOD (CauseNoLODComponent): the system serves only agents with all three,
// so it does nothing (an agent with a LOD and no Position is not served: it does not
// hide the finding). A mix, some agents with a LOD and some without, is the documented
// opt-out and not counted.
func (d *diagnoser) lodComponentChecks(w *arche.World, r *Report, in *installed) {
	if in == nil || in.live[bits.TrailingZeros16(uint16(sysLOD))] <= 0 {
		return
	}
	lq := d.lods.Query(w)
	some := lq.Count() > 0
	lq.Close()
	if some {
		return
	}
	q := d.thinks.Query(w)
	for q.Next() {
		if e := q.Entity(); w.Has(e, d.posID) {
			r.addNote(CauseNoLODComponent, e, needsNote(noLODComponentNote))
		}
	}
}
