// Package utility implements utility AI: an agent scores every option it has and picks
// by score. Scores come from considerations, each a fact about the agent shaped by a
// response curve; an action combines its considerations; a reasoner selects among the
// actions. The package knows nothing about the ECS: agents are passed as any, like
// bt.Context.Agent.
//
// # Design
//
//   - A [Reasoner] is built once with [New] from [Action] values, validated and shared
//     by every agent that uses it. Each agent keeps a small [State] (its choice and
//     every score of its last decision) in a component. [Reasoner.Decide] allocates
//     nothing.
//   - A [Consideration] reads a raw fact with its Input function, normalises it with a
//     [Range] (inverted ranges allowed) and shapes it with a [Curve]: a plain value of
//     a [CurveKind] and the four parameters slope M, exponent K, vertical shift B and
//     horizontal shift C. Curves never panic and never leave [0, 1]: NaN and ±Inf
//     inputs score 0.
//   - An [Action] scores Weight × its combined considerations: [Compensated] (product
//     with Mark's compensation factor, the default), [Product] or [WeightedSum]. A zero
//     score vetoes a product at once; the remaining considerations are not evaluated.
//   - A [Policy] selects: [Argmax], [Softmax] with a temperature, or [TopN] weighted
//     random, each with optional hysteresis (a bonus factor for the current choice so
//     near ties do not flip-flop). Random policies draw from a per-agent [Source], such
//     as the agent's seeded *steer.Rand, so a run replays from its seeds.
//   - Every option's score is in [State.Scores] after each decision, and every
//     consideration's score in [State.Considerations] ([Reasoner.ConsiderationScores]).
//   - Designers tune reasoners as data: a [Registry] names the inputs and acts a
//     reasoner file may use and the blackboard schema whose number keys it may read;
//     [Registry.LoadJSON] builds the reasoner [New] would from the same values, under
//     New's rules, and refuses a file with unknown or duplicate keys or names, naming
//     its line, column and JSON path.
//   - Nothing iterates a Go map: actions and considerations are slices, evaluated in
//     declaration order.
//   - Scores are the same bits on every build and CPU: curves and Softmax compute e^x,
//     log, powers and sines with functions of their own (the library's differ in the
//     last bit between an amd64 with FMA, one without, 386 and arm64), so a run replays
//     on another machine.
//
// # Types
//
//   - [Curve], [CurveKind] and the constructors [Linear], [Quadratic],
//     [InverseQuadratic], [Polynomial], [Exponential], [Logistic], [Logit], [Normal],
//     [Sine], [Smoothstep]; [Range] and [Unit] normalise raw facts.
//   - [Consideration], [Fact] (a typed Input adapter), [KeyInput] (an Input reading a
//     blackboard key of a [BlackboardAgent]), [Action], [Combine], [Compensate].
//   - [Policy], [PolicyKind], [SoftmaxPolicy], [TopNPolicy], [Policy.WithHysteresis].
//   - [Reasoner]: [New], [Reasoner.Decide], [Reasoner.Score], [Reasoner.Act],
//     [Reasoner.NewState]; [State]; [Source]; [None].
//   - [Registry]: [NewRegistry], [Registry.RegisterInput], [Registry.RegisterAct],
//     [Registry.LoadJSON].
//
// # Sources
//
//   - D. Mark, Behavioral Mathematics for Game AI, Course Technology, 2009 (utility,
//     response curves, weighted random selection).
//   - D. Mark and K. Dill, "Improving AI Decision Modeling Through Utility Theory",
//     GDC AI Summit 2010; D. Mark, "Building a Better Centaur: AI at Massive Scale",
//     GDC 2015 (the Infinite Axis Utility System: considerations, the four-parameter
//     curves, weights, the compensation factor).
//   - D. Graham, "An Introduction to Utility Theory", Game AI Pro, ch. 9, 2013
//     (normalisation, response curves, selection).
//   - M. Lewis, "Choosing Effective Utility-Based Considerations", Game AI Pro 3,
//     ch. 13, 2017 (choosing and combining considerations, compensation).
package utility
