package goap

import (
	"fmt"
	"strings"

	"github.com/archai-go/archai/ai/internal/plan"
)

// misspeltSensed returns an error wrapping ErrSensedUnread for each fact declared
// sensed that no goal's or action's condition reads while a fact named like it (see
// nearName) is read by one and not declared sensed: the one closest, declared first
// among equals, with the first goal or action that reads it. d's sensed facts are set;
// the conditions' facts must be declared (Build checks them first).
func (b *Builder) misspeltSensed(d *Domain) []error {
	var reader [MaxFacts]string // reader[f]: the first goal or action whose condition reads f, "" if none
	for _, a := range b.actions {
		for _, c := range a.Pre {
			if int(c.Fact) < len(b.facts) && reader[c.Fact] == "" {
				reader[c.Fact] = "action " + plan.Quote(a.Name)
			}
		}
	}
	for _, g := range b.goals {
		for _, c := range g.Want {
			if int(c.Fact) < len(b.facts) && reader[c.Fact] == "" {
				reader[c.Fact] = "goal " + plan.Quote(g.Name)
			}
		}
	}
	var errs []error
	for f, name := range b.facts {
		if !d.Sensed(Fact(f)) || reader[f] != "" {
			continue
		}
		best, bestDist := -1, 0
		for o, other := range b.facts {
			if reader[o] == "" || d.Sensed(Fact(o)) {
				continue
			}
			if dist, ok := nearName(name, other); ok && (best < 0 || dist < bestDist) {
				best, bestDist = o, dist
			}
		}
		if best >= 0 {
			errs = append(errs, fmt.Errorf("goap: domain %s: sensed fact %s: %w; %s, which %s reads, is not declared sensed: a misspelling of it?",
				plan.Quote(b.name), plan.Quote(name), ErrSensedUnread, plan.Quote(b.facts[best]), reader[best]))
		}
	}
	return errs
}

// nearName reports whether names a and b are alike enough to be one name misspelt, and
// how far apart they are: equal but for case and the separators '_', '-', ' ' and '.'
// (distance 0), or one edit apart, ignoring case (a letter added, dropped or changed, or
// two neighbours swapped: the optimal string alignment distance), two for names of 10
// letters or more. Names both shorter than 4 letters, or whose digits differ (enemy1,
// enemy2), are alike only in the first way.
func nearName(a, b string) (int, bool) {
	if a == b {
		return 0, false
	}
	squash := strings.NewReplacer("_", "", "-", "", " ", "", ".", "")
	if strings.EqualFold(squash.Replace(a), squash.Replace(b)) {
		return 0, true
	}
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	// numbered names (enemy1, enemy2) are distinct names, not misspellings, and so
	// are short ones one letter apart (hp, mp; x, y)
	if len(x) < 4 && len(y) < 4 || digits(a) != digits(b) {
		return 0, false
	}
	limit := 1
	if len(x) >= 10 && len(y) >= 10 {
		limit = 2
	}
	if d := len(x) - len(y); d > limit || -d > limit {
		return 0, false
	}
	dist := osaDistance(x, y)
	return dist, dist <= limit
}

// osaDistance is the optimal string alignment distance of a and b: the fewest
// insertions, deletions, substitutions and swaps of two neighbours that turn a into b,
// no part edited twice (Damerau's restricted edit distance).
func osaDistance(a, b []rune) int {
	// rows i-2, i-1 and i of the table
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// digits returns the digits of s, in order.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
