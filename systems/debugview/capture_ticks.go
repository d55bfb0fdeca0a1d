package debugview

import (
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// recordTicks has m, a tree memory of the selected agent, record which nodes each
// tick reaches (bt.Memory.RecordTicks), so that the page shows a node the latest
// tick did not reach as Idle (treeOf). It allocates once per memory.
func (v *Viewer) recordTicks(w *arche.World, m *bt.Memory) {
	if v.tickOwner != v.selected {
		v.unrecordTicks(w)
		v.tickOwner = v.selected
	}
	if !m.RecordingTicks() {
		m.RecordTicks(true)
	}
}

// unrecordTicks turns the recording off on the agent that had it: its Brain's
// memory and those of the TreeRuns in v.runComps.
func (v *Viewer) unrecordTicks(w *arche.World) {
	e := v.tickOwner
	v.tickOwner = arche.Entity{}
	if e.IsZero() || !aliveIn(w, e) {
		return
	}
	if w.Has(e, v.ids.brain) {
		(*components.Brain)(w.Get(e, v.ids.brain)).Memory.RecordTicks(false)
	}
	for _, id := range v.runComps {
		if !w.Has(e, id) {
			continue
		}
		for _, f := range v.treeRunsOf(w, id) {
			treeRun(w, e, id, f).Memory.RecordTicks(false)
		}
	}
}
