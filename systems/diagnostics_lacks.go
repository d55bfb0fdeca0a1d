package systems

import (
	"math"
	"math/bits"
	"strings"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// lackSet is a set of components an example entity of a Report lacks, one bit
// each, named by lackNames. Diagnose records it with the first entity of a
// cause that is about missing components, so that a printed report names them
// ("steer_incomplete 1 (e.g. entity 1, lacks Desired, Steering: spawn it with
// the systems.Mover bundle, ...)").
type lackSet uint16

const (
	lackPosition lackSet = 1 << iota
	lackVelocity
	lackKinematics
	lackIntent
	lackDesired
	lackSteering
	lackThink
	lackFaction

	numLacks = 8 // the components above
)

// lackNames are the components' type names, by bit index.
var lackNames = [numLacks]string{"Position", "Velocity", "Kinematics", "Intent", "Desired", "Steering", "Think", "Faction"}

// steerIncompleteFix follows the components a CauseSteerIncomplete example lacks
// (other than a Position alone): how to give them.
const steerIncompleteFix = ": spawn it with the systems.Mover bundle, or tag it components.OwnMotion if your program moves it"

// lackIf returns l if absent, else 0.
func lackIf(absent bool, l lackSet) lackSet {
	if absent {
		return l
	}
	return 0
}

// appendLacks appends to b ", lacks A, B" for the components of l, nothing if
// l is empty.
func appendLacks(b *strings.Builder, l lackSet) {
	sep := ", lacks "
	for i := range numLacks {
		if l&(1<<i) != 0 {
			b.WriteString(sep)
			b.WriteString(lackNames[i])
			sep = ", "
		}
	}
}

// Lacks returns the type names of the components that the example entity of
// cause c (Examples[c]) lacks, for the causes about missing components:
// CauseSteerIncomplete (of Position, Velocity, Kinematics, Intent, Desired
// and Steering; a Path or FlowFollower without a Position names Position
// alone), CauseDecisionIncomplete (Position, Intent), CausePerceptionIncomplete
// (Position, Think, Faction) and CauseORCAInvalid (Position, Velocity,
// Kinematics, Steering; none when the example's ORCA values are what is
// wrong). Nil for other causes, or when c has no example. String prints them
// after the example ("e.g. entity 1, lacks Desired, Steering", and for
// steer_incomplete how to give them). It allocates;
// Diagnose only records a small set per cause.
func (r *Report) Lacks(c Cause) []string {
	if c >= NumCauses || r.Counts[c] == 0 {
		return nil
	}
	var names []string
	for i := range numLacks {
		if r.lacking[c]&(1<<i) != 0 {
			names = append(names, lackNames[i])
		}
	}
	return names
}

// addLacking is add for a cause about missing components: l, what e lacks, is
// kept when e becomes the cause's example.
func (r *Report) addLacking(c Cause, e arche.Entity, l lackSet) {
	if r.Counts[c] == 0 {
		r.lacking[c] = l
	}
	r.add(c, e)
}

// steerLacks returns what an entity, counted as CauseSteerIncomplete, lacks of
// the components PathFollow, Steer and Movement require together. An entity
// counted only for a Path or a FlowFollower without a Position (served by the
// path queue or the flow field alone) lacks the Position.
func steerLacks(pos *components.Position, vel *components.Velocity, kin *components.Kinematics, in *components.Intent,
	des *components.Desired, st *components.Steering, movement bool) lackSet {
	if !movement {
		return lackIf(pos == nil, lackPosition)
	}
	return lackIf(pos == nil, lackPosition) | lackIf(vel == nil, lackVelocity) | lackIf(kin == nil, lackKinematics) |
		lackIf(in == nil, lackIntent) | lackIf(des == nil, lackDesired) | lackIf(st == nil, lackSteering)
}

// combatChecks counts the agents with a Weapon asked to strike (a non-zero
// Intent.Attack) while the world has no Combat system (CauseNoCombatSystem).
func (d *diagnoser) combatChecks(w *arche.World, r *Report) {
	if !d.lacks(sysCombat) {
		d.untimedCooldowns(w, r)
		return
	}
	q := d.weapons.Query(w)
	for q.Next() {
		if _, in := q.Get(); !in.Attack.IsZero() {
			r.addNote(CauseNoCombatSystem, q.Entity(), needsNote("a Weapon's Intent.Attack needs systems.Combat, after the decision systems"))
		}
	}
}

// weaponChecks counts the Weapons (of agents with an Intent, those Combat reads) whose
// values are unusable (CauseWeaponInvalid) or whose Cooldown is over MaxWeaponCooldown
// (CauseWeaponCooldownLong), whether or not a Combat system runs.
func (d *diagnoser) weaponChecks(w *arche.World, r *Report) {
	q := d.weapons.Query(w)
	for q.Next() {
		wp, _ := q.Get()
		switch {
		case !(wp.Damage >= 0) || math.IsInf(wp.Damage, 1):
			r.addNote(CauseWeaponInvalid, q.Entity(), exampleNote{kind: noteWeapon, what: "Damage", pos: r2.Vec{X: wp.Damage}})
		case !(wp.Range >= 0) || math.IsInf(wp.Range, 1):
			r.addNote(CauseWeaponInvalid, q.Entity(), exampleNote{kind: noteWeapon, what: "Range", pos: r2.Vec{X: wp.Range}})
		case !(wp.Cooldown >= 0) || math.IsInf(wp.Cooldown, 1):
			r.addNote(CauseWeaponInvalid, q.Entity(), exampleNote{kind: noteWeapon, what: "Cooldown", pos: r2.Vec{X: wp.Cooldown}})
		case wp.Cooldown > MaxWeaponCooldown:
			r.addNote(CauseWeaponCooldownLong, q.Entity(), exampleNote{kind: noteCooldown, pos: r2.Vec{X: wp.Cooldown}})
		}
	}
}

// untimedCooldowns counts the weapons with a Cooldown while a Combat system is
// live and the world has no Clock (Report.CooldownsUntimed).
func (d *diagnoser) untimedCooldowns(w *arche.World, r *Report) {
	in := ecs.Resource[installed](w)
	if in == nil || in.live[bits.TrailingZeros16(uint16(sysCombat))] == 0 || ecs.Resource[ecs.Clock](w) != nil {
		return
	}
	q := d.weapons.Query(w)
	for q.Next() {
		if wp, _ := q.Get(); wp.Cooldown > 0 {
			r.CooldownsUntimed++
		}
	}
}

// lodChecks counts the agents with a LOD and a Think while the world has a focus
// point (an entity with a Focus) and no LOD system (CauseNoLODSystem). Without a
// focus point a LOD component alone is no sign that a level of detail was meant
// (the benchmark's agents carry one whether -lod is on or not).
func (d *diagnoser) lodChecks(w *arche.World, r *Report) {
	if !d.lacks(sysLOD) {
		return
	}
	fq := d.focus.Query(w)
	focus := fq.Count() > 0
	fq.Close()
	if !focus {
		return
	}
	q := d.lods.Query(w)
	for q.Next() {
		r.addNote(CauseNoLODSystem, q.Entity(), needsNote("a LOD with a Focus in the world needs systems.LOD, before the decision systems"))
	}
}

// livePath reports whether path, an agent's Path, is one the path queue or
// PathFollow still acts on, so that a goal it cannot reach matters: wanted,
// pending or ready, or unreachable for the cell the agent's intent still aims
// at (a move's goal, or a pursued target's or point's cell). An unreachable
// path for a goal the agent has given up (a door closed on its old goal, and
// it went elsewhere) is inert: PathFollow uses a held path only for the
// agent's current goal cell.
func (d *diagnoser) livePath(w *arche.World, g *grid.Grid, path *components.Path, in *components.Intent) bool {
	switch {
	case path.Want || path.State == components.PathPending || path.State == components.PathReady:
		return true
	case path.State != components.PathUnreachable || in == nil:
		return false
	}
	switch in.Mode {
	case components.IntentGo:
		return in.Move && finiteVec(in.Goal) && g.CellAt(in.Goal) == path.Goal
	case components.IntentPursue:
		if in.Target.IsZero() {
			return finiteVec(in.Point) && g.CellAt(in.Point) == path.Goal
		}
		if !ecs.Alive(w, in.Target) || !w.Has(in.Target, d.posID) {
			return false
		}
		p := (*components.Position)(w.Get(in.Target, d.posID))
		return finiteVec(p.Vec) && g.CellAt(p.Vec) == path.Goal
	}
	return false
}

// askedDirectly reports whether path is answered PathUnreachable for a goal off the
// grid or blocked that the program asked for itself (Path.Want, see CausePathGoal):
// the agent has no Intent, or one to go that does not move and whose Goal is not in
// path's Goal cell (an agent stopped at its own unreachable goal: not asked directly).
func askedDirectly(g *grid.Grid, path *components.Path, in *components.Intent) bool {
	if path.State != components.PathUnreachable || path.Want || g.Passable(path.Goal) {
		return false
	}
	if in == nil {
		return true
	}
	return in.Mode == components.IntentGo && !in.Move && !(finiteVec(in.Goal) && g.CellAt(in.Goal) == path.Goal)
}

// moveGoalCell returns the cell of the point intent in moves to (a move's
// Goal, a pursuit's Point), and whether it has one.
func moveGoalCell(g *grid.Grid, in *components.Intent) (grid.Cell, bool) {
	switch {
	case in.Mode == components.IntentGo && in.Move && finiteVec(in.Goal):
		return g.CellAt(in.Goal), true
	case in.Mode == components.IntentPursue && in.Target.IsZero() && finiteVec(in.Point):
		return g.CellAt(in.Point), true
	}
	return grid.Cell{}, false
}
