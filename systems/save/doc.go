// Package save writes an archai world to a file and loads it back, so a run can be
// saved mid-fight and continued frame-exact: save games, checkpoints, and bug reports
// that replay (see the README's "Save, load and replay a bug report").
//
// A file is one JSON document: a format name and [Version]; the entity pool (IDs,
// generations, free list) as written by arche-serde (github.com/mlange-42/arche-serde
// v0.2.1, which works with Arche v0.15.3); every component of every alive entity, in
// the order Arche stores them, through a codec that keeps NaN and infinite floats (as
// "NaN", "+Inf", "-Inf") and writes node memory, blackboard stores and entity handles
// as data; the target of every Arche relation component (a target removed from the
// world before the save loads as the zero entity, Arche's "no target": a relation
// cannot point at a dead entity); the ecs.Clock; a fingerprint of the *grid.Grid (size and a hash of its
// costs, edits included, and of each row and column, which locate a difference), checked on load; a meta value of the caller's; and the state of the systems
// that persists across frames ([State]: systems.PathQueue, the think budgets'
// cursors, systems.FlowField's cache, a program's own).
//
// Stateful systems: [Save] must be given the state of every archai system the world
// runs whose state persists across frames (systems.Decision, Utility, FSM, HTN, GOAP,
// PathQueue, FlowField, Combat, Diagnostics; see systems.StatefulSystems) and refuses otherwise, naming them
// ([ErrStateLeftOut]); [Loaded.Restore] checks the same of the loaded world. [Without]
// leaves one out on purpose. A program's own systems with state are not known to the
// world: give them to both.
//
// What is not in a save: what the program holds outside the world. A
// systems.Spawner's Seed (the seed of its next agent) is one: store it in the meta and
// set it on the spawner made after the load (see the Spawner example), or agents
// spawned after the load get other seeds than in the unbroken run. So are machines,
// trees and spawners built on the saved world: build them on a new one and use
// [LoadInto] (see [Load]).
//
// Outline:
//   - [Save] writes a world, given the [State] of each stateful system ([Without] one
//     left out on purpose), and returns the file's bytes; [SaveTo] writes the same
//     bytes into an io.Writer (a gzip.Writer, a file, a connection) as it walks the
//     world, without holding the file. [Registry] is what loading needs from the
//     program (trees, machines, reasoners and HTN and GOAP planner domains by ID
//     (their names), the blackboard schema, its own component types).
//   - [Load] and [LoadInto] build a new world from a file's bytes, and [LoadFrom] and
//     [LoadIntoFrom] from an io.Reader as they read it (the same worlds and the same
//     kinds of error), all or nothing, with errors that name
//     what and where and wrap [ErrFormat], [ErrVersion], [ErrType], [ErrEntities],
//     [ErrUnknownID], [ErrDuplicateID] (the registry's tree, machine, reasoner or
//     planner domain under a saved ID is not the saved one, or a machine's state runs
//     another tree, reasoner or domain than at the save: the file records a fingerprint
//     of each, and of what each state of a machine runs), [ErrMemory], [ErrDomain] or [ErrGridMismatch]; [Loaded.Restore]
//     then checks the grid the program added ([ErrGridMismatch]) and restores the
//     systems' state ([ErrState]); [ReadMeta] and [ReadClock] read the caller's meta and
//     the saved Clock alone, so a program can rebuild its grid's edits (doors, bridges:
//     the file holds only the grid's fingerprint) before [LoadInto] (the GridEdits
//     example).
//   - [Checker]: a component type with a Check() error method (a program's own, say
//     an index into its own route) is checked by Load, and by Save; give one to each
//     component whose values a system indexes or divides by, so a bad file is an error
//     at load, and a bad value an error at the save rather than a file that never loads.
//     Save runs all of Load's checks of values (archai's too: an Intent.Mode,
//     Desired.Mode or Path.State past its type's last constant, a Path.Next below 0),
//     with Load's words, so a file Save writes loads.
//
// Cost: a file is about 2.4 KB an agent in the guards benchmark. [Save] returns the
// file's bytes, written once into one buffer made at a size estimated beforehand; at
// 50,000 guards (a 120.8 MB file) it takes about 0.7 s of CPU and adds about 140 MB to
// the process's peak memory, and a load of that file about 9 s of CPU and 450 MB (the
// README's "Save, load and replay a bug report" has the figures and the commands that
// measure them). [SaveTo] holds a piece of 64 KB and the file's head (the entity pool,
// some 16 bytes an entity), not the file: in the peak heap at 50,000 agents of a test
// world (TestStreamsHoldAPieceOfTheFile, a 76.9 MB file) Save added 1.48 times the
// file and SaveTo 0.29 (the walk's garbage not yet collected), and [LoadFrom] from
// the file 1.62, where os.ReadFile and [Load] took 2.47 (Load's caller holds the
// file; LoadFrom holds an entity's text at a time).
//
// This package imports package systems; systems never imports it.
package save
