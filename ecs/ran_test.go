package ecs_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche-model/model"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// marker is a system of a program's own that keeps an ecs.Ran, as archai's do; lazy,
// it has nothing to do on odd frames (a throttled system), and still Marks.
type marker struct {
	name    string
	lazy    bool
	ran     ecs.Ran
	workers int
}

func (s *marker) Name() string              { return s.name }
func (s *marker) Initialize(w *arche.World) { s.ran.Join(w, s) }
func (s *marker) Finalize(w *arche.World)   { s.ran.Leave() }
func (s *marker) Update(w *arche.World) {
	s.ran.Mark(w)
	if s.lazy && ecs.ClockOf(w).Frame%2 == 1 {
		return
	}
	s.workers++
}

// probe records what Frame.Between says where it is scheduled, each frame.
type probe struct {
	seen []string
}

func (p *probe) Initialize(*arche.World) {}
func (p *probe) Finalize(*arche.World)   {}
func (p *probe) Update(w *arche.World) {
	ran, next, ok := ecs.Resource[ecs.Frame](w).Between()
	p.seen = append(p.seen, fmt.Sprintf("%v %s/%s", ok, ran, next))
}

// Under arche-model's Model (no ecs.Scheduler, so no Update under way is known),
// Frame.Between tells a system scheduled between two that keep a Ran from one before
// or after all of them, in every frame from the first, a throttled system counting as
// run in the frames it skips; it names the last that has run the frame and the first
// after it that has not.
func TestRanBetweenUnderArcheModel(t *testing.T) {
	first, afterClock, mid, last := &probe{}, &probe{}, &probe{}, &probe{}
	a, b := &marker{name: "a", lazy: true}, &marker{name: "b"}
	m := model.New()
	for _, s := range []model.System{first, ecs.NewClockSystem(1.0 / 60), afterClock, a, mid, b, last} {
		m.AddSystem(s)
	}
	m.Initialize()
	for range 3 {
		m.Update()
	}
	assert.Equal(t, []string{"false /", "false /", "false /"}, first.seen)
	assert.Equal(t, []string{"true clock/a", "true clock/a", "true clock/a"}, afterClock.seen)
	assert.Equal(t, []string{"true a/b", "true a/b", "true a/b"}, mid.seen, "a skips its work on frame 1, and has run it")
	assert.Equal(t, []string{"false /", "false /", "false /"}, last.seen)
	assert.Equal(t, 2, a.workers, "frames 0 and 2 worked, 1 skipped")
	ran, next, ok := ecs.Resource[ecs.Frame](&m.World).Between()
	assert.False(t, ok, "between two m.Update calls: %s/%s", ran, next)
}

// A system finalized leaves the Frame (it no longer runs and is not waited for); one
// joined again to the same world keeps one place; one joined between two frames of a
// running world counts as having run the last; one initialized and no longer updated
// is named as one that has not run this frame (Between's Important note).
func TestRanJoinLeave(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	clock := ecs.NewClockSystem(1.0 / 60)
	a, b := &marker{name: "a"}, &marker{name: "b"}
	s := ecs.NewScheduler(clock, a, b)
	s.Initialize(w)
	a.Initialize(w) // again, not finalized: one place still
	s.Run(w, 2)
	f := ecs.Resource[ecs.Frame](w)
	_, _, ok := f.Between()
	assert.False(t, ok)

	late := &marker{name: "late"}
	late.Initialize(w) // between frames 1 and 2: counts as having run frame 1
	_, _, ok = f.Between()
	assert.False(t, ok, "joined between frames")

	s.Run(w, 1) // late is not in the schedule: it has not run frame 2
	ran, next, ok := f.Between()
	assert.True(t, ok)
	assert.Equal(t, "b/late", ran+"/"+next)
	late.Finalize(w)
	_, _, ok = f.Between()
	assert.False(t, ok, "finalized, it is no longer waited for")

	// a Ran joined to another world leaves the first
	other := arche.NewWorld()
	b.Initialize(&other)
	clock.Update(w) // frame 3, without b: it is not waited for in w
	a.Update(w)
	_, _, ok = f.Between()
	assert.False(t, ok, "b left w for the other world")

	a.Finalize(w) // joined twice, it held one place, and left it
	clock.Update(w)
	ran, next, ok = f.Between()
	assert.False(t, ok, "a left w: %s/%s", ran, next)
}

// Mark allocates nothing: it runs in every archai system's Update.
func TestRanMarkAllocatesNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	clock := ecs.NewClockSystem(1.0 / 60)
	a := &marker{name: "a"}
	s := ecs.NewScheduler(clock, a)
	s.Initialize(w)
	s.Run(w, 1)
	assert.Zero(t, testing.AllocsPerRun(100, func() { a.ran.Mark(w) }))
}

// Without a Clock that moves on, the systems that Mark all read "before the first
// frame", and Between finds none of them between two others (Ran's documented limit).
func TestRanWithoutClock(t *testing.T) {
	a, p, b := &marker{name: "a"}, &probe{}, &marker{name: "b"}
	m := model.New()
	for _, s := range []model.System{a, p, b} {
		m.AddSystem(s)
	}
	m.Initialize()
	m.Update()
	require.Len(t, p.seen, 1)
	assert.Equal(t, "false /", p.seen[0])
}
