package debugview

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// componentIDs are the components the viewer reads.
type componentIDs struct {
	pos, vel, faction, health, intent, think, brain, board, util, machine, path, perception, flow arche.ID
	htn, goap, squad                                                                              arche.ID
}

func lookupIDs(w *arche.World) componentIDs {
	return componentIDs{
		pos:        arche.ComponentID[components.Position](w),
		vel:        arche.ComponentID[components.Velocity](w),
		faction:    arche.ComponentID[components.Faction](w),
		health:     arche.ComponentID[components.Health](w),
		intent:     arche.ComponentID[components.Intent](w),
		think:      arche.ComponentID[components.Think](w),
		brain:      arche.ComponentID[components.Brain](w),
		board:      arche.ComponentID[components.Blackboard](w),
		util:       arche.ComponentID[components.UtilityBrain](w),
		machine:    arche.ComponentID[components.StateMachine](w),
		path:       arche.ComponentID[components.Path](w),
		perception: arche.ComponentID[components.Perception](w),
		flow:       arche.ComponentID[components.FlowFollower](w),
		htn:        arche.ComponentID[components.HTNPlanner](w),
		goap:       arche.ComponentID[components.GOAPPlanner](w),
		squad:      arche.ComponentID[components.SquadMember](w),
	}
}

// capture fills the back snapshot from the world and publishes it.
func (v *Viewer) capture(w *arche.World, now time.Time) {
	s := v.back
	s.Frame = v.frames
	if v.clock != nil {
		s.Frame = v.clock.Frame
	}
	s.Time = finite(v.frameTime()) // a NaN or infinite clock time is shown as 0: JSON cannot hold it
	s.Paused, s.Speed, s.Ended, s.LogSeconds = v.paused, v.speed, false, v.LogSeconds
	s.FPS = 0
	if dt := now.Sub(v.fpsWall).Seconds(); !v.fpsWall.IsZero() && dt > 0 && !v.paused {
		s.FPS = float64(v.frames-v.fpsFrame) / dt
	}
	v.fpsWall, v.fpsFrame = now, v.frames
	v.captureAgents(w, s)
	v.captureTimes(s)
	if v.frames-v.lastDiag >= int64(v.DiagnoseEvery) || s.Diagnostics == nil {
		v.lastDiag = v.frames
		r := v.diag.Check(w)
		s.Diagnostics = s.Diagnostics[:0]
		for c := range systems.NumCauses {
			s.Diagnostics = append(s.Diagnostics, CauseN{Cause: c.String(), Count: r.Counts[c], Example: r.Examples[c].ID()})
		}
		s.DiagFrame = s.Frame
	} else {
		s.Diagnostics = append(s.Diagnostics[:0], v.front.Diagnostics...) // the front is ours to read: only we swap it
		s.DiagFrame = v.front.DiagFrame
	}
	v.captureMap()
	s.MapVersion = v.mapVersion
	s.Selected, s.SelectError = v.captureSelected(w), v.selErr
	s.FlowKey = v.captureFlow(s.Selected)
	v.publish()
}

func (v *Viewer) captureAgents(w *arche.World, s *Snapshot) {
	buf := s.Agents[:0]
	n := 0
	ids := &v.ids
	q := w.Query(v.filter)
	for q.Next() {
		pos := (*components.Position)(q.Get(ids.pos))
		var rec [AgentSize]byte
		binary.LittleEndian.PutUint32(rec[0:], q.Entity().ID())
		binary.LittleEndian.PutUint32(rec[4:], math.Float32bits(float32(pos.X)))
		binary.LittleEndian.PutUint32(rec[8:], math.Float32bits(float32(pos.Y)))
		rec[12] = 255
		if q.Has(ids.faction) {
			rec[12] = (*components.Faction)(q.Get(ids.faction)).Team
		}
		var (
			in  *components.Intent
			vel *components.Velocity
			hp  *components.Health
			ff  *components.FlowFollower
			th  *components.Think
		)
		if q.Has(ids.intent) {
			in = (*components.Intent)(q.Get(ids.intent))
		}
		if q.Has(ids.vel) {
			vel = (*components.Velocity)(q.Get(ids.vel))
		}
		if q.Has(ids.health) {
			hp = (*components.Health)(q.Get(ids.health))
		}
		if q.Has(ids.flow) {
			ff = (*components.FlowFollower)(q.Get(ids.flow))
		}
		if q.Has(ids.think) {
			th = (*components.Think)(q.Get(ids.think))
		}
		rec[13] = byte(stateOf(in, vel, hp, ff, th))
		buf = append(buf, rec[:]...)
		n++
	}
	s.Agents, s.Count = buf, n
}

