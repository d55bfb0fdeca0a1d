package systems

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// diagnosticsLive is the world resource that counts the [Diagnostics] systems initialized
// on the world and not finalized since, for [StatefulSystems]: a Diagnostics carries state
// across frames (its check cadence, the findings it last wrote) that save.Save must be
// given. It is a resource of its own, not a bit of installed, so that a world running only
// a Diagnostics stays one whose systems Diagnose cannot tell (Report.SystemsUnchecked).
type diagnosticsLive struct{ n int32 }

// setLive counts s as live in w (nil: in none), once, and no longer in the world it was
// live in before.
func (s *Diagnostics) setLive(w *arche.World) {
	if s.world == w {
		return
	}
	if s.world != nil {
		if r := ecs.Resource[diagnosticsLive](s.world); r != nil && r.n > 0 {
			r.n--
		}
	}
	s.world = w
	if w != nil {
		r := ecs.Resource[diagnosticsLive](w)
		if r == nil {
			r = &diagnosticsLive{}
			arche.AddResource(w, r)
		}
		r.n++
	}
}

// diagnosticsRunning reports whether a Diagnostics is live in w (see diagnosticsLive).
func diagnosticsRunning(w *arche.World) bool {
	r := ecs.Resource[diagnosticsLive](w)
	return r != nil && r.n > 0
}

// InitializedWorld returns the world the Diagnostics was last initialized on (nil before
// Initialize and after Finalize): save's Loaded.Restore refuses to restore into a
// Diagnostics of another world.
func (s *Diagnostics) InitializedWorld() *arche.World { return s.world }

// DiagnosticsState is what a [Diagnostics] carries from one frame to the next and saves:
// its Updates since Initialize, whose count modulo Every makes the frames it checks on and
// is the frame its lines name, and the findings it last wrote to Out (Written: whether it
// wrote any; Total and Counts, by cause name ([Cause.String]), the causes counted), which
// a check writes again only when they change. So a loaded run checks and writes the lines
// the unbroken run would, at the same frames. Its Report (the last check's) is not
// saved: after a load it is the zero Report ("not checked yet", Report.Checked false)
// until the next check (a check at the load would see the world of the saved frame,
// not that of the last check).
type DiagnosticsState struct {
	// Checks is Diagnostics.Checks, the checks run since Initialize, so that the loaded
	// one counts on from it; a file written before it (2026-12-06 11:50 UTC) reads 0:
	// Checks then counts from the load.
	Checks  int            `json:"checks,omitempty"`
	Frame   int            `json:"frame"`
	Written bool           `json:"written,omitempty"`
	Total   int            `json:"total,omitempty"`
	Counts  map[string]int `json:"counts,omitempty"`
	// FullFrame is the frame of the last line written in full, which a line
	// giving only changed counts names; absent (an older save) the next line
	// is written in full.
	FullFrame *int64 `json:"full_frame,omitempty"`
	// Others tells which findings that are not causes (a system installed
	// twice, a clock fault, ...) the last line had, as a hash in 16 hex digits,
	// so that one swapped for another writes a line; absent when there were
	// none (and in an older save: then a line with such findings is written
	// again at the next check).
	Others string `json:"others,omitempty"`
	// AttackingDowned is the evidence of CauseAttackingDowned the world's checks keep
	// (agents found attacking or pursuing a downed target, and since when), by agent
	// ID, so that a loaded run reports them at the checks the unbroken run does; absent
	// when none (and in an older save: then the count starts afresh at the next check).
	AttackingDowned []AttackingDownedState `json:"attacking_downed,omitempty"`
	// RoundEnd is, when a check spread over frames (see Diagnostics.Spread) was
	// under way at the save (begun and not finished), the frame it was to end by.
	// What it had found so far is not saved: the loaded Diagnostics begins the round
	// again at its first Update, on the loaded world, and spreads it over the frames
	// up to RoundEnd, so it ends at the frame the unbroken run's does, and a world
	// that did not change in the frames the round had run gets the same Report and
	// lines. Absent when no round was under way (and in an older save, whose
	// Diagnostics never spread a check).
	RoundEnd *int `json:"round_end,omitempty"`
}

