package utility_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/require"
)

// loadAgent is an agent with plain fields, read by registered inputs, and a blackboard
// store, read by keys.
type loadAgent struct {
	hunger, fatigue, dist float64
	st                    *blackboard.Store
}

func (a *loadAgent) BlackboardStore() *blackboard.Store { return a.st }

// loadSetup is a registry whose files read hunger, fatigue and dist through inputs and
// threat (float32) and ammo (int16) through keys.
func loadSetup(t testing.TB) (*utility.Registry, blackboard.Key[float32], blackboard.Key[int16]) {
	s := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float32](s, "threat")
	ammo := blackboard.MustDeclare[int16](s, "ammo")
	blackboard.MustDeclare[string](s, "mood")
	r := utility.NewRegistry(s)
	for name, f := range map[string]func(*loadAgent) float64{
		"hunger":  func(a *loadAgent) float64 { return a.hunger },
		"fatigue": func(a *loadAgent) float64 { return a.fatigue },
		"dist":    func(a *loadAgent) float64 { return a.dist },
	} {
		require.NoError(t, r.RegisterInput(name, utility.Fact(f)))
	}
	return r, threat, ammo
}

// soldierJSON uses every curve kind, every combination, ranges (one inverted), weights,
// a veto and both kinds of input; %s is the policy.
const soldierJSON = `{
  "name": "soldier",
  "policy": %s,
  "actions": [
    {"name": "eat", "weight": 2, "considerations": [
      {"name": "hungry", "input": "hunger", "curve": {"kind": "Polynomial", "m": 1, "k": 2}},
      {"name": "food near", "input": "dist", "range": {"min": 20, "max": 0},
       "curve": {"kind": "Exponential", "m": 1, "k": -3}},
      {"name": "safe", "key": "threat", "curve": {"kind": "Logit", "m": 4, "k": 1, "b": 0.5}}
    ]},
    {"name": "sleep", "combine": "Product", "considerations": [
      {"name": "tired", "input": "fatigue", "curve": {"kind": "Logistic", "m": 10, "k": 1, "c": 0.6}},
      {"name": "calm", "key": "threat", "curve": {"kind": "Normal", "m": 1, "k": 0.3, "c": 0.1}}
    ]},
    {"name": "fight", "weight": 1.5, "combine": "WeightedSum", "considerations": [
      {"name": "threat", "key": "threat", "weight": 3, "curve": {"kind": "Smoothstep", "m": 1, "k": 0.5, "c": 0.2}},
      {"name": "ammo", "key": "ammo", "range": {"min": 0, "max": 30}, "veto": true,
       "curve": {"kind": "Sine", "m": 1, "k": 0.5}},
      {"name": "rested", "input": "fatigue", "curve": {"kind": "Linear", "m": -1, "b": 1}, "weight": 0.5},
      {"name": "raw", "input": "dist"}
    ]},
    {"name": "idle", "weight": 0.2, "act": "Idle"}
  ]
}`

// soldierGo is soldierJSON built in Go.
func soldierGo(t testing.TB, policy utility.Policy, threat blackboard.Key[float32], ammo blackboard.Key[int16]) *utility.Reasoner {
	in := func(f func(*loadAgent) float64) func(any) float64 { return utility.Fact(f) }
	hunger := in(func(a *loadAgent) float64 { return a.hunger })
	fatigue := in(func(a *loadAgent) float64 { return a.fatigue })
	dist := in(func(a *loadAgent) float64 { return a.dist })
	r, err := utility.New("soldier", policy,
		utility.Action{Name: "eat", Weight: 2, Considerations: []utility.Consideration{
			{Name: "hungry", Input: hunger, Curve: utility.Quadratic()},
			{Name: "food near", Input: dist, Range: utility.Range{Min: 20, Max: 0}, Curve: utility.Exponential(-3)},
			{Name: "safe", Input: utility.KeyInput(threat), Curve: utility.Curve{Kind: utility.CurveLogit, M: 4, K: 1, B: 0.5}},
		}},
		utility.Action{Name: "sleep", Combine: utility.Product, Considerations: []utility.Consideration{
			{Name: "tired", Input: fatigue, Curve: utility.Logistic(10, 0.6)},
			{Name: "calm", Input: utility.KeyInput(threat), Curve: utility.Normal(0.1, 0.3)},
		}},
		utility.Action{Name: "fight", Weight: 1.5, Combine: utility.WeightedSum, Considerations: []utility.Consideration{
			{Name: "threat", Input: utility.KeyInput(threat), Weight: 3, // Smoothstep(0.2, 0.7) has K = 0.49999999999999994
				Curve: utility.Curve{Kind: utility.CurveSmoothstep, M: 1, K: 0.5, C: 0.2}},
			{Name: "ammo", Input: utility.KeyInput(ammo), Range: utility.Range{Min: 0, Max: 30}, Veto: true, Curve: utility.Sine(0.5)},
			{Name: "rested", Input: fatigue, Curve: utility.Linear(-1, 1), Weight: 0.5},
			{Name: "raw", Input: dist},
		}},
		utility.Action{Name: "idle", Weight: 0.2},
	)
	require.NoError(t, err)
	return r
}

