package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"
)

// The tick cost of scripts and conditions, side by side with the same tree without them:
// a guard that flees when hurt, shoots an enemy in range while it has ammo, else patrols
// and reloads, on the agent's blackboard.
//
//   - go: Condition and Action leaves in Go reading and writing typed keys;
//   - script: the same leaves as ScriptCondition and Script nodes;
//   - script+conditions: script, plus a precondition on every node and post-conditions
//     on the leaves that act (none of them decides: the same nodes are ticked).
//
// Each op ticks one of 1,000 agents; ns/visit is the time per node ticked.

type guardKeys struct {
	hp, ammo, patrol, shots blackboard.Key[int]
	enemy                   blackboard.Key[bool]
}

func guardSchema() (*blackboard.Schema, guardKeys) {
	s := blackboard.NewSchema()
	k := guardKeys{
		hp:     blackboard.MustDeclare[int](s, "hp"),
		ammo:   blackboard.MustDeclare[int](s, "ammo"),
		patrol: blackboard.MustDeclare[int](s, "patrol"),
		shots:  blackboard.MustDeclare[int](s, "shots"),
		enemy:  blackboard.MustDeclare[bool](s, "enemy"),
	}
	return s, k
}

func guardGoTree(k guardKeys) *Node {
	get := func(c *Context, key blackboard.Key[int]) int { v, _ := blackboard.Get(c.Blackboard, key); return v }
	add := func(key blackboard.Key[int], d int) func(*Context) Status {
		return func(c *Context) Status {
			blackboard.Set(c.Blackboard, key, get(c, key)+d)
			return Success
		}
	}
	return ReactiveSelector(
		Sequence(
			Condition("hurt", func(c *Context) bool { return get(c, k.hp) < 30 }),
			Action("flee", add(k.hp, 10)),
		),
		Sequence(
			Condition("enemy in range", func(c *Context) bool {
				e, _ := blackboard.Get(c.Blackboard, k.enemy)
				return e && get(c, k.ammo) > 0
			}),
			Action("shoot", func(c *Context) Status {
				blackboard.Set(c.Blackboard, k.ammo, get(c, k.ammo)-1)
				blackboard.Set(c.Blackboard, k.hp, get(c, k.hp)-3)
				return Success
			}),
		),
		Sequence(
			Action("patrol", add(k.patrol, 1)),
			Action("reload", func(c *Context) Status {
				if a := get(c, k.ammo); a < 5 {
					blackboard.Set(c.Blackboard, k.ammo, a+1)
				}
				e, _ := blackboard.Get(c.Blackboard, k.enemy)
				blackboard.Set(c.Blackboard, k.enemy, !e)
				return Success
			}),
		),
	)
}

func guardScriptTree(s *blackboard.Schema, conds bool) *Node {
	env := &script.Env{Schema: s}
	c := func(src string) *script.Program { return script.MustCompile(src, env) }
	pre := func(n *Node, src string) *Node {
		if conds {
			n.SkipIf(c(src))
		}
		return n
	}
	post := func(n *Node, src string) *Node {
		if conds {
			n.Post(c(src))
		}
		return n
	}
	return pre(ReactiveSelector(
		pre(Sequence(
			pre(ScriptCondition(c("hp < 30")), "hp < -1000"),
			post(pre(Script(c("hp += 10")), "hp > 1000"), "shots = shots"),
		), "patrol < 0"),
		pre(Sequence(
			pre(ScriptCondition(c("enemy && ammo > 0")), "ammo < -5"),
			post(pre(Script(c("ammo -= 1; hp -= 3")), "hp < -1000"), "shots += 1"),
		), "!(hp > -1000)"),
		pre(Sequence(
			post(pre(Script(c("patrol += 1")), "patrol < 0"), "patrol = patrol"),
			pre(Script(c("ammo = ammo < 5 ? ammo + 1 : ammo; enemy = !enemy")), "ammo > 1000"),
		), "hp > 100000"),
	), "hp == -12345")
}

func benchGuard(b *testing.B, root *Node, s *blackboard.Schema, k guardKeys) {
	tree, err := Compile("guard", root)
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	mems := make([]Memory, n)
	stores := make([]*blackboard.Store, n)
	for i := range mems {
		mems[i] = tree.NewMemory()
		stores[i] = s.NewStore()
		blackboard.Set(stores[i], k.hp, 10+i%90)
		blackboard.Set(stores[i], k.ammo, i%4)
		blackboard.Set(stores[i], k.patrol, 0)
		blackboard.Set(stores[i], k.shots, 0)
		blackboard.Set(stores[i], k.enemy, i%3 == 0)
	}
	ctx := &Context{DT: 0.1}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		ctx.Blackboard = stores[i]
		tree.Tick(&mems[i], ctx)
		if i++; i == n {
			i = 0
			ctx.Time += ctx.DT
		}
	}
	b.StopTimer()
	if ctx.ScriptErrors() != 0 {
		_, err := ctx.LastScriptError()
		b.Fatal(err)
	}
	visits := float64(ctx.Visits()) / float64(b.N)
	b.ReportMetric(visits, "visits/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ctx.Visits()), "ns/visit")
}

func BenchmarkTickScripts(b *testing.B) {
	b.Run("go", func(b *testing.B) {
		s, k := guardSchema()
		benchGuard(b, guardGoTree(k), s, k)
	})
	b.Run("script", func(b *testing.B) {
		s, k := guardSchema()
		benchGuard(b, guardScriptTree(s, false), s, k)
	})
	b.Run("script+conditions", func(b *testing.B) {
		s, k := guardSchema()
		benchGuard(b, guardScriptTree(s, true), s, k)
	})
}

// The three trees of the benchmark make the same decisions.
func TestTickScriptsBenchmarkTreesAgree(t *testing.T) {
	var results [3][]int
	for v := range 3 {
		s, k := guardSchema()
		var root *Node
		switch v {
		case 0:
			root = guardGoTree(k)
		default:
			root = guardScriptTree(s, v == 2)
		}
		tree, err := Compile("guard", root)
		if err != nil {
			t.Fatal(err)
		}
		m := tree.NewMemory()
		st := s.NewStore()
		blackboard.Set(st, k.hp, 25)
		blackboard.Set(st, k.ammo, 2)
		blackboard.Set(st, k.patrol, 0)
		blackboard.Set(st, k.shots, 0)
		blackboard.Set(st, k.enemy, true)
		ctx := &Context{Blackboard: st}
		for range 50 {
			tree.Tick(&m, ctx)
			for _, key := range []blackboard.Key[int]{k.hp, k.ammo, k.patrol} {
				x, _ := blackboard.Get(st, key)
				results[v] = append(results[v], x)
			}
		}
		if ctx.ScriptErrors() != 0 {
			t.Fatal(ctx.LastScriptError())
		}
	}
	if len(results[0]) == 0 {
		t.Fatal("no results")
	}
	for v := 1; v < 3; v++ {
		for i := range results[0] {
			if results[v][i] != results[0][i] {
				t.Fatalf("tree %d differs from the Go tree at %d: %v vs %v", v, i, results[v][:i+1], results[0][:i+1])
			}
		}
	}
}
