package main

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -shard i/n with n near the largest int panicked (index out of range
// [-9223372036854775808]): shardOf stepped k += n past the end by wrapping to a
// negative index. A shard count larger than the sweep gives shard i the point i,
// or none.
func TestShardOfHugeCount(t *testing.T) {
	pts := []point{{Agents: 10}, {Agents: 20}, {Agents: 30}}
	for _, n := range []int{3, 4, math.MaxInt / 2, math.MaxInt - 1, math.MaxInt} {
		for _, i := range []int{0, 1, 2, n - 1} {
			got := shardOf(pts, i, n)
			if i < len(pts) {
				require.Len(t, got, 1, "shard %d/%d", i, n)
				assert.Equal(t, pts[i], got[0])
			} else {
				assert.Empty(t, got, "shard %d/%d", i, n)
			}
		}
	}
	var out, errs bytes.Buffer
	code := run([]string{"-sweep", "100,150", "-frames", "2", "-json", "-shard", "1/" + strconv.Itoa(math.MaxInt)}, &out, &errs)
	require.Equal(t, 0, code, errs.String())
	assert.Equal(t, 1, strings.Count(out.String(), "\n"), "one point: the second")
	assert.Contains(t, out.String(), `"agents":150`)
}

// FuzzShard: any -shard text is refused or gives a shard of the points; the n
// shards of a sweep together hold each point once (checked for small n).
func FuzzShard(f *testing.F) {
	for _, s := range []string{"0/4", "3/4", "1/9223372036854775807", "9223372036854775806/9223372036854775807", "-1/3", "4/4", "1", "/", "0/0", " 1/2", "1/-2"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, count int) {
		count = min(max(count, 0), 64)
		pts := make([]point, count)
		for k := range pts {
			pts[k].Agents = k + 1
		}
		i, n, err := parseShard(s)
		if err != nil {
			return
		}
		if i < 0 || i >= n {
			t.Fatalf("%q: shard %d/%d accepted", s, i, n)
		}
		got := shardOf(pts, i, n)
		for _, p := range got {
			if (p.Agents-1)%n != i {
				t.Fatalf("%q: point %d in shard %d/%d", s, p.Agents-1, i, n)
			}
		}
		if n <= 8 {
			seen := map[int]int{}
			for j := range n {
				for _, p := range shardOf(pts, j, n) {
					seen[p.Agents]++
				}
			}
			if len(seen) != count {
				t.Fatalf("%d shards hold %d of %d points", n, len(seen), count)
			}
		}
	})
}

// FuzzParseCounts: any -sweep or -sweep-workers list is refused or gives counts in
// range, one per comma-separated field.
func FuzzParseCounts(f *testing.F) {
	for _, s := range []string{"", " ", "1000,10000", "1,,2", ",", "0,1,2", "1025", "-1", "99999999999999999999", " 3 , 4 "} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, list string, workers bool) {
		flag := "-sweep"
		if workers {
			flag = "-sweep-workers"
		}
		got, err := parseCounts(flag, list, 7)
		if err != nil {
			if len(err.Error()) > 300+4*len(list) { // the list is quoted (%q) in full: it is the user's own flag
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if list == "" {
			require.Equal(t, []int{7}, got)
			return
		}
		require.Len(t, got, strings.Count(list, ",")+1)
		for _, n := range got {
			if n <= 0 || (workers && n > 1024) {
				t.Fatalf("%s %q: count %d", flag, list, n)
			}
		}
	})
}
