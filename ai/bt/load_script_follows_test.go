package bt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer's Script `laps := laps + 1; alarm := laps == 3` read laps before anything
// declared it, so it did not compile; it also declares alarm, so a ScriptCondition that
// reads alarm on an earlier line failed too, with "unknown entry "alarm"" and nothing to
// say it was the other script's fault. That error now says it follows from the other
// one, where; the cause itself is reported as before, and an entry nobody declares
// gets no such note.
func TestLoadScriptErrorThatFollowsFromAnotherSaysSo(t *testing.T) {
	load := func(body string) error {
		reg := NewRegistry(nil)
		id, err := reg.LoadXML("t.xml", []byte("<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"T\">\n<Sequence>\n"+body+"\n</Sequence>\n</BehaviorTree>\n</root>"))
		if err == nil {
			_, err = reg.Tree(id)
		}
		return err
	}
	err := load("<ScriptCondition code=\"alarm == true\"/>\n<Script code=\"laps := laps + 1; alarm := laps == 3\"/>")
	require.Error(t, err)
	var joined interface{ Unwrap() []error }
	require.True(t, errors.As(err, &joined), "%v", err)
	errs := joined.Unwrap()
	require.Len(t, errs, 2)
	assert.EqualError(t, errs[0], "bt: t.xml:4: ScriptCondition: script error: code: script col 1: unknown entry \"alarm\" in `alarm == true` "+
		"(this follows from the error at t.xml:5: the script there declares \"alarm\" and does not compile; fix that one first)")
	assert.EqualError(t, errs[1], "bt: t.xml:5: Script: script error: code: script col 9: unknown entry \"laps\" in `laps := laps + 1; alarm := laps == 3`")
	assert.ErrorIs(t, errs[0], ErrScript)

	// With laps declared first, both compile.
	require.NoError(t, load("<Script code=\"laps := 0\"/>\n<ScriptCondition code=\"alarm == true\"/>\n<Script code=\"laps := laps + 1; alarm := laps == 3\"/>"))

	// An entry nobody declares: no note.
	err = load("<ScriptCondition code=\"alarm == true\"/>\n<Script code=\"laps := 1 + nope\"/>")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "follows from")
}

func TestDeclaredNames(t *testing.T) {
	assert.Equal(t, []string{"laps", "alarm"}, declaredNames("laps := laps + 1; alarm := laps == 3 || laps == 9"))
	assert.Equal(t, []string{"@x", "y2"}, declaredNames("@x:=1; y2 := 'a := b'; z = 3; w == 1"))
	assert.Empty(t, declaredNames("1e5 := 2; 'q := 1'"))
}
