package tutorial

// Status is what a node's Tick returns.
type Status int

// Statuses.
const (
	Success Status = iota
	Failure
	Running
)

// Node is a behavior-tree node as the tutorials write it: an object per
// node per agent, its running state in its own fields, children behind the
// interface.
type Node interface {
	Tick(a *Agent) Status
	Halt()
}

// ReactiveSelector ticks its children from the first on every tick; the
// first that does not fail wins, and a running child after it is halted.
type ReactiveSelector struct {
	Children []Node
	running  int // index of the child that returned Running, -1 if none
}

func (n *ReactiveSelector) Tick(a *Agent) Status {
	for i, c := range n.Children {
		st := c.Tick(a)
		if st == Failure {
			continue
		}
		if n.running > i {
			n.Children[n.running].Halt()
		}
		n.running = -1
		if st == Running {
			n.running = i
		}
		return st
	}
	n.running = -1
	return Failure
}

func (n *ReactiveSelector) Halt() {
	if n.running >= 0 {
		n.Children[n.running].Halt()
	}
	n.running = -1
}

// Sequence ticks its children in order and remembers the running one.
type Sequence struct {
	Children []Node
	current  int
}

func (n *Sequence) Tick(a *Agent) Status {
	for n.current < len(n.Children) {
		switch n.Children[n.current].Tick(a) {
		case Running:
			return Running
		case Failure:
			n.current = 0
			return Failure
		}
		n.current++
	}
	n.current = 0
	return Success
}

func (n *Sequence) Halt() {
	if n.current < len(n.Children) {
		n.Children[n.current].Halt()
	}
	n.current = 0
}

// ReactiveSequence ticks its children from the first on every tick: the
// earlier ones guard the later ones.
type ReactiveSequence struct {
	Children []Node
	running  int
}

func (n *ReactiveSequence) Tick(a *Agent) Status {
	for i, c := range n.Children {
		st := c.Tick(a)
		if st == Success {
			continue
		}
		if n.running > i {
			n.Children[n.running].Halt()
		}
		n.running = -1
		if st == Running {
			n.running = i
		}
		return st
	}
	n.running = -1
	return Success
}

func (n *ReactiveSequence) Halt() {
	if n.running >= 0 {
		n.Children[n.running].Halt()
	}
	n.running = -1
}

// Condition is a leaf that succeeds when its test holds.
type Condition struct {
	Name string
	Test func(a *Agent) bool
}

func (n *Condition) Tick(a *Agent) Status {
	if n.Test(a) {
		return Success
	}
	return Failure
}

func (n *Condition) Halt() {}

// Action is a leaf that runs a function.
type Action struct {
	Name string
	Run  func(a *Agent) Status
}

func (n *Action) Tick(a *Agent) Status { return n.Run(a) }
func (n *Action) Halt()                {}

// Cooldown lets its child run at most once per Seconds: while cooling down
// it fails without ticking the child.
type Cooldown struct {
	Seconds float64
	Child   Node
	readyAt float64
	running bool
}

func (n *Cooldown) Tick(a *Agent) Status {
	now := a.world.Time
	if !n.running && now < n.readyAt-1e-9 {
		return Failure
	}
	st := n.Child.Tick(a)
	n.running = st == Running
	if st != Running {
		n.readyAt = now + n.Seconds
	}
	return st
}

func (n *Cooldown) Halt() {
	if n.running {
		n.Child.Halt()
	}
	n.running = false
}

// Wait runs for Seconds, then succeeds.
type Wait struct {
	Seconds float64
	until   float64
	started bool
}

func (n *Wait) Tick(a *Agent) Status {
	now := a.world.Time
	if !n.started {
		n.started, n.until = true, now+n.Seconds
	}
	if now < n.until-1e-9 {
		return Running
	}
	n.started = false
	return Success
}

func (n *Wait) Halt() { n.started = false }
