package goap

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shooter declares fact read for Shoot's precondition and fact sensed as sensed; when
// the two names differ, one of them is misspelt.
func shooter(read, sensed string) (*Domain, error) {
	b := NewBuilder("shooter")
	visible, dead := b.Fact(read), b.Fact("dead")
	b.Action(Action{Name: "Shoot", Cost: 1, Pre: []Cond{{visible, Eq, 1}}, Effects: []Effect{{Fact: dead, Value: 1}}})
	b.Goal(Goal{Name: "Kill", Want: []Cond{{dead, Eq, 1}}})
	b.Sensed(b.Fact(sensed))
	return b.Build()
}

// A fact name misspelt in Builder.Sensed (or in the precondition, the sensed one
// spelt right) built without a word: the sensed fact was a new fact no condition
// reads, so the declaration changed nothing, while the fact the precondition reads
// stayed undeclared and the agent was counted as a domain fault whose advice was to
// declare what it had declared. Build refuses it, naming both spellings.
func TestBuildNamesASensedFactMisspelt(t *testing.T) {
	_, err := shooter("enemy_visible", "enemy_visbile")
	require.ErrorIs(t, err, ErrSensedUnread)
	assert.EqualError(t, err, `goap: domain "shooter": sensed fact "enemy_visbile": no goal's or action's condition reads it, `+
		`so declaring it sensed changes nothing; "enemy_visible", which action "Shoot" reads, is not declared sensed: `+
		`a misspelling of it?`)

	_, err = shooter("enemy_visbile", "enemy_visible") // the precondition misspelt
	require.ErrorIs(t, err, ErrSensedUnread)
	assert.Contains(t, err.Error(), `sensed fact "enemy_visible": no goal's or action's condition reads it`)
	assert.Contains(t, err.Error(), `"enemy_visbile", which action "Shoot" reads, is not declared sensed`)

	for _, sensed := range []string{"Visible", "visibel", "visble", "visiblee", "visi-ble"} {
		_, err = shooter("visible", sensed)
		assert.True(t, errors.Is(err, ErrSensedUnread), "%s: %v", sensed, err)
	}
	// names not near: a fact sensed but read by no condition is allowed (it changes nothing)
	for _, sensed := range []string{"visible", "health", "vis", "invisible"} {
		_, err = shooter("visible", sensed)
		assert.NoError(t, err, sensed)
	}
}

// A goal's condition counts as a reader too, and a near fact already declared sensed
// is no misspelling.
func TestSensedSpellingLooksAtGoalsAndSensedFacts(t *testing.T) {
	b := NewBuilder("g")
	seen, done := b.Fact("seen"), b.Fact("done")
	b.Action(Action{Name: "Do", Cost: 1, Effects: []Effect{{Fact: done, Value: 1}, {Fact: seen, Value: 0}}})
	b.Goal(Goal{Name: "Finish", Want: []Cond{{done, Eq, 1}, {seen, Eq, 0}}})
	b.Sensed(b.Fact("sen"))
	_, err := b.Build()
	assert.EqualError(t, err, `goap: domain "g": sensed fact "sen": no goal's or action's condition reads it, so declaring `+
		`it sensed changes nothing; "seen", which goal "Finish" reads, is not declared sensed: a misspelling of it?`)
	b.Sensed(seen)
	_, err = b.Build()
	assert.NoError(t, err, "seen is sensed: sen is only unread")
}

// Distinct names that are one edit apart are not misspellings: numbered facts
// (enemy1, enemy2, door_1_open, door_2_open) and short names (hp, mp; x, y). Failed
// before: Build refused these domains.
func TestSensedSpellingLeavesNumberedAndShortNames(t *testing.T) {
	for _, p := range [][2]string{{"enemy2", "enemy1"}, {"door_1_open", "door_2_open"}, {"hp", "mp"}, {"x", "y"}, {"ammo", "ammo2"}} {
		_, err := shooter(p[0], p[1])
		assert.NoError(t, err, "%v", p)
	}
	// misspellings still found, numbered or short
	for _, p := range [][2]string{{"enemy1_seen", "enemy1_sene"}, {"hp", "HP"}, {"ammo", "amo"}} {
		_, err := shooter(p[0], p[1])
		assert.ErrorIs(t, err, ErrSensedUnread, "%v", p)
	}
}
