package systems

import (
	"strconv"
	"strings"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// allyChecks counts under CauseAttackingAlly every attacker whose request the
// world's Combat refused, in its latest Update, as aimed at its own team. An
// attacker removed since, or one whose strike on that target would no longer be
// refused (FriendlyFire set since, a Faction changed or taken away), is not
// counted. in is the world's installed resource (nil: no system initialized).
func allyChecks(w *arche.World, r *Report, in *installed) {
	if in == nil || in.combat == nil {
		return
	}
	c := in.combat
	for _, p := range c.alliesAttacked() {
		a, t := p[0], p[1]
		if c.FriendlyFire || !ecs.Alive(w, a) || !ecs.Alive(w, t) || !c.sameTeam(a, t) {
			continue
		}
		r.addNote(CauseAttackingAlly, a, exampleNote{kind: noteAlly, target: t,
			n: uint32(c.faction.Get(t).Team)})
	}
}

// appendAlly writes CauseAttackingAlly's note n (noteAlly: target, n its team).
func appendAlly(b *strings.Builder, n *exampleNote) {
	b.WriteString(", asked to strike entity ")
	b.WriteString(strconv.FormatUint(uint64(n.target.ID()), 10))
	b.WriteString(" of its own team (Faction.Team ")
	b.WriteString(strconv.FormatUint(uint64(n.n), 10))
	b.WriteString("), and Combat refused: test the target's Faction in the decision " +
		"(Agent.Get[components.Faction], or Perception's Target, which is always a foe), " +
		"or set Combat.FriendlyFire if strikes on allies are meant")
}
