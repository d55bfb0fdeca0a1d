package bt

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dumpFNV is the fingerprint as save computed it before Fingerprint: FNV-1a over the
// text of Dump, every byte of it, with every level indented (Dump numbers the levels
// past DumpIndentDepth since; the fingerprint hashes the indented text, so saved
// fingerprints hold). For a tree at most DumpIndentDepth deep it is Dump's text.
func dumpFNV(t testing.TB, tree *Tree) uint64 {
	h := fnv.New64a()
	require.NoError(t, tree.dump(h, nil, math.MaxInt))
	if deepest(tree) <= DumpIndentDepth {
		d := fnv.New64a()
		require.NoError(t, tree.Dump(d, nil))
		require.Equal(t, h.Sum64(), d.Sum64(), "Dump of a tree %d deep is indented", deepest(tree))
	}
	return h.Sum64()
}

// deepest is the depth of tree's deepest node.
func deepest(tree *Tree) int {
	d := 0
	for i := range tree.Len() {
		d = max(d, tree.Depth(i))
	}
	return d
}

// chain returns n Inverters over a Sequence of two leaves: every line below the
// first is prefixed by "    " per level.
func chain(n int) *Node {
	x := Sequence(AlwaysSuccess(), AlwaysFailure())
	for range n {
		x = Inverter(x)
	}
	return x
}

// comb returns n Sequences, each the first child of the one above (its lines
// prefixed by "│   " per level) beside a named Condition.
func comb(n int) *Node {
	yes := func(*Context) bool { return true }
	x := Action("end", func(*Context) Status { return Success })
	for k := range n {
		x = Sequence(x, Condition(fmt.Sprintf("side %d é", k), yes))
	}
	return x
}

// randomNode returns a random subtree of at most depth levels: composites of one to
// four children, decorators, leaves with names (some not ASCII) and conditions.
func randomNode(rng *rand.Rand, depth int, env *script.Env) *Node {
	yes := func(*Context) bool { return true }
	idle := func(*Context) Status { return Running }
	if depth == 0 || rng.IntN(4) == 0 {
		var n *Node
		switch rng.IntN(4) {
		case 0:
			n = Condition(fmt.Sprintf("c%d", rng.IntN(100)), yes)
		case 1:
			n = Action(fmt.Sprintf("act ✓ %d", rng.IntN(100)), idle)
		case 2:
			n = Wait(1)
		default:
			n = AlwaysSuccess()
		}
		if rng.IntN(5) == 0 {
			n = n.SkipIf(script.MustCompile("skip", env))
		}
		return n
	}
	switch rng.IntN(6) {
	case 0:
		return Inverter(randomNode(rng, depth-1, env))
	case 1:
		return Repeat(2, randomNode(rng, depth-1, env))
	case 2:
		return ForceSuccess(randomNode(rng, depth-1, env)).Post(script.MustCompile("skip", env))
	}
	kids := make([]*Node, 1+rng.IntN(4))
	for k := range kids {
		kids[k] = randomNode(rng, depth-1, env)
	}
	if rng.IntN(2) == 0 {
		return Selector(kids...)
	}
	return ReactiveSequence(kids...)
}

// Fingerprint is the FNV-1a of Dump's text, on every shape of tree: save files hold
// the values (TestTreeFingerprintsArePinned in systems/save pins some).
func TestFingerprintIsTheFNV1aOfDump(t *testing.T) {
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[bool](schema, "skip")
	env := &script.Env{Schema: schema}
	trees := map[string]*Node{
		"leaf":     AlwaysSuccess(),
		"chain":    chain(700),
		"comb":     comb(300),
		"mixed":    Sequence(chain(40), comb(40), Inverter(comb(30)), Selector(comb(20), chain(20))),
		"unnamed2": Sequence(Wait(1), Wait(2)),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 200 {
		trees[fmt.Sprintf("random %d", k)] = randomNode(rng, 2+rng.IntN(10), env)
	}
	for k := range 20 { // random subtrees deep under both kinds of prefix
		n := randomNode(rng, 6, env)
		for range 10 * k {
			n = Selector(n, randomNode(rng, 2, env))
		}
		for range 10 * k {
			n = Inverter(n)
		}
		trees[fmt.Sprintf("random deep %d", k)] = Sequence(n, randomNode(rng, 4, env))
	}
	for name, n := range trees {
		tree, err := Compile(name, n)
		require.NoError(t, err)
		assert.Equal(t, dumpFNV(t, tree), tree.Fingerprint(), name)
	}
}

// The fingerprint of a deep chain takes work linear in its nodes, not in Dump's text
// (which grows as depth²: 200 MB for 10,000 Inverters): at most 1,100 steps a node
// (a byte hashed, an entry of a prefix's table), and twice the nodes, about twice the
// work. Work is counted, not timed (BenchmarkFingerprint times it).
func TestFingerprintOfADeepTreeIsLinear(t *testing.T) {
	for _, shape := range []struct {
		name string
		make func(int) *Node
	}{{"chain", chain}, {"comb", comb}} {
		var works [2]int
		for k, n := range []int{10000, 20000} {
			tree, err := Compile(shape.name, shape.make(n))
			require.NoError(t, err)
			_, work := tree.fingerprint()
			assert.LessOrEqual(t, work, 1100*tree.Len(), "%s of %d: work", shape.name, n)
			works[k] = work
		}
		assert.InDelta(t, 2, float64(works[1])/float64(works[0]), 0.1, "%s: work at 20,000 over 10,000", shape.name)
	}
}
