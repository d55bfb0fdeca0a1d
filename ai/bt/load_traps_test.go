package bt

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// loadTrap loads one tree of body into r and builds it.
func loadTrap(r *Registry, body string) (*Tree, error) {
	id, err := r.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+body+`</BehaviorTree></root>`))
	if err != nil {
		return nil, err
	}
	return r.Tree(id)
}

// A Switch case equal to an earlier one is a load error: the first equal case wins, so
// the later case's child could never run (case_1 pasted into case_2). Equal means equal
// as the Switch compares: "5" and "5.0" on a number key, or on a string key.
func TestLoadSwitchRefusesARepeatedCase(t *testing.T) {
	for _, c := range []struct {
		declare func(*blackboard.Schema)
		node    string
		want    string
	}{
		{func(s *blackboard.Schema) { blackboard.MustDeclare[string](s, "mode") },
			`<Switch3 variable="{mode}" case_1="walk" case_2="run" case_3="walk"><Ready/><Ready/><Ready/><Ready/></Switch3>`, `case_3 "walk" is case_1 again`},
		{func(s *blackboard.Schema) { blackboard.MustDeclare[string](s, "mode") },
			`<Switch2 variable="{mode}" case_1="5" case_2="5.0"><Ready/><Ready/><Ready/></Switch2>`, `case_2 "5.0" is case_1 again`},
		{func(s *blackboard.Schema) { blackboard.MustDeclare[int](s, "mode") },
			`<Switch2 variable="{mode}" case_1="1" case_2="1"><Ready/><Ready/><Ready/></Switch2>`, `case_2 "1" is case_1 again`},
		{func(s *blackboard.Schema) { blackboard.MustDeclare[int](s, "mode") },
			`<Switch2 variable="{mode}" case_1="2" case_2=" 2.0"><Ready/><Ready/><Ready/></Switch2>`, `case_2 " 2.0" is case_1 again`},
		{func(s *blackboard.Schema) { blackboard.MustDeclare[float64](s, "mode") },
			`<Switch2 variable="{mode}" case_1="0.5" case_2="5e-1"><Ready/><Ready/><Ready/></Switch2>`, `case_2 "5e-1" is case_1 again`},
		{func(s *blackboard.Schema) { blackboard.MustDeclare[bool](s, "mode") },
			`<Switch2 variable="{mode}" case_1="true" case_2="true"><Ready/><Ready/><Ready/></Switch2>`, `case_2 "true" is case_1 again`},
	} {
		s := blackboard.NewSchema()
		c.declare(s)
		r := NewRegistry(s)
		registerReady(t, r)
		_, err := loadTrap(r, c.node)
		require.Error(t, err, c.node)
		assert.ErrorIs(t, err, ErrPort, c.node)
		assert.ErrorContains(t, err, c.want, c.node)
	}
	// different cases still load: "5" and "5abc" differ on a string key
	s := blackboard.NewSchema()
	blackboard.MustDeclare[string](s, "mode")
	r := NewRegistry(s)
	registerReady(t, r)
	_, err := loadTrap(r, `<Switch2 variable="{mode}" case_1="5" case_2="5abc"><Ready/><Ready/><Ready/></Switch2>`)
	require.NoError(t, err)
}

func registerReady(t *testing.T, r *Registry) {
	t.Helper()
	require.NoError(t, r.RegisterAction("Ready", func(*Ports) (func(*Context) Status, error) {
		return func(*Context) Status { return Success }, nil
	}))
}

// A float port, a point or a float list reading "NaN" is a load error: NaN equals
// nothing and compares false with everything, so a speed, a range or a threshold of NaN
// is never what the file meant (strconv reads "NaN" and "nan" without complaint).
// Infinities still load ("inf" can mean no limit).
func TestLoadFloatPortRefusesNaN(t *testing.T) {
	var got float64
	newReg := func() *Registry {
		r := NewRegistry(nil)
		require.NoError(t, r.RegisterAction("Speed", func(p *Ports) (func(*Context) Status, error) {
			in := InputPort[float64](p, "v")
			return func(c *Context) Status { got, _ = in.Get(c); return Success }, nil
		}))
		require.NoError(t, r.RegisterAction("Goal", func(p *Ports) (func(*Context) Status, error) {
			in := InputPort[r2.Vec](p, "v")
			return func(c *Context) Status { in.Get(c); return Success }, nil
		}))
		require.NoError(t, r.RegisterAction("Weights", func(p *Ports) (func(*Context) Status, error) {
			in := InputPort[[]float64](p, "v")
			return func(c *Context) Status { in.Get(c); return Success }, nil
		}))
		return r
	}
	for _, node := range []string{`<Speed v="NaN"/>`, `<Speed v=" nan "/>`, `<Goal v="1;NaN"/>`, `<Weights v="1;NaN;2"/>`} {
		_, err := loadTrap(newReg(), node)
		require.Error(t, err, node)
		assert.ErrorIs(t, err, ErrPort, node)
		assert.ErrorContains(t, err, `port "v"`, node)
		assert.ErrorContains(t, err, "NaN", node)
	}
	tree, err := loadTrap(newReg(), `<Speed v="+Inf"/>`)
	require.NoError(t, err)
	mem := tree.NewMemory()
	require.Equal(t, Success, tree.Tick(&mem, &Context{}))
	assert.True(t, math.IsInf(got, 1))
}
