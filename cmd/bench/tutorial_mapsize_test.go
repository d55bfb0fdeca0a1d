package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTutorialRunsOnTheMapOfMapSize: -tutorial's tutorial-style run uses the map
// archai's run used; with -map-size it ran on the map generated for -agents
// instead, silently, and its ratio compared runs on two maps (the two do the same
// work on the same map: package tutorial's TestSameWorkAsTheScenario).
func TestTutorialRunsOnTheMapOfMapSize(t *testing.T) {
	g, err := tutorialMap(crowdConfig{Agents: 300, Seed: 1, MapSize: 64})
	require.NoError(t, err)
	require.NotNil(t, g)
	assert.Equal(t, 64, g.Width())
	g, err = tutorialMap(crowdConfig{Agents: 300, Seed: 1})
	require.NoError(t, err)
	assert.Nil(t, g, "the map generated for the agents, built alike by both")

	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-tutorial", "-agents", "300", "-frames", "60", "-map-size", "64", "-json"}, &out, &errs), errs.String())
	reps := jsonLines(t, out.Bytes())
	require.Len(t, reps, 1)
	assert.Contains(t, reps[0], "tutorial")
	assert.Greater(t, reps[0]["ratio_tutorial"], 0.0)
}