// lcg is a seeded random source in [0, 1).
type lcg uint64

func (g *lcg) Float64() float64 {
	*g = *g*6364136223846793005 + 1442695040888963407
	return float64(uint64(*g)>>11) / (1 << 53)
}

// A loaded reasoner scores and decides as the same reasoner built in Go: the same
// bits in every score of every consideration and action, the same choices, under each
// policy, over agents whose facts sweep their ranges (unset keys and a wrong agent
// included).
func TestLoadJSONDecidesAsNew(t *testing.T) {
	idled := 0
	for _, c := range []struct {
		json   string
		policy utility.Policy
	}{
		{`{}`, utility.Policy{}},
		{`{"kind": "Argmax", "hysteresis": 0.15}`, utility.Policy{}.WithHysteresis(0.15)},
		{`{"kind": "Softmax", "temperature": 0.2, "hysteresis": 0.1}`, utility.SoftmaxPolicy(0.2).WithHysteresis(0.1)},
		{`{"kind": "TopN", "n": 2}`, utility.TopNPolicy(2)},
	} {
		reg, threat, ammo := loadSetup(t)
		require.NoError(t, reg.RegisterAct("Idle", func(any) { idled++ }))
		loaded, err := reg.LoadJSON("soldier.json", fmt.Appendf(nil, soldierJSON, c.json))
		require.NoError(t, err, c.json)
		built := soldierGo(t, c.policy, threat, ammo)
		require.Equal(t, built.Policy(), loaded.Policy())
		require.Equal(t, built.Name(), loaded.Name())

		sl, sb := loaded.NewState(), built.NewState()
		gl, gb := lcg(7), lcg(7)
		facts := lcg(99)
		choices := map[int]int{}
		for i := range 2000 {
			a := &loadAgent{hunger: facts.Float64()*1.2 - 0.1, fatigue: facts.Float64(), dist: facts.Float64() * 25,
				st: reg.Schema().NewStore()}
			if i%7 != 0 {
				blackboard.Set(a.st, threat, float32(facts.Float64()))
			}
			if i%5 != 0 {
				blackboard.Set(a.st, ammo, int16(facts.Float64()*40))
			}
			var agent any = a
			if i%97 == 0 {
				agent = "not an agent"
			}
			cl, cb := loaded.Decide(agent, &sl, &gl), built.Decide(agent, &sb, &gb)
			require.Equal(t, cb, cl, "%s: decision %d", c.json, i)
			require.Equal(t, bits(sb.Scores), bits(sl.Scores), "%s: decision %d", c.json, i)
			require.Equal(t, bits(sb.Considerations), bits(sl.Considerations), "%s: decision %d", c.json, i)
			choices[cl]++
		}
		require.Equal(t, sb.Unread, sl.Unread)
		require.Greater(t, sl.Unread, uint64(0))
		require.Len(t, choices, 4, "%s: every action chosen some time: %v", c.json, choices)
		sl.Choice = 3
		loaded.Act(nil, &sl)
		require.Equal(t, 1, idled, "the registered act")
		sl.Choice = 0
		loaded.Act(nil, &sl) // eat has no act
		require.Equal(t, 1, idled)
		idled = 0
	}
}

func bits(xs []float64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = math.Float64bits(x)
	}
	return out
}

