// Package orca is ORCA local avoidance: Optimal Reciprocal Collision Avoidance
// after van den Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision
// Avoidance", Robotics Research (ISRR 2009), Springer Tracts in Advanced
// Robotics 70, 2011, with the parameters of their RVO2 library: a time
// horizon for other agents and one for static obstacles, a neighbour count
// and distance, the agent's radius, maximum speed and preferred velocity.
//
// Each agent, independently and from the same snapshot of everyone's position
// and velocity, chooses the velocity nearest its preferred one that keeps it
// from colliding with its neighbours within TimeHorizon seconds and with
// static obstacles within ObstacleHorizon seconds. Each neighbour and each
// obstacle rules out a half-plane of velocities (a [Line]); the new velocity
// is the point of the intersection of those half-planes and the disc of
// speeds ≤ MaxSpeed (and, with [Agent.MaxDelta], the disc of velocities
// reachable in one step) nearest the preferred velocity: a 2-D linear program
// solved incrementally (de Berg et al., "Computational Geometry", ch. 4.4; in
// the given order, not randomized, so the result is deterministic). When the
// half-planes leave no velocity, the agent takes the velocity that violates
// the agents' half-planes least (a 3-D linear program in velocity and
// violation distance, solved as a sequence of 2-D ones) while the obstacles'
// half-planes stay hard.
//
// Symmetry: pure ORCA deadlocks on symmetric scenes (a ring of agents
// swapping to antipodal points stops round the empty centre). [Agent.Bias]
// adds a right-hand rule: while a neighbour is near, the agent aims at its
// desired velocity turned a little clockwise, and crowds flow round each
// other.
//
// Reciprocity: each agent of a pair takes on half the avoidance
// ([Neighbour.Share] 0.5), trusting the other to do its half; a neighbour that
// does not run ORCA should be given Share 1.
//
// Units: positions and radii in cells, velocities in cells per second, time
// horizons and the time step in seconds of simulation time.
//
// Obstacles are line segments ([Segment]), one-sided like RVO2's polygon
// edges: [Solver.GridSegments] makes them from the boundary edges of a grid's
// blocked cells near an agent, asking a callback cell by cell, and
// [Solver.GridSegmentsBits] the same from a bitmap read 64 cells at a time.
// Each segment is treated on its own (its ends
// count as convex corners): at a concave corner of a wall this is slightly
// more cautious than RVO2's linked polygons, never less safe.
//
// A [Solver] holds the scratch buffers; once they have grown, computing a
// velocity allocates nothing. Use one Solver per goroutine.
package orca
