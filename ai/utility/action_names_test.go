package utility_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/require"
)

// New refuses what LoadJSON refuses of a file's actions: an action without a name
// and one with an earlier one's (ErrActionName). It accepted both, so two "steal"
// options of a newcomer's thief could not be told apart by name (ActionName, the
// flip-flop note, the debug view, a save's fingerprint).
func TestNewRefusesActionNamesEmptyOrUsedTwice(t *testing.T) {
	for _, c := range []struct {
		name    string
		actions []utility.Action
		msg     string
	}{
		{"used twice", []utility.Action{{Name: "steal", Weight: 0.5}, {Name: "flee"}, {Name: "steal", Weight: 0.7}},
			`utility: reasoner "thief": action 2 ("steal"): action name empty or used twice: action 0 has the same name`},
		{"empty", []utility.Action{{Weight: 0.5}, {Name: "flee"}},
			`utility: reasoner "thief": action 0 (""): action name empty or used twice: give each action a name`},
		{"blank", []utility.Action{{Name: "flee"}, {Name: "  "}},
			`utility: reasoner "thief": action 1 ("  "): action name empty or used twice`},
	} {
		r, err := utility.New("thief", utility.Policy{}, c.actions...)
		require.Nil(t, r, c.name)
		require.True(t, errors.Is(err, utility.ErrActionName), "%s: %v", c.name, err)
		require.Contains(t, err.Error(), c.msg, c.name)
	}
	r, err := utility.New("thief", utility.Policy{}, utility.Action{Name: "steal"}, utility.Action{Name: "Steal"})
	require.NoError(t, err, "names differing in case are two names")
	require.Equal(t, "Steal", r.ActionName(1))
}
