package scenario

import (
	"cmp"
	"slices"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// churnTag is a relation component the test adds to agents and retargets,
// so that one component mask holds several archetypes (one per target).
type churnTag struct{ arche.Relation }

// churnMark is a plain component the test adds and removes between frames.
type churnMark struct{ N int }

// churnRun runs the guard scenario over more agents than the systems' shared
// scans hand to one goroutine, changing the world's structure between frames:
// new agents, agents given and stripped of a relation component (several
// targets: several archetypes of one mask) and of a plain component, and
// agents removed. It returns the state hash after frames frames.
func churnRun(t *testing.T, cfg Config, frames int) uint64 {
	t.Helper()
	sc, err := NewGuards(cfg)
	require.NoError(t, err)
	w := sc.World
	s := ecs.NewScheduler(sc.Systems()...)
	s.Initialize(w)
	defer s.Finalize(w)
	sp := sc.Casualties.spawner
	keepRoutes(w)
	relID := arche.ComponentID[churnTag](w)
	markID := arche.ComponentID[churnMark](w)
	rng := steer.NewRand(99)
	all := generic.NewFilter1[components.Position]()
	var ents []arche.Entity
	for f := range frames {
		s.Update(w)
		ents = ents[:0]
		q := all.Query(w)
		for q.Next() {
			ents = append(ents, q.Entity())
		}
		// visit in entity-ID order, so the changes do not depend on storage
		slices.SortFunc(ents, func(a, b arche.Entity) int { return cmp.Compare(a.ID(), b.ID()) })
		targets := []arche.Entity{ents[0], ents[1], ents[2]}
		for k, e := range ents {
			switch {
			case (k+f)%53 == 0:
				if !w.Has(e, relID) {
					w.Add(e, relID)
				}
				w.Relations().Set(e, relID, targets[(k/53+f)%3])
			case (k+f)%59 == 0 && w.Has(e, relID):
				w.Remove(e, relID)
			case (k+f)%61 == 0:
				if w.Has(e, markID) {
					w.Remove(e, markID)
				} else {
					w.Add(e, markID)
				}
			case (k+3*f)%997 == 0 && k > 3:
				w.RemoveEntity(e)
			}
		}
		for range 7 {
			p, ok := randomOpenCell(sc.Grid, &rng)
			require.True(t, ok)
			if rng.Intn(4) == 0 {
				sp.intruder(p, rng.Uint64())
			} else {
				sp.guard(p, rng.Uint64())
			}
		}
		keepRoutes(w)
	}
	return systems.StateHash(w)
}

// routesHeld keeps every guard's Route alive: Arche v0.15.3 moves components
// with a byte copy the garbage collector does not see (see systems.Arena), and
// the scenario's Guard component is not held by the Arena.
var routesHeld [][]r2.Vec

func keepRoutes(w *arche.World) {
	q := generic.NewFilter1[Guard]().Query(w)
	for q.Next() {
		routesHeld = append(routesHeld, q.Get().Route)
	}
}

// TestChurnSameForAnyWorkers: structural changes between frames (agents
// added and removed, relation archetypes, components added and removed)
// leave the scenario's result the same for 1, 2 and (with ARCHAI_LONG=1) 3 workers, with and
// without level of detail and a think budget.
func TestChurnSameForAnyWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for _, cfg := range []Config{{Agents: 4600, Seed: 21}, {Agents: 4600, Seed: 22, LOD: true, ThinkBudget: 300}} {
		cfg.Workers = 1
		want := churnRun(t, cfg, 40)
		others := []int{2}
		if long() {
			others = append(others, 3)
		}
		for _, k := range others {
			cfg.Workers = k
			require.Equal(t, want, churnRun(t, cfg, 40), "LOD %v, %d workers", cfg.LOD, k)
		}
	}
}
