package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVillagersDay(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, Run(&a))
	require.NoError(t, Run(&b))
	assert.Equal(t, a.String(), b.String(), "deterministic")

	out := a.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, "06:00 Bram  None      → eat       hunger 0.59 fatigue 0.10 lonely 0.20 | eat 0.62 sleep 0.33 social 0.02 work 0.18", lines[1],
		"the hungriest villager eats first")
	assert.Contains(t, out, "06:24 Ada   sleep     → work")
	assert.Contains(t, out, "day done: 7200 decisions", "3 villagers × 10 Hz × 240 s")
	last := lines[len(lines)-3:]
	for _, l := range last {
		// every villager works some of the day and sleeps most of the night
		assert.Regexp(t, `^\w+ +eat +\d+\.\dh sleep +1\d\.\dh social +\d\.\dh work +\d\.\dh  goods \d\.\d$`, l)
	}
}
