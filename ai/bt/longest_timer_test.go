package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// LongestTimer names the timer node (Wait, Sleep, Delay, Timeout, Cooldown) of the
// longest duration, for systems.Diagnose's tree_timer_too_long: a <Cooldown
// seconds="5000"> meant 5 s (milliseconds written for seconds) and waits 83 minutes.
func TestLongestTimer(t *testing.T) {
	tree, err := loadTrap(NewRegistry(nil), `<Sequence>
  <Wait seconds="2"/>
  <Cooldown name="shout" seconds="5000"><AlwaysSuccess/></Cooldown>
  <Timeout msec="1500"><Sleep msec="10"/></Timeout>
</Sequence>`)
	require.NoError(t, err)
	i, secs, ok := tree.LongestTimer()
	require.True(t, ok)
	assert.Equal(t, "shout", tree.NodeName(i))
	assert.Equal(t, 5000.0, secs)

	tree, err = loadTrap(NewRegistry(nil), `<Sequence><AlwaysSuccess/><Delay delay_msec="250"><AlwaysSuccess/></Delay></Sequence>`)
	require.NoError(t, err)
	i, secs, ok = tree.LongestTimer()
	require.True(t, ok)
	assert.Equal(t, "Delay", tree.NodeName(i))
	assert.Equal(t, 0.25, secs)

	tree, err = Compile("c", Sequence(AlwaysSuccess()))
	require.NoError(t, err)
	_, _, ok = tree.LongestTimer()
	assert.False(t, ok)
	_, _, ok = (*Tree)(nil).LongestTimer()
	assert.False(t, ok)
	assert.Zero(t, testing.AllocsPerRun(10, func() { tree.LongestTimer() }))
}
