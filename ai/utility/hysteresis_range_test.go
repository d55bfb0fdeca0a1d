package utility_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer wrote Policy{}.WithHysteresis(15) meaning 15%: New accepted it, and the
// current choice, its score counted ×16 at selection, held against every challenger,
// so every agent kept its first action for good (1.5 was accepted too). Hysteresis is a
// fraction in [0, MaxHysteresis]: New refuses any other value, naming the field, the
// value, the range and, for a value that reads as a percentage, the fraction meant;
// negative and NaN values, refused before with a dump of the Policy struct, get the
// same message.
func TestNewRefusesHysteresisOutOfRange(t *testing.T) {
	a, b := utility.Action{Name: "a"}, utility.Action{Name: "b", Weight: 0.5}
	const want = `utility: reasoner "v": bad policy: Hysteresis = %s: want a fraction of the current choice's ` +
		`score in [0, 1] (0.15: a challenger must beat it by 15%%)%s`
	for _, c := range []struct {
		h          float64
		text, hint string
	}{
		{15, "15", "; a percentage? write 0.15 for 15%"},
		{1.5, "1.5", "; a percentage? write 0.015 for 1.5%"},
		{100, "100", "; a percentage? write 1 for 100%"},
		{1e3, "1000", ""},
		{math.Nextafter(1, 2), "1.0000000000000002", "; a percentage? write 0.010000000000000002 for 1.0000000000000002%"},
		{-0.1, "-0.1", ""},
		{math.NaN(), "NaN", ""},
		{math.Inf(1), "+Inf", ""},
	} {
		for _, p := range []utility.Policy{utility.Policy{}.WithHysteresis(c.h), utility.SoftmaxPolicy(0.1).WithHysteresis(c.h),
			utility.TopNPolicy(1).WithHysteresis(c.h)} {
			r, err := utility.New("v", p, a, b)
			require.Nil(t, r)
			require.ErrorIs(t, err, utility.ErrBadPolicy)
			assert.EqualError(t, err, fmt.Sprintf(want, c.text, c.hint), "%v", p)
		}
	}
	for _, h := range []float64{0, 0.15, 0.5, utility.MaxHysteresis} {
		r, err := utility.New("v", utility.Policy{}.WithHysteresis(h), a, b)
		require.NoError(t, err, "%v", h)
		assert.Equal(t, h, r.Policy().Hysteresis)
	}
}

// The other fields of a Policy New refuses are named too, with their value and the
// values allowed, not in a dump of the struct.
func TestNewNamesThePolicyFieldRefused(t *testing.T) {
	a := utility.Action{Name: "a"}
	for _, c := range []struct {
		p    utility.Policy
		want string
	}{
		{utility.Policy{Kind: 7}, `utility: reasoner "v": bad policy: Kind = PolicyKind(7): want Argmax, Softmax or TopN`},
		{utility.SoftmaxPolicy(-1), `utility: reasoner "v": bad policy: Temperature = -1: want a finite temperature >= 0, in score units (0: Argmax)`},
		{utility.SoftmaxPolicy(math.Inf(1)), `utility: reasoner "v": bad policy: Temperature = +Inf: want a finite temperature`},
		{utility.TopNPolicy(-2), `utility: reasoner "v": bad policy: N = -2: want >= 0, the number of best actions drawn from (0: all)`},
	} {
		_, err := utility.New("v", c.p, a)
		require.ErrorIs(t, err, utility.ErrBadPolicy)
		assert.Contains(t, err.Error(), c.want)
		assert.NotContains(t, err.Error(), "{Kind:")
	}
}

// A reasoner file's hysteresis is refused alike, at its line and column, under the
// path policy.hysteresis.
func TestLoadJSONRefusesHysteresisOutOfRange(t *testing.T) {
	reg, _, _ := loadSetup(t)
	doc := "{\"name\": \"worker\",\n \"policy\": {\"kind\": \"Argmax\", \"hysteresis\": 15},\n \"actions\": [{\"name\": \"a\"}]}"
	r, err := reg.LoadJSON("worker.json", []byte(doc))
	require.Nil(t, r)
	require.True(t, errors.Is(err, utility.ErrSyntax) && errors.Is(err, utility.ErrBadPolicy), "%v", err)
	assert.EqualError(t, err, `utility: worker.json:2:31: policy.hysteresis: reasoner "worker": bad policy: Hysteresis = 15: `+
		`want a fraction of the current choice's score in [0, 1] (0.15: a challenger must beat it by 15%); a percentage? write 0.15 for 15%`)

	_, err = reg.LoadJSON("worker.json", []byte(`{"name": "worker", "policy": {"hysteresis": 0.15}, "actions": [{"name": "a"}]}`))
	require.NoError(t, err)
}
