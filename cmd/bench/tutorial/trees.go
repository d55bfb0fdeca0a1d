package tutorial

import (
	"github.com/archai-go/archai/cmd/bench/scenario"
	"gonum.org/v1/gonum/spatial/r2"
)

// guardTree builds one guard's own tree: the scenario's GuardTree, node for
// node.
func guardTree() Node {
	return &ReactiveSelector{running: -1, Children: []Node{
		&Sequence{Children: []Node{
			&Condition{"HealthLow", healthLow},
			&Action{"FleeHome", fleeHome},
			&Action{"Rest", rest},
		}},
		&Sequence{Children: []Node{
			&Condition{"TargetInRange", targetInRange},
			&Cooldown{Seconds: scenario.GuardCooldown, Child: &Action{"Strike", strike}},
		}},
		&ReactiveSequence{running: -1, Children: []Node{
			&Condition{"CanSeeTarget", canSee},
			&Action{"Chase", chase},
		}},
		&ReactiveSequence{running: -1, Children: []Node{
			&Condition{"RecentlySeen", recentlySeen},
			&Action{"Search", search},
		}},
		&Action{"Patrol", patrol},
	}}
}

// intruderTree builds one intruder's own tree: the scenario's IntruderTree.
func intruderTree() Node {
	return &ReactiveSelector{running: -1, Children: []Node{
		&Sequence{Children: []Node{
			&Condition{"TargetInRange", targetInRange},
			&Cooldown{Seconds: scenario.IntruderCool, Child: &Action{"Strike", strike}},
		}},
		&Sequence{Children: []Node{
			&Action{"PickWanderGoal", pickWanderGoal},
			&Action{"MoveTo", moveTo},
			&Wait{Seconds: scenario.WanderWait},
		}},
	}}
}

func healthLow(a *Agent) bool {
	return a.Health < scenario.FleeBelow*maxHealth || (a.Blackboard[kRecovering].(bool) && a.Health < maxHealth)
}

func fleeHome(a *Agent) Status {
	a.Blackboard[kRecovering] = true
	return a.moveTowards(a.Blackboard[kHome].(r2.Vec), 1)
}

func rest(a *Agent) Status {
	a.Blackboard[kMove] = false
	a.Health += float64(scenario.HealRate * a.dt())
	if a.Health < maxHealth {
		return Running
	}
	a.Health = maxHealth
	a.Blackboard[kRecovering] = false
	return Success
}

func targetInRange(a *Agent) bool {
	bb := a.Blackboard
	return bb[kVisible].(bool) && bb[kDistance].(float64) <= scenario.StrikeRange
}

func strike(a *Agent) Status {
	bb := a.Blackboard
	a.attack = bb[kTarget].(*Agent)
	bb[kMove], bb[kGoal], bb[kSpeedFactor] = true, bb[kTargetAt], 1.0
	return Success
}

func canSee(a *Agent) bool { return a.Blackboard[kVisible].(bool) }

func chase(a *Agent) Status {
	bb := a.Blackboard
	bb[kMove], bb[kGoal], bb[kSpeedFactor] = true, bb[kTargetAt], 1.0
	return Running
}

func recentlySeen(a *Agent) bool {
	bb := a.Blackboard
	return bb[kHasLastSeen].(bool) && a.world.Time-bb[kLastSeenTime].(float64) < scenario.SearchFor
}

func search(a *Agent) Status {
	st := a.moveTowards(a.Blackboard[kLastSeen].(r2.Vec), 1)
	if st != Running {
		a.Blackboard[kHasLastSeen] = false
	}
	return st
}

func patrol(a *Agent) Status {
	bb := a.Blackboard
	route := bb[kRoute].([]r2.Vec)
	wp := bb[kWaypoint].(int)
	if a.moveTowards(route[wp], scenario.PatrolSpeedFrac) != Running {
		bb[kWaypoint] = (wp + 1) % len(route)
	}
	return Running
}

func pickWanderGoal(a *Agent) Status {
	g := a.world.Grid
	for range 8 {
		dx := a.rand.Intn(2*scenario.WanderRadius+1) - scenario.WanderRadius
		dy := a.rand.Intn(2*scenario.WanderRadius+1) - scenario.WanderRadius
		c := g.CellAt(r2.Add(a.Pos, r2.Vec{X: float64(dx), Y: float64(dy)}))
		if g.Passable(c) {
			bb := a.Blackboard
			bb[kMove], bb[kGoal], bb[kSpeedFactor] = true, g.Center(c), 0.7
			return Success
		}
	}
	return Failure
}

func moveTo(a *Agent) Status {
	bb := a.Blackboard
	return a.moveTowards(bb[kGoal].(r2.Vec), bb[kSpeedFactor].(float64))
}

// moveTowards asks to move to goal and succeeds once within
// scenario.ReachedDist of it.
func (a *Agent) moveTowards(goal r2.Vec, speed float64) Status {
	bb := a.Blackboard
	bb[kMove], bb[kGoal], bb[kSpeedFactor] = true, goal, speed
	if r2.Norm(r2.Sub(goal, a.Pos)) < scenario.ReachedDist {
		bb[kMove] = false
		return Success
	}
	return Running
}
