package components

// ORCA opts an agent into ORCA local avoidance (the systems.ORCA system; van
// den Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision Avoidance",
// 2011, with the parameters of their RVO2 library): each frame the agent's
// steering force is replaced by the one that takes it to the velocity
// nearest the one it wanted that collides with no neighbour within
// TimeHorizon seconds and with no wall within ObstacleHorizon seconds. The
// agent's radius and maximum speed are its Kinematics'.
type ORCA struct {
	TimeHorizon     float64 // seconds; > 0
	ObstacleHorizon float64 // seconds; > 0
	MaxNeighbours   int     // the nearest agents avoided; ≥ 0 (0: walls only)
	NeighbourDist   float64 // cells, centre to centre: agents farther away are not avoided; ≥ 0

	// Bias turns the preferred velocity clockwise by Bias radians while a
	// neighbour is near (agents keep right of each other): it breaks the
	// symmetric deadlocks of pure ORCA (0). See orca.Agent.Bias.
	Bias float64
}
