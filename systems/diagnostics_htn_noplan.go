package systems

import (
	"strconv"
	"strings"

	"github.com/archai-go/archai/components"
)

// HTNNoPlanSpan is how long, in seconds of simulation time, an HTN agent's root task must
// have found no decomposition on every think (htn.Run.NoPlan: from Run.NoPlanSince to
// its last think, Think.Last) before [Diagnose] counts the agent
// (CausePlannerDomainError, with htn.Domain.WhyNoPlan's explanation: each method of the
// root and the condition that stopped it). A shorter spell is taken for "nothing to do
// now": the fact a method waits for may come with the next think. An agent meant to
// idle for longer says so in its domain: a last method of the root without conditions
// (an Idle task that waits, or no subtasks: an empty plan, done at once) makes the root
// decompose, and the agent is not counted.
const HTNNoPlanSpan = 10.0

// htnIdles reports whether an HTN agent's root has found no decomposition on every
// think for HTNNoPlanSpan or longer (and it has no plan).
func htnIdles(b *components.HTNPlanner, th *components.Think) bool {
	r := &b.Run
	return !r.HasPlan() && r.NoPlan && th.Last-r.NoPlanSince >= HTNNoPlanSpan
}

// writeHTNIdleNote writes the note of an HTN agent idle from since to last (seconds,
// htn.Run.NoPlanSince and Think.Last), why being htn.Domain.WhyNoPlan's explanation.
func writeHTNIdleNote(b *strings.Builder, why string, since, last float64) {
	b.WriteString("it idles, its root task found no decomposition on every think from ")
	b.WriteString(strconv.FormatFloat(since, 'f', 1, 64))
	b.WriteString(" s to ")
	b.WriteString(strconv.FormatFloat(last, 'f', 1, 64))
	b.WriteString(" s (htn.Run.NoPlanSince, Think.Last): ")
	b.WriteString(why)
	b.WriteString("; if it has nothing to do then, give the root a last method without conditions (an Idle task, or no subtasks)")
}
