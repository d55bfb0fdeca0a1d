package scenario

import (
	"sync"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/jsonedit"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
)

// A save file edited by hand: one number of a real save (a guard run with searches
// waiting and a think budget, with ORCA, or a swarm with a field half built) replaced by
// an awkward value. Resuming it must return an error, or give a world whose systems run
// without a panic. Run with, for example:
//
//	go test -run XXX -fuzz FuzzResumeEdited -fuzztime 2m -parallel 1 ./cmd/bench/scenario

type fuzzSeed struct {
	data    []byte
	nums    [][2]int // the byte range of each number in data
	guard   *Config
	swarm   *SwarmConfig
	sectors int // the swarm's FlowField.Sectors
}

var (
	fuzzSeedsOnce sync.Once
	fuzzSeeds     []fuzzSeed
)

const fuzzMap = 32

func fuzzGuardConfigs() []Config {
	return []Config{
		{Agents: 24, Seed: 3, Workers: 1, PathBudget: 12, ThinkBudget: 4, LOD: true},
		{Agents: 24, Seed: 5, Workers: 2, Avoid: systems.AvoidORCA},
	}
}

func fuzzSwarmConfigs() []SwarmConfig {
	return []SwarmConfig{{Agents: 24, Seed: 3, Workers: 1, GoalEvery: 0.3, Budget: 100},
		{Agents: 24, Seed: 4, Workers: 2, GoalEvery: 0.2, Budget: 40}}
}

// fuzzSectors is the FlowField.Sectors of each swarm of fuzzSwarmConfigs.
var fuzzSectors = []int{0, 8}

func makeFuzzSeeds(t testing.TB) []fuzzSeed {
	fuzzSeedsOnce.Do(func() {
		for _, cfg := range fuzzGuardConfigs() {
			cfg.Grid = GenerateMap(fuzzMap, cfg.Seed)
			s, err := NewGuards(cfg)
			if err != nil {
				t.Fatal(err)
			}
			sc := ecs.NewScheduler(s.Systems()...)
			sc.Initialize(s.World)
			sc.Run(s.World, 40)
			data, err := save.Save(s.World, nil, s.SaveStates()...)
			if err != nil {
				t.Fatal(err)
			}
			sc.Finalize(s.World)
			c := cfg
			fuzzSeeds = append(fuzzSeeds, fuzzSeed{data: data, nums: jsonedit.Numbers(data), guard: &c})
		}
		for i, cfg := range fuzzSwarmConfigs() {
			cfg.Grid = GenerateMap(fuzzMap, cfg.Seed)
			s, err := NewSwarm(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.Flow.Sectors = fuzzSectors[i]
			sc := ecs.NewScheduler(s.Systems()...)
			sc.Initialize(s.World)
			sc.Run(s.World, 25)
			data, err := save.Save(s.World, nil, s.SaveStates()...)
			if err != nil {
				t.Fatal(err)
			}
			sc.Finalize(s.World)
			c := cfg
			fuzzSeeds = append(fuzzSeeds, fuzzSeed{data: data, nums: jsonedit.Numbers(data), swarm: &c, sectors: fuzzSectors[i]})
		}
	})
	return fuzzSeeds
}

// awkward are the values a hand edit may put in a number's place (kind indexes it; the
// last kind takes the fuzzer's own value).
var awkward = []string{`"NaN"`, `"+Inf"`, `"-Inf"`, `-1`, `0`, `1e300`, `-1e300`, `4294967295`, `4294967296`,
	`9223372036854775807`, `-2147483648`, `65535`, `255`, `256`, `1`, `2`, `3`, `0.5`, `1e-300`, `100000`}

func editedSave(s fuzzSeed, num, kind uint16, val float64) []byte {
	return jsonedit.Replace(s.data, s.nums, num, kind, val, awkward)
}

// runEdited resumes an edited save and runs a few frames; a panic fails the test.
func runEdited(t *testing.T, s fuzzSeed, data []byte) {
	var w *arche.World
	var sys []ecs.System
	var restore func() error
	if s.guard != nil {
		cfg := *s.guard
		cfg.Grid = GenerateMap(fuzzMap, cfg.Seed)
		g, r, err := ResumeGuards(cfg, data)
		if err != nil {
			return
		}
		w, sys, restore = g.World, g.Systems(), r
	} else {
		cfg := *s.swarm
		cfg.Grid = GenerateMap(fuzzMap, cfg.Seed)
		sw, r, err := ResumeSwarm(cfg, data)
		if err != nil {
			return
		}
		sw.Flow.Sectors = s.sectors
		w, sys, restore = sw.World, sw.Systems(), r
	}
	sc := ecs.NewScheduler(sys...)
	sc.Initialize(w)
	defer sc.Finalize(w)
	if err := restore(); err != nil {
		return
	}
	sc.Run(w, 6)
	systems.Diagnose(w)
}

func FuzzResumeEdited(f *testing.F) {
	seeds := makeFuzzSeeds(f)
	for i := range seeds {
		for k := range len(awkward) {
			f.Add(uint8(i), uint16(k*37+i), uint16(k), 0.0, uint16(0), uint16(len(awkward)))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, num, kind uint16, val float64, num2, kind2 uint16) {
		s := seeds[int(which)%len(seeds)]
		data := editedSave(s, num, kind, val)
		if num2 != 0 { // a second number of the edited file (the positions after the first may move)
			data = jsonedit.Replace(data, jsonedit.Numbers(data), num2, kind2, val, awkward)
		}
		runEdited(t, s, data)
	})
}