// SaveState returns the Diagnostics' state as JSON (see [DiagnosticsState]).
func (s *Diagnostics) SaveState() (json.RawMessage, error) {
	st := DiagnosticsState{Frame: s.frame, Written: s.written, Total: s.writtenTotal, Checks: s.Checks}
	if (s.inRound || s.restart) && s.deadline >= s.frame {
		end := s.deadline
		st.RoundEnd = &end
	}
	if s.world != nil {
		st.AttackingDowned = attackingDownedState(s.world)
	}
	if s.written && s.writtenOthers != 0 {
		st.Others = fmt.Sprintf("%016x", s.writtenOthers)
	}
	if s.written && s.fullKnown {
		full := s.fullFrame
		st.FullFrame = &full
	}
	if s.written {
		for c, n := range s.writtenCounts {
			if n != 0 {
				if st.Counts == nil {
					st.Counts = map[string]int{}
				}
				st.Counts[Cause(c).String()] = n
			}
		}
	}
	return json.Marshal(st)
}

// LoadState restores a state saved by [Diagnostics.SaveState] into a Diagnostics
// initialized on the loaded world (before Initialize it returns an error wrapping
// [ErrNotInitialized]), so that it checks at the frames and writes the lines the saved
// run's would. It returns an error wrapping [ErrOutOfDomain], leaving the Diagnostics as
// it was, for a negative frame, total or count, findings without Written, or a cause
// name this version does not know, others that are not 16 hex digits, or evidence of
// CauseAttackingDowned naming an entity past the world's pool or a time not finite.
func (s *Diagnostics) LoadState(raw json.RawMessage) error {
	if s.world == nil || s.finalized {
		return fmt.Errorf("diagnostics state: %w", ErrNotInitialized)
	}
	var st DiagnosticsState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("diagnostics state: %w", err)
	}
	if st.Frame < 0 || st.Total < 0 || st.Checks < 0 {
		return fmt.Errorf("diagnostics state: frame %d, total %d, checks %d: %w", st.Frame, st.Total, st.Checks, ErrOutOfDomain)
	}
	if !st.Written && (st.Total != 0 || len(st.Counts) != 0) {
		return fmt.Errorf("diagnostics state: findings (total %d) without written: %w", st.Total, ErrOutOfDomain)
	}
	var counts [NumCauses]int
	for _, name := range slices.Sorted(maps.Keys(st.Counts)) {
		c, ok := causeNamed(name)
		if !ok {
			return fmt.Errorf("diagnostics state: counts: %q is no cause: %w", name, ErrOutOfDomain)
		}
		if n := st.Counts[name]; n < 0 {
			return fmt.Errorf("diagnostics state: counts[%q]: %d < 0: %w", name, n, ErrOutOfDomain)
		}
		counts[c] = st.Counts[name]
	}
	if st.RoundEnd != nil && *st.RoundEnd < st.Frame {
		return fmt.Errorf("diagnostics state: round_end %d before frame %d: %w", *st.RoundEnd, st.Frame, ErrOutOfDomain)
	}
	if st.FullFrame != nil && (*st.FullFrame < 0 || !st.Written) {
		return fmt.Errorf("diagnostics state: full_frame %d (written %t): %w", *st.FullFrame, st.Written, ErrOutOfDomain)
	}
	var others uint64
	if st.Others != "" {
		v, err := strconv.ParseUint(st.Others, 16, 64)
		if err != nil || len(st.Others) != 16 || v == 0 || !st.Written {
			return fmt.Errorf("diagnostics state: others %q (written %t): want 16 hex digits, not all 0, with written: %w", st.Others, st.Written, ErrOutOfDomain)
		}
		others = v
	}
	for i, a := range st.AttackingDowned {
		if !inPool(s.world, a.Agent) || !inPool(s.world, a.Target) || a.Agent.IsZero() || a.Target.IsZero() ||
			math.IsNaN(a.Since) || math.IsInf(a.Since, 0) {
			return fmt.Errorf("diagnostics state: attacking_downed[%d]: agent %d, target %d, since %g: %w",
				i, a.Agent.ID(), a.Target.ID(), a.Since, ErrOutOfDomain)
		}
	}
	loadAttackingDowned(s.world, st.AttackingDowned)
	s.frame, s.written, s.writtenTotal, s.writtenCounts, s.writtenOthers = st.Frame, st.Written, st.Total, counts, others
	s.fullFrame, s.fullKnown, s.Checks = 0, st.FullFrame != nil, st.Checks
	s.inRound, s.restart, s.pending = false, st.RoundEnd != nil, Report{}
	if st.RoundEnd != nil {
		s.deadline = *st.RoundEnd
	}
	if s.fullKnown {
		s.fullFrame = *st.FullFrame
	}
	return nil
}

// causeNamed returns the cause whose String is name.
func causeNamed(name string) (Cause, bool) {
	for c, n := range causeNames {
		if n == name {
			return Cause(c), true
		}
	}
	return 0, false
}
