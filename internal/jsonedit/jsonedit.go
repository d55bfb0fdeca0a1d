// Package jsonedit edits the numbers of a JSON document in place, for the fuzz tests
// that hand-edit saves (a number replaced by NaN, an infinity, a huge or negative
// value) and check that loading and running them never panics.
package jsonedit

import (
	"math"
	"strconv"
)

// Numbers returns the byte ranges [start, end) of the numbers of a JSON document,
// outside strings, in document order.
func Numbers(data []byte) [][2]int {
	var out [][2]int
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(data) && (data[j] == '.' || data[j] == 'e' || data[j] == 'E' || data[j] == '+' || data[j] == '-' || data[j] >= '0' && data[j] <= '9') {
				j++
			}
			out = append(out, [2]int{i, j})
			i = j - 1
		}
	}
	return out
}

// Replace returns a copy of data with number num (modulo len(nums); nums from
// [Numbers] of data) replaced by values[kind] or, for kind == len(values) (modulo
// len(values)+1), by val (NaN and infinities as the quoted strings Go's encoding of
// them in archai's saves uses). data is returned as is if it has no number.
func Replace(data []byte, nums [][2]int, num, kind uint16, val float64, values []string) []byte {
	if len(nums) == 0 {
		return data
	}
	r := nums[int(num)%len(nums)]
	var v string
	if k := int(kind) % (len(values) + 1); k < len(values) {
		v = values[k]
	} else {
		switch {
		case math.IsNaN(val):
			v = `"NaN"`
		case math.IsInf(val, 1):
			v = `"+Inf"`
		case math.IsInf(val, -1):
			v = `"-Inf"`
		default:
			v = strconv.FormatFloat(val, 'g', -1, 64)
		}
	}
	out := make([]byte, 0, len(data)+len(v))
	out = append(out, data[:r[0]]...)
	out = append(out, v...)
	return append(out, data[r[1]:]...)
}
