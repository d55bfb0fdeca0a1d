package save

import (
	"fmt"
	"io"

	arche "github.com/mlange-42/arche/ecs"
)

// flushAt is how much of the file SaveTo gathers before it hands it to the writer:
// large enough that a writer (a gzip.Writer, a file, a connection) sees few calls,
// small beside any file of a world worth streaming. An entity larger than this (a
// very long path) is handed over whole.
const flushAt = 64 << 10

// SaveTo writes world w to out as [Save] does, the same bytes, without holding the
// file: it writes the head (the fields before the components), then the components
// an entity at a time in pieces of about 64 KB, then the tail (the systems' states,
// the relations' targets and the fingerprints of the trees, machines, reasoners and
// planner domains). What it holds besides the world is a piece, the head (the entity
// pool: some 16 bytes an entity) and the tail, so a save streamed into a gzip.Writer,
// a file or a network connection adds a small part of the file's size to the peak
// memory, where Save holds the whole file (see the Cost section of the package doc).
//
// It returns Save's errors. Those about the states, the meta, the Clock, the schemas
// and a locked or half-run world are returned before anything is written. An error of
// a component (a value Load would refuse, two trees under one name, ...) is found as
// its entity is written, and an error of out's Write ends the save there; either
// leaves in out the part of the file written before it, never a whole file: the
// closing brace is written last, so Load refuses the part with ErrFormat. Write to a
// temporary file and rename it on success to keep an older save whole. An error of
// out is wrapped (errors.Is finds it) and says how many bytes out took before it
// (a Write that takes less than it is given without an error is io.ErrShortWrite).
//
// SaveTo does not close out nor flush it: close a gzip.Writer after it (its Close
// writes the compressed stream's end, and can fail) and flush a bufio.Writer (SaveTo
// already writes in large pieces: it needs none).
func SaveTo(out io.Writer, w *arche.World, meta any, states ...State) error {
	s, err := prepare(w, meta, states)
	if err != nil {
		return err
	}
	sink := &streamed{w: out}
	enc := &encoder{buf: make([]byte, 0, flushAt+flushAt/4), live: liveTreesOf(w)}
	return s.write(enc, func(all bool) error { return sink.take(enc, all) })
}

// streamed is SaveTo's writer and the bytes it took.
type streamed struct {
	w io.Writer
	n int64
}

// take hands what e holds to the writer, once it holds flushAt bytes (or everything,
// if all), and empties e. It returns the writer's error, wrapped.
func (s *streamed) take(e *encoder, all bool) error {
	if len(e.buf) == 0 || !all && len(e.buf) < flushAt {
		return nil
	}
	n, err := s.w.Write(e.buf)
	if err == nil && n < len(e.buf) {
		err = io.ErrShortWrite
	}
	s.n += int64(max(0, min(n, len(e.buf))))
	if err != nil {
		return fmt.Errorf("save: writing the file: the writer failed after %d bytes (what it holds is not a whole save file): %w", s.n, err)
	}
	if cap(e.buf) > 4*flushAt { // a large entity or the head grew it: give that back
		e.buf = make([]byte, 0, flushAt+flushAt/4)
	} else {
		e.buf = e.buf[:0]
	}
	return nil
}
