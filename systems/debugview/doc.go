// Package debugview is a live debugger for any archai world, in the browser:
// a system ([Viewer]) that a game adds to its own Arche world, and the HTTP
// handler ([Viewer.Handler]) that serves the page and its data.
//
// The page shows the map (walls and costs), every agent as a dot coloured by
// team or state, with zoom and pan; for the agent clicked on, its behavior
// tree with each node's live status (Running, Success, Failure, Idle,
// Skipped, coloured as Groot2 does), its blackboard values; its utility
// reasoner's options, each with its score, the hysteresis bonus of the option
// held and every consideration's raw input, curve input x, curve output and
// compensated factor as the last decision used them ([Option]), and likewise
// the utility choices inside its behavior tree (hybrid.UtilitySelector) whose
// State it keeps in a component field ([SelectorUtility]); its state
// machine's active states, outermost first, with the tree run inside each
// state (hybrid.TreeState) and its live node statuses ([StateTree]); its HTN
// or GOAP plan (domain by name, the steps with the current one highlighted,
// an HTN plan's method chosen for each compound task and the methods passed over
// before it, the believed facts by name, the squad), path, perception (range, field of
// view, target) and the flow field of its goal as arrows; the milliseconds
// each system takes per frame as a live chart; the diagnostics counts of
// misconfigured agents ([systems.Diagnose]); and the selected agent's
// transition log of the last seconds (its tree's node statuses, its state
// machine's state changes and its state trees' node statuses, its utility
// choice's changes, its plan's changes: new plan, replan, step started, done or
// failed), which a slider scrubs back and forth (the tree, the active states
// with their trees, the utility choice and the plan then show the statuses at
// that moment). Buttons pause, step one frame, resume and set the speed.
//
//	v := debugview.New()
//	v.Times = sched                   // per-system times from an *ecs.Scheduler, or an *ecs.Timings under arche-model (optional)
//	sched.Add(v)                      // last, after Movement
//	go http.ListenAndServe("localhost:8080", v.Handler())
//	for { sched.Update(&world) }      // paced by the viewer: real time at Speed 1
//
// # Threads
//
// An Arche world is not safe across goroutines. The viewer's Update runs on
// the simulation goroutine: every [Viewer.Every] frames it copies what the
// page needs (agent positions, the selected agent's state, system times) into
// the back one of two buffers and swaps them; the HTTP side only ever reads
// the front copy. Commands from the page (pause, step, resume, select, speed)
// go through a channel that Update drains. Pausing is done by Update itself:
// while paused it blocks the simulation goroutine, between two frames, until
// the page resumes or steps.
//
// # Cost
//
// Added but disabled ([Viewer.SetEnabled](false)), Update is one atomic load:
// it allocates nothing and costs nanoseconds. Enabled, the snapshot of 10,000
// agents is measured by cmd/bench -debugview (see the README).
//
// # HTTP
//
// The handler serves the embedded page (HTML, JavaScript and CSS; no external
// scripts or fonts, so it works offline) and:
//
//	GET  /state    the latest snapshot as JSON
//	GET  /events   the snapshots as server-sent events ("snapshot" events of the same JSON;
//	               "heartbeat" events, {"stalled":…,"sinceFrame":…}, every second while no frame
//	               has come for StallAfter, and once when frames come again)
//	GET  /map      the map: width, height, version and one cost class per cell (base64)
//	GET  /flow     the flow field of the selected agent's goal: one direction per cell (base64)
//	POST /cmd      a command as form values: op=pause|resume|step|deselect,
//	               op=select&id=N (an entity ID), op=speed&value=X (0 ≤ X ≤ 1000, 0: unpaced)
//
// The JSON reads without the page: a tree node's status is a number in
// [Tree.Status] and a name in its [Node.StatusName] ("Running"): its status in the
// tree's latest tick, Idle for a node whose status is from a run that is over (its
// last status then in [Tree.LastStatus] and [Node.LastStatusName]); a log entry's from
// and to likewise (fromName, toName); a node's kind is the behavior-tree kind that
// runs it and its type the type the user wrote ("UtilitySelector", a Choose); each
// log (the tree's, the state machine's, the utility choices', the plan's) starts
// with a "selected" entry, its baseline at the selection, kept however old (a log holds
// its entries of the last [Viewer.LogSeconds] and, of the older ones, only that entry and
// the last before the window: the state in force at its start); a consideration whose input
// the viewer has not recorded yet says so (pending, with a note) rather than a bare
// null.
//
// A malformed command (unknown op or parameter, a bad number) gets 400 Bad
// Request and changes nothing; a command while the viewer is disabled, or
// after Finalize (the snapshot then says "ended": true, fps 0: the program's
// frames are over), gets 503; one that a page of another site posts (an Origin header naming
// another host) gets 403. Listen on localhost (the default of cmd/bench -serve): the page can
// pause the simulation and has no authentication.
package debugview
