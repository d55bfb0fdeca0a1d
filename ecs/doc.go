// Package ecs is archai's glue to the Arche entity-component system
// (github.com/mlange-42/arche): a simulation [Clock] resource advanced by a
// [ClockSystem], [Commands] that defer structural changes until a system's
// query loop has closed, and a small [Scheduler] for users who do not use
// arche-model.
//
// # Import aliases
//
// Arche's own package is also called ecs. Everywhere in archai, Arche's package
// is imported under the alias arche:
//
//	import arche "github.com/mlange-42/arche/ecs"
//
// and this package keeps its name, ecs. Code then reads arche.World,
// arche.Entity and ecs.Clock.
//
// # Outline
//
//   - [Clock]: simulation time in seconds, the step dt and the frame number, a world resource.
//   - [ClockSystem]: advances the Clock once per frame; add it first.
//   - [Commands]: a buffer of structural changes (remove an entity, run a function
//     on the world) applied by [Commands.Apply] after a query loop.
//   - [System]: the method set of arche-model's model.System, which every archai
//     system implements, so systems plug into model.New() unchanged.
//   - [Scheduler]: runs systems in order, frame by frame, and times each one; a
//     system added after its Initialize is initialized at once ([Scheduler.Add]).
//   - [Frame] and [Ran]: a world resource telling whether some systems have run this
//     frame and others not ([Frame.Between]), from the schedulers' Updates under way
//     and from the Clock frame each system that keeps a Ran last ran (every archai
//     system does), under any scheduler; save.Save refuses to save there.
//   - [Timings]: times systems that something else runs (arche-model's Model):
//     [Timings.Time] wraps each where it is added, and reports as a Scheduler does.
//   - [SetupError]: a fault of setup (a missing resource, an unusable setting, an
//     order that cannot work) that a system's Initialize panics with;
//     [Scheduler.InitializeChecked] and, for arche-model, [CheckSetup] return it.
//   - [Workers] and [Job]: split a system's per-agent work into contiguous
//     chunks, run by the calling goroutine and a crew of helper goroutines
//     shared by every pool (bounded spinning, then blocking); [Resource]
//     finds a resource without panicking when it is missing.
package ecs
