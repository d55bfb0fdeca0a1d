package fsm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two sibling states of one name (two top-level "Idle"s, two "Idle"s inside "Combat")
// are refused by Build with an error naming the name, both states and the parent: Name,
// the debug viewer's path and a transition log printed "Idle" for both, and a designer
// reading "Idle → Idle" could not tell which one ran. They used to build.
func TestBuildRefusesSiblingsOfOneName(t *testing.T) {
	b := NewBuilder("guard")
	b.State("Idle", Hooks{})
	b.State("Idle", Hooks{})
	_, err := b.Build()
	require.ErrorIs(t, err, ErrDuplicateName)
	assert.EqualError(t, err, `fsm: machine "guard": states 1 and 2 both named "Idle" at the top level: `+
		`two states of one name under one parent (Name, the debug viewer and transition logs could not tell them apart)`)

	b = NewBuilder("guard")
	b.State("Patrol", Hooks{})
	combat := b.State("Combat", Hooks{})
	b.Substate(combat, "Aim", Hooks{})
	b.Substate(combat, "Idle", Hooks{})
	b.Substate(combat, "Idle", Hooks{})
	_, err = b.Build()
	require.ErrorIs(t, err, ErrDuplicateName)
	assert.ErrorContains(t, err, `states 4 and 5 both named "Idle" under "Combat"`)
}

// A name may repeat under different parents (UML: unique within a region): Name gives
// the short name, FullName the path that tells them apart, and Lookup finds each by its
// path; a single name finds top-level states only.
func TestNamesMayRepeatUnderDifferentParents(t *testing.T) {
	b := NewBuilder("guard")
	patrol := b.State("Patrol", Hooks{})
	pIdle := b.Substate(patrol, "Idle", Hooks{})
	combat := b.State("Combat", Hooks{})
	cIdle := b.Substate(combat, "Idle", Hooks{})
	top := b.State("Idle", Hooks{})
	m, err := b.Build()
	require.NoError(t, err)

	assert.Equal(t, "Idle", m.Name(pIdle))
	assert.Equal(t, "Idle", m.Name(cIdle))
	assert.Equal(t, "Patrol/Idle", m.FullName(pIdle))
	assert.Equal(t, "Combat/Idle", m.FullName(cIdle))
	assert.Equal(t, "Idle", m.FullName(top))
	assert.Equal(t, "None", m.FullName(None))
	assert.Equal(t, "StateID(99)", m.FullName(99))

	for _, c := range []struct {
		path []string
		want StateID
	}{{[]string{"Combat", "Idle"}, cIdle}, {[]string{"Patrol", "Idle"}, pIdle}, {[]string{"Idle"}, top},
		{[]string{"Combat"}, combat}, {[]string{"Combat", "Aim"}, None}, {[]string{"Idle", "Idle"}, None}, {nil, None}} {
		id, ok := m.Lookup(c.path...)
		assert.Equal(t, c.want, id, "%q", c.path)
		assert.Equal(t, c.want != None, ok, "%q", c.path)
	}
}