// captureTimes turns the timer's totals into ms per frame since the last
// snapshot; the viewer's own entry is its work alone.
func (v *Viewer) captureTimes(s *Snapshot) {
	s.Systems = s.Systems[:0]
	if v.Times == nil {
		return
	}
	v.times = v.Times.AppendTimes(v.times[:0])
	frames := v.frames - v.prevFrame
	if len(v.prevTimes) != len(v.times) {
		v.prevTimes = make([]time.Duration, len(v.times))
		for i, t := range v.times {
			v.prevTimes[i] = t.Total
		}
		frames = 0
	}
	for i, t := range v.times {
		d := t.Total - v.prevTimes[i]
		if t.Name == v.Name() {
			d = v.work - v.prevWork
		}
		ms := 0.0
		if frames > 0 {
			ms = float64(d.Nanoseconds()) / 1e6 / float64(frames)
		}
		s.Systems = append(s.Systems, SystemMs{Name: t.Name, Ms: ms})
		v.prevTimes[i] = t.Total
	}
	v.prevWork, v.prevFrame = v.work, v.frames
}

// captureMap copies the grid's cost classes when the grid changed.
func (v *Viewer) captureMap() {
	if v.grid == nil || v.grid.Version() == v.mapVersion {
		return
	}
	g := v.grid
	m := &mapData{Width: g.Width(), Height: g.Height(), Version: g.Version(), Cells: make([]byte, len(g.Costs()))}
	for i, c := range g.Costs() {
		switch {
		case c == grid.Blocked:
			m.Cells[i] = 0
		case c <= 1:
			m.Cells[i] = 1
		case c <= 2:
			m.Cells[i] = 2
		case c <= 4:
			m.Cells[i] = 3
		case c <= 8:
			m.Cells[i] = 4
		default:
			m.Cells[i] = 5
		}
	}
	v.mu.Lock()
	v.mapData = m
	v.mu.Unlock()
	v.mapVersion = g.Version()
}

// captureFlow builds, for the selected agent's flow goal, the field's
// directions on the viewer's own flowfield.Field (never the FlowField
// system's cache: asking it would change what it keeps) when the goal or the
// grid changed, and returns its key.
func (v *Viewer) captureFlow(a *Agent) string {
	if a == nil || a.Flow == nil || v.grid == nil {
		v.flowKey = flowKey{}
		return ""
	}
	g := v.grid
	goal := g.CellAt(r2.Vec{X: a.Flow.Goal.X, Y: a.Flow.Goal.Y})
	k := flowKey{X: goal.X, Y: goal.Y, Version: g.Version(), Has: true}
	key := fmt.Sprintf("%d,%d@%d", k.X, k.Y, k.Version)
	if k == v.flowKey {
		return key
	}
	v.flowKey = k
	f := &flowData{Key: key, Width: g.Width(), Height: g.Height(), Goal: a.Flow.Goal, Dirs: make([]byte, g.Width()*g.Height())}
	if g.Passable(goal) {
		field := flowfield.New(g)
		field.Build(goal)
		for y := range g.Height() {
			for x := range g.Width() {
				c := grid.Cell{X: int32(x), Y: int32(y)}
				f.Dirs[y*g.Width()+x] = direction(field, c)
			}
		}
	} else {
		for i := range f.Dirs {
			f.Dirs[i] = 255
		}
	}
	v.mu.Lock()
	v.flow = f
	v.mu.Unlock()
	return key
}

// direction encodes field's next cell from c (see flowData).
func direction(f *flowfield.Field, c grid.Cell) byte {
	n, ok := f.Next(c)
	switch {
	case !ok:
		return 255
	case n == c:
		return 8
	}
	dx, dy := n.X-c.X, n.Y-c.Y
	// screen y grows down: north is dy = -1
	switch {
	case dx == 1 && dy == 0:
		return 0
	case dx == 1 && dy == -1:
		return 1
	case dx == 0 && dy == -1:
		return 2
	case dx == -1 && dy == -1:
		return 3
	case dx == -1 && dy == 0:
		return 4
	case dx == -1 && dy == 1:
		return 5
	case dx == 0 && dy == 1:
		return 6
	case dx == 1 && dy == 1:
		return 7
	}
	return 255
}
