package systems

import (
	"strconv"

	"github.com/archai-go/archai/ai/htn"
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

// htnNoPlan returns why an HTN agent idles, its root having found no decomposition on
// every think for HTNNoPlanSpan or longer, or "" for an agent with a plan, one whose
// spell is shorter, or one whose State now lets the root decompose.
func htnNoPlan(d *htn.Domain, b *components.HTNPlanner, th *components.Think) string {
	r := &b.Run
	if r.HasPlan() || !r.NoPlan || !(th.Last-r.NoPlanSince >= HTNNoPlanSpan) {
		return ""
	}
	why := d.WhyNoPlan(&b.State)
	if why == "" {
		return ""
	}
	secs := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	return "it idles, its root task found no decomposition on every think from " + secs(r.NoPlanSince) + " s to " +
		secs(th.Last) + " s (htn.Run.NoPlanSince, Think.Last): " + why + "; if it has nothing to do then, " +
		"give the root a last method without conditions (an Idle task, or no subtasks)"
}
