package save

import (
	"reflect"

	arche "github.com/mlange-42/arche/ecs"
)

// sampledEntities is about how many entities fileSize writes to estimate the file: the
// estimate's error shrinks as its square root, its cost grows with it.
const sampledEntities = 256

// fileSize estimates the size of the file Save is writing for w, whose head (the fields
// before the components) takes head bytes and whose systems' states f holds: the buffer
// is made that large at once, not grown by doubling (each growth copying the file so
// far: a doubling at 50,000 guards held 100 MB and 200 MB at once). The components are
// estimated from every k-th entity, some 256 spread over the whole query (so over
// every archetype in proportion), written and scaled up, plus an eighth: a save of a
// world whose entities vary a lot may outgrow it, and then grows by a quarter at a time
// (append's growth of a large slice). Capacity the file does not use is never written,
// so it mostly stays untouched memory.
func fileSize(w *arche.World, head int, f *file, comps map[arche.ID]savedType) int {
	size := head + len(`,"components":null,"systems":{},"left_out":[]}`)
	for name, raw := range f.Systems {
		size += len(name) + len(raw) + 4
	}
	for _, name := range f.LeftOut {
		size += len(name) + 3
	}
	q := w.Query(arche.All())
	n := q.Count()
	if n == 0 {
		q.Close()
		return size
	}
	step := max(1, n/sampledEntities)
	var e encoder
	named := namedOnce{prints: &definitions{}} // the save's own records its definitions
	sampled, written := 0, 0
	for q.Step(step) {
		e.buf = e.buf[:0]
		ok := true
		for _, id := range q.Ids() {
			c := comps[id]
			e.WriteString(c.key)
			if err := encodeComponent(w, &e, reflect.NewAt(c.t, q.Get(id)).Elem(), false, &named); err != nil {
				ok = false // the save reports it
				break
			}
			e.buf = append(e.buf, ':', ',')
		}
		if ok {
			written += len(e.buf) + len("{},")
			sampled++
		}
	}
	if sampled == 0 {
		return size + n*64
	}
	est := int(float64(written) / float64(sampled) * float64(n))
	return size + est + est/8 + 4096
}