// Every refusal: the sentinel, ErrSyntax, and a message naming the file, line, column
// and path.
func TestLoadJSONRefuses(t *testing.T) {
	const ok = `{"name": "r", "actions": [{"name": "a", "considerations": [{"input": "hunger"}]}]}`
	for _, c := range []struct {
		name, json string
		sentinel   error  // beside ErrSyntax; nil for none
		want       string // in the message, after "utility: f.json"
	}{
		{"syntax", "{\"name\": \"r\",\n \"actions\": [}", nil, ":2:14: invalid character '}'"},
		{"unknown key", "{\"name\": \"r\",\n \"actions\": [{\"name\": \"a\", \"wieght\": 2}]}", nil,
			`:2:28: actions[0].wieght: unknown field "wieght"`},
		{"unknown key in a curve", `{"name": "r", "actions": [{"name": "a", "considerations": [{"input": "hunger", "curve": {"d": 1}}]}]}`, nil,
			`actions[0].considerations[0].curve.d: unknown field "d"`},
		{"duplicate key", "{\"name\": \"r\",\n \"actions\": [{\"name\": \"a\", \"Name\": \"b\"}]}", nil,
			`:2:28: actions[0].Name: duplicate key "Name"`},
		{"trailing content", ok + "\n}", nil, `:2:1: content after the document: "}"`},
		{"second document", ok + ok, nil, ":1:" + fmt.Sprint(len(ok)+1) + ": content after the document"},
		{"number out of float64", `{"name": "r", "actions": [{"name": "a", "weight": 1e999}]}`, nil,
			`actions.weight: want a finite number, not "number 1e999"`},
		{"fractional n", `{"name": "r", "policy": {"kind": "TopN", "n": 1.5}, "actions": [{"name": "a"}]}`, nil,
			`policy.n: want an integer, not "number 1.5"`},
		{"string weight", `{"name": "r", "actions": [{"name": "a", "weight": "2"}]}`, nil, `actions.weight: want a finite number, not "string"`},
		{"unknown input", "{\"name\": \"r\", \"actions\": [{\"name\": \"a\", \"considerations\": [\n  {\"input\": \"hungr\"}]}]}",
			utility.ErrUnknownInput, `:2:4: actions[0].considerations[0].input: unknown input: no input "hungr" registered`},
		{"unknown key", `{"name": "r", "actions": [{"name": "a", "considerations": [{"key": "thret"}]}]}`,
			blackboard.ErrUnknownKey, `actions[0].considerations[0].key: unknown input: unknown key: "thret" is not declared`},
		{"key not a number", `{"name": "r", "actions": [{"name": "a", "considerations": [{"key": "mood"}]}]}`,
			blackboard.ErrTypeMismatch, `key "mood" holds "string", not a number type`},
		{"input and key", `{"name": "r", "actions": [{"name": "a", "considerations": [{"input": "hunger", "key": "threat"}]}]}`,
			nil, `actions[0].considerations[0].input: a consideration names one "input" or one "key"`},
		{"no input", `{"name": "r", "actions": [{"name": "a", "considerations": [{"name": "c"}]}]}`,
			nil, `actions[0].considerations[0].input: a consideration names one`},
		{"range without max", `{"name": "r", "actions": [{"name": "a", "considerations": [{"input": "hunger", "range": {"min": 1}}]}]}`,
			nil, `actions[0].considerations[0].range: a range needs "min" and "max"`},
		{"unknown curve", "{\"name\": \"r\", \"actions\": [{\"name\": \"a\", \"considerations\": [{\"input\": \"hunger\",\n \"curve\": {\"kind\": \"Sigmoid\"}}]}]}",
			utility.ErrBadCurve, `:2:12: actions[0].considerations[0].curve.kind: unknown curve kind "Sigmoid"`},
		{"curve kind by another case", `{"name": "r", "actions": [{"name": "a", "considerations": [{"input": "hunger", "curve": {"kind": "logistic"}}]}]}`,
			utility.ErrBadCurve, `unknown curve kind "logistic"`},
		{"unknown act", `{"name": "r", "actions": [{"name": "a", "act": "Eat"}]}`,
			utility.ErrUnknownAct, `:1:41: actions[0].act: unknown act: no act "Eat" registered`},
		{"unknown combine", `{"name": "r", "actions": [{"name": "a", "combine": "Sum"}]}`,
			utility.ErrBadCombine, `actions[0].combine: unknown Combine "Sum"`},
		{"unknown policy", `{"name": "r", "policy": {"kind": "Boltzmann"}, "actions": [{"name": "a"}]}`,
			utility.ErrBadPolicy, `policy.kind: bad policy: no policy "Boltzmann"`},
		{"negative temperature", "{\"name\": \"r\",\n \"policy\": {\"kind\": \"Softmax\", \"temperature\": -1}, \"actions\": [{\"name\": \"a\"}]}",
			utility.ErrBadPolicy, `:2:32: policy.temperature: reasoner "r": bad policy: Temperature = -1: want a finite temperature >= 0`},
		{"negative hysteresis", `{"name": "r", "policy": {"hysteresis": -0.1}, "actions": [{"name": "a"}]}`,
			utility.ErrBadPolicy, `:1:26: policy.hysteresis: reasoner "r": bad policy: Hysteresis = -0.1: want a fraction of the current choice's score in [0, 1]`},
		{"hysteresis as a percentage", `{"name": "r", "policy": {"hysteresis": 15}, "actions": [{"name": "a"}]}`,
			utility.ErrBadPolicy, `:1:26: policy.hysteresis: reasoner "r": bad policy: Hysteresis = 15: want a fraction of the current choice's score in [0, 1] (0.15: a challenger must beat it by 15%); a percentage? write 0.15 for 15%`},
		{"negative n", `{"name": "r", "policy": {"kind": "TopN", "n": -2}, "actions": [{"name": "a"}]}`,
			utility.ErrBadPolicy, `:1:42: policy.n: reasoner "r": bad policy: N = -2: want >= 0`},
		{"negative action weight", "{\"name\": \"r\", \"actions\": [{\"name\": \"a\"},\n {\"name\": \"b\", \"weight\": -1}]}",
			utility.ErrBadWeight, `:2:16: actions[1].weight: reasoner "r": action 1 ("b"): weight must be finite and >= 0, got -1`},
		{"negative consideration weight", `{"name": "r", "actions": [{"name": "a", "considerations": [{"input": "hunger", "weight": -2}]}]}`,
			utility.ErrBadWeight, `actions[0].considerations[0].weight: reasoner "r": action 0 ("a"): consideration 0 (""): weight must be`},
		{"weighted sum overflows", `{"name": "r", "actions": [{"name": "a", "combine": "WeightedSum", "considerations": [{"input": "hunger", "weight": 1e308}, {"input": "hunger", "weight": 1e308}]}]}`,
			utility.ErrBadWeight, `actions[0].considerations[1].weight: reasoner "r"`},
		{"softmax weights overflow", `{"name": "r", "policy": {"kind": "Softmax"}, "actions": [{"name": "a", "weight": 1e308}, {"name": "b", "weight": 1e308}]}`,
			utility.ErrBadWeight, `actions[1].weight: reasoner "r": action 1 ("b")`},
		{"zero actions", `{"name": "r", "actions": []}`, utility.ErrNoActions, `:1:15: actions: reasoner "r": no actions`},
		{"no actions key", `{"name": "r"}`, utility.ErrNoActions, `:1:1: actions: reasoner "r": no actions`},
		{"no name", `{"actions": [{"name": "a"}]}`, utility.ErrName, `:1:1: name: reasoner "": reasoner name empty or blank`},
		{"blank name", `{"name": " ", "actions": [{"name": "a"}]}`, utility.ErrName, `:1:2: name: reasoner " "`},
		{"action without a name", `{"name": "r", "actions": [{"weight": 1}]}`, utility.ErrActionName,
			`:1:27: actions[0].name: action name empty or used twice: ""`},
		{"duplicate action names", "{\"name\": \"r\", \"actions\": [{\"name\": \"a\"},\n  {\"name\": \"a\"}]}", utility.ErrActionName,
			`:2:4: actions[1].name: action name empty or used twice: "a"`},
		{"not an object", `[1, 2]`, nil, `:1:2: want an object, not "array"`},
		{"empty file", ``, nil, `f.json:1:1: no JSON document`},
		{"cut short", "{\"name\": \"r\",\n \"actions\": [", nil, `f.json:2:14: the document ends early`},
	} {
		reg, _, _ := loadSetup(t)
		r, err := reg.LoadJSON("f.json", []byte(c.json))
		if !errors.Is(err, utility.ErrSyntax) {
			t.Errorf("%s: got %v, %v; want an ErrSyntax", c.name, r, err)
			continue
		}
		if c.sentinel != nil && !errors.Is(err, c.sentinel) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.sentinel)
		}
		if !strings.HasPrefix(err.Error(), "utility: f.json") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got  %s\n want %s", c.name, err, c.want)
		}
	}
}

// RegisterInput and RegisterAct refuse an empty name, a nil function and a name taken.
func TestRegisterRefuses(t *testing.T) {
	r := utility.NewRegistry(nil)
	in := func(any) float64 { return 0 }
	require.NoError(t, r.RegisterInput("x", in))
	act := func(any) {}
	require.NoError(t, r.RegisterAct("x", act))
	for _, err := range []error{r.RegisterInput("", in), r.RegisterInput("y", nil), r.RegisterInput("x", in),
		r.RegisterAct("", act), r.RegisterAct("y", nil), r.RegisterAct("x", act)} {
		require.ErrorIs(t, err, utility.ErrRegistration)
	}
	var zero utility.Registry // the zero Registry registers too, and reads no keys
	require.NoError(t, zero.RegisterInput("x", in))
	_, err := zero.LoadJSON("f.json", []byte(`{"name": "r", "actions": [{"name": "a", "considerations": [{"key": "k"}]}]}`))
	require.ErrorIs(t, err, utility.ErrUnknownInput)
}
