package systems

import (
	"fmt"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

// SectorFlowState is what a FlowField in sector mode carries from one frame
// to the next, for saving a world mid-run: its frame counter and, in the
// order it holds them, each goal's field (see [flowfield.SectorFieldState])
// with the frame it was last asked for (which field a new goal reuses).
type SectorFlowState struct {
	Size  int               `json:"size"` // the sector side in cells (FlowField.Sectors)
	Frame uint64            `json:"frame"`
	Goals []SectorGoalState `json:"goals"`
}

// SectorGoalState is one goal's field of a [SectorFlowState].
type SectorGoalState struct {
	Used  uint64                     `json:"used"`
	Field flowfield.SectorFieldState `json:"field"`
}

// state returns the sector mode's state.
func (sf *sectorFlow) state() (*SectorFlowState, error) {
	st := &SectorFlowState{Size: sf.sectors.Size(), Frame: sf.frame, Goals: []SectorGoalState{}}
	for i := range sf.goals {
		g := &sf.goals[i]
		fs, err := g.field.State()
		if err != nil {
			return nil, err
		}
		st.Goals = append(st.Goals, SectorGoalState{Used: g.used, Field: fs})
	}
	return st, nil
}

// restore replaces the sector mode's goals by st's, building their fields
// again (see [flowfield.SectorField.Restore]); on error it holds no goal.
func (sf *sectorFlow) restore(st *SectorFlowState) error {
	sf.goals, sf.frame = sf.goals[:0], 0
	err := sf.restoreGoals(st)
	if err != nil {
		sf.goals, sf.frame = sf.goals[:0], 0
	}
	return err
}

func (sf *sectorFlow) restoreGoals(st *SectorFlowState) error {
	if st.Size != sf.sectors.Size() {
		return fmt.Errorf("flowfield state: sectors of %d cells saved, FlowField.Sectors is %d", st.Size, sf.sectors.Size())
	}
	if len(st.Goals) > sf.s.Capacity {
		return fmt.Errorf("flowfield state: %d sector fields saved, Capacity is %d", len(st.Goals), sf.s.Capacity)
	}
	seen := map[grid.Cell]bool{}
	across, down := sf.sectors.Count()
	for k, gs := range st.Goals {
		if seen[gs.Field.Goal] {
			return fmt.Errorf("flowfield state: sector field %d: goal %v twice", k, gs.Field.Goal)
		}
		seen[gs.Field.Goal] = true
		if gs.Used > st.Frame {
			return fmt.Errorf("flowfield state: sector field %d: used at frame %d, after the frame counter %d", k, gs.Used, st.Frame)
		}
		f := flowfield.NewSectorField(sf.sectors)
		if err := f.Restore(gs.Field); err != nil {
			return fmt.Errorf("flowfield state: sector field %d: %w", k, err)
		}
		sf.goals = append(sf.goals, sectorGoal{goal: gs.Field.Goal, field: f, used: gs.Used, fresh: make([]bool, across*down)})
	}
	sf.frame = st.Frame
	return nil
}
