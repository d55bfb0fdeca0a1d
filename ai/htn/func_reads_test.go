package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Func and Do list the facts they read, which decide whether a change of the state
// replans. A listed fact the domain does not have (a Fact of another domain's
// Builder, a number written by hand) was taken in silence: a Fact of 64 or more
// vanished from the mask (1<<f is 0), so a plan resting on Func(hungry, Fact(70))
// read nothing and was never planned again when hunger changed. Build refuses it
// with ErrFact now, as it does for Is, Set and Add.
func TestFuncAndDoReadUnknownFactsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		cond Condition
		eff  Effect
	}{
		{"Func of fact 5", Func(func(*State) bool { return true }, Fact(5)), Effect{}},
		{"Func of fact 70", Func(func(*State) bool { return true }, 0, Fact(70)), Effect{}},
		{"Do of fact 31", Condition{}, Do(func(*State) {}, Fact(31))},
		{"Do of fact 255", Condition{}, Do(func(*State) {}, Fact(255))},
	} {
		b := NewBuilder("reads")
		b.Fact("hunger")
		b.Fact("food")
		p := Primitive{}
		if tc.cond.fn != nil {
			p.If = []Condition{tc.cond}
		} else {
			p.Effects = []Effect{tc.eff}
		}
		eat := b.Primitive("Eat", p)
		root := b.Compound("Root")
		b.Method(root, Method{Name: "Eat", Tasks: []TaskID{eat}})
		b.Root(root)
		_, err := b.Build()
		assert.ErrorIs(t, err, ErrFact, tc.name)
	}

	// the facts of the domain, and none listed (every fact), build
	b := NewBuilder("reads")
	hunger := b.Fact("hunger")
	eat := b.Primitive("Eat", Primitive{If: []Condition{Func(func(*State) bool { return true }, hunger)},
		Effects: []Effect{Do(func(*State) {}), Do(func(*State) {}, b.Fact("food"))}})
	root := b.Compound("Root")
	b.Method(root, Method{Name: "Eat", If: []Condition{Func(func(*State) bool { return true })}, Tasks: []TaskID{eat}})
	b.Root(root)
	_, err := b.Build()
	require.NoError(t, err)
}
