package save

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/archai-go/archai/internal/jsonkeys"
	arche "github.com/mlange-42/arche/ecs"
)

// LoadFrom is [Load] reading the file from r as it goes (a gzip.Reader, a file, a
// network connection): it takes what Load takes and refuses what Load refuses, to the
// same world, without holding the file. See [LoadIntoFrom].
func LoadFrom(r io.Reader, reg Registry) (*Loaded, error) {
	world := arche.NewWorld()
	return LoadIntoFrom(r, reg, &world)
}

// LoadIntoFrom is [LoadInto] reading the file from r as it goes. It reads the fields
// before the components (the format, version, grid, types and entity pool: Save
// writes them first), then decodes each entity's components as they are read and adds
// them to w, so it holds an entity's text at a time, never the file: the peak is the
// world built and the garbage of decoding, where Load's caller holds the file besides.
// The fingerprints of the trees, machines, reasoners and planner domains (written
// after the components) are checked at the end, each named at the first entity that
// uses it, as Load names it. A file whose components come before those fields (not one
// Save writes) loads too, its components held until the fields are read.
//
// It returns Load's errors, of the same kind (errors.Is) as Load's for the same file
// (the words differ only where the document does not parse), and reads r to the end of
// the document even after a fault in it, so that of a file with several faults it names
// the one Load names (a broken document first, then in Load's order of checks; a file
// whose fields Save would not have written in that order may name another). A file
// cut short (r ends early) is an error wrapping ErrFormat naming where it ends
// ("load: components[812]: not a whole archai save file: unexpected EOF: the file ends
// at byte 1954302"); an error of r's Read is returned wrapped (errors.Is finds it) with the
// bytes read before it (io.ErrUnexpectedEOF, a gzip stream cut short, wraps ErrFormat
// too). r is read past the document's end only as far as Load's check for data after
// it needs (the next byte that is not white space); a gzip.Reader is read to its end
// there, so its checksum is checked. It panics, as LoadInto, if w has entities.
func LoadIntoFrom(r io.Reader, reg Registry, w *arche.World) (l *Loaded, err error) {
	if d := w.DumpEntities(); len(d.Entities) > 1 || d.Available > 0 {
		panic("save: LoadIntoFrom needs a world that never had an entity")
	}
	defer func() {
		if r := recover(); r != nil { // a check missed something: still an error, not a crash
			l, err = nil, fmt.Errorf("load: %w: %w: %v", ErrFormat, errRecovered, r)
		}
	}()
	in := &readCount{r: r}
	s := &streamLoad{ld: &loading{w: w}, reg: reg, in: in, dec: json.NewDecoder(in), keys: map[string]bool{}}
	s.dec.UseNumber() // a number where the document should be is named as such
	return s.run()
}

// readCount is a reader that counts the bytes read and keeps the first error other
// than io.EOF, which json.Decoder would report as its own.
type readCount struct {
	r   io.Reader
	n   int64
	err error
}

func (c *readCount) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// The steps of a load, in the order Load takes them: of a file with several faults,
// LoadFrom returns the fault of the earliest step, as Load does.
const (
	stepDuplicate = iota // a key twice (Load checks the whole document first)
	stepHead             // format, version, grid, entity pool
	stepCount            // the components of as many entities as are alive
	stepTypes            // the component types, the pool loaded
	stepClock
	stepEntity // an entity's components (the fingerprints of the IDs used before it first)
	stepTargets
	steps
)

// streamLoad is a load reading the file as it goes.
type streamLoad struct {
	ld  *loading
	reg Registry
	in  *readCount
	dec *json.Decoder
	f   file

	keys     map[string]bool // the document's keys, folded: a key twice is refused
	seen     [fieldCount]bool
	errs     [steps]error
	started  bool              // the steps before the entities are done (or failed)
	pending  []json.RawMessage // components read before the fields they need
	entities int               // elements of components read
	failedAt int               // the entity whose error is errs[stepEntity]
}

// The document's fields LoadFrom reads, by index.
const (
	fieldFormat = iota
	fieldVersion
	fieldMeta
	fieldClock
	fieldGrid
	fieldTypes
	fieldWorld
	fieldComponents
	fieldSystems
	fieldLeftOut
	fieldTargets
	fieldDefinitions
	fieldCount
)

var fieldNames = [fieldCount]string{"format", "version", "meta", "clock", "grid", "types", "world", "components", "systems", "left_out", "targets", "definitions"}

// fieldOf returns the field key names, matched by any case as encoding/json matches a
// struct's fields, or -1.
func fieldOf(key string) int {
	for i, name := range fieldNames {
		if strings.EqualFold(key, name) {
			return i
		}
	}
	return -1
}

// foldKey returns key in a form equal for keys strings.EqualFold finds equal.
func foldKey(key string) string {
	var b strings.Builder
	for _, r := range key {
		if r < utf8.RuneSelf {
			b.WriteRune(unicode.ToUpper(r))
			continue
		}
		for { // the smallest rune of r's fold orbit
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		b.WriteRune(r)
	}
	return b.String()
}

// syntax returns the error of reading the document at where: r's own error, wrapped,
// or ErrFormat with the decoder's words and the byte it ended at.
func (s *streamLoad) syntax(where string, err error) error {
	if s.in.err != nil {
		if errors.Is(s.in.err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("load: %s: %w: reading the file failed after %d bytes: %w", where, ErrFormat, s.in.n, s.in.err)
		}
		return fmt.Errorf("load: %s: reading the file failed after %d bytes: %w", where, s.in.n, s.in.err)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("load: %s: %w: %v: the file ends at byte %d", where, ErrFormat, io.ErrUnexpectedEOF, s.in.n)
	}
	return fmt.Errorf("load: %s: %w: %v (near byte %d)", where, ErrFormat, err, s.dec.InputOffset())
}

// fail records err as the fault of step, unless one is recorded there already.
func (s *streamLoad) fail(step int, err error) {
	if s.errs[step] == nil {
		s.errs[step] = err
	}
}

// failed reports whether a fault is recorded (the world is no longer built; the
// document is still read, for a fault Load would give first).
func (s *streamLoad) failed() bool {
	for _, err := range s.errs {
		if err != nil {
			return true
		}
	}
	return false
}

// duplicate records a key twice in raw, the value of the document's key (the path of
// raw in the document), as Load's duplicateKey words it.
func (s *streamLoad) duplicate(raw []byte, prefix jsonkeys.Path) {
	at, key, dup := jsonkeys.Duplicate(raw, func(p jsonkeys.Path) bool {
		return foldedKeys(append(prefix[:len(prefix):len(prefix)], p...))
	})
	if dup {
		s.fail(stepDuplicate, fmt.Errorf("load: %w: %s holds the key %q twice", ErrFormat, orDocument(append(prefix[:len(prefix):len(prefix)], at...)), key))
	}
}

func (s *streamLoad) run() (*Loaded, error) {
	tok, err := s.dec.Token()
	if err != nil {
		return nil, s.syntax("the document", err)
	}
	switch tok {
	case nil: // null: a document of no fields, refused for its format below
	case json.Delim('{'):
		for s.dec.More() {
			if err := s.field(); err != nil {
				return nil, err
			}
		}
		if _, err := s.dec.Token(); err != nil {
			return nil, s.syntax("the document", err)
		}
	default:
		return nil, fmt.Errorf("load: %w: the document is %s, not an object", ErrFormat, describeToken(tok))
	}
	if s.dec.More() { // as Load: only white space may follow (More reads up to it)
		return nil, fmt.Errorf("load: %w: data after the document", ErrFormat)
	}
	if s.in.err != nil { // a reader failing at its end (a gzip stream's checksum)
		return nil, s.syntax("the end of the document", s.in.err)
	}
	if !s.started {
		s.start()
		for i, raw := range s.pending {
			s.pending[i] = nil
			s.entity(i, raw)
		}
	}
	if headDone := s.ld.d != nil; headDone {
		if s.entities != len(s.ld.pool.Alive) { // Load checks it before the types
			s.errs[stepCount] = s.ld.count(s.entities)
		}
		if s.ld.typeOf != nil && s.ld.savedClock == nil && s.f.Clock != nil && s.errs[stepTypes] == nil {
			s.fail(stepClock, s.ld.clock(&s.f)) // a clock after the components: set now
		}
		// the fingerprints of the IDs used up to the failing entity, or of all
		upTo := s.entities
		if s.errs[stepEntity] != nil {
			upTo = s.failedAt
		}
		if s.ld.r.deferred && s.errs[stepDuplicate] == nil && s.errs[stepCount] == nil && s.errs[stepTypes] == nil && s.errs[stepClock] == nil {
			if err := s.ld.r.checkUses(s.f.Definitions, upTo); err != nil {
				return nil, err
			}
		}
	}
	for _, err := range s.errs {
		if err != nil {
			return nil, err
		}
	}
	if err := s.ld.targets(&s.f, s.entities); err != nil {
		return nil, err
	}
	return s.ld.done(&s.f), nil
}

// field reads one field of the document: its key and value.
func (s *streamLoad) field() error {
	kt, err := s.dec.Token()
	if err != nil {
		return s.syntax("the document", err)
	}
	key, _ := kt.(string)
	if k := foldKey(key); s.keys[k] {
		s.fail(stepDuplicate, fmt.Errorf("load: %w: the document holds the key %q twice", ErrFormat, key))
	} else {
		s.keys[k] = true
	}
	i := fieldOf(key)
	if i == fieldComponents {
		return s.components(key, s.seen[i])
	}
	var raw json.RawMessage
	if err := s.dec.Decode(&raw); err != nil {
		return s.syntax(jsonkeys.Path{{Key: key}}.String(), err)
	}
	s.duplicate(raw, jsonkeys.Path{{Key: key}})
	if i < 0 { // a field Load ignores
		return nil
	}
	s.seen[i] = true
	f := &s.f
	var into any
	switch i {
	case fieldFormat:
		into = &f.Format
	case fieldVersion:
		into = &f.Version
	case fieldMeta:
		into = &f.Meta
	case fieldClock:
		into = &f.Clock
	case fieldGrid:
		into = &f.Grid
	case fieldTypes:
		into = &f.Types
	case fieldWorld:
		into = &f.World
	case fieldSystems:
		into = &f.Systems
	case fieldLeftOut:
		into = &f.LeftOut
	case fieldTargets:
		into = &f.Targets
	case fieldDefinitions:
		into = &f.Definitions
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("load: %w: %v", ErrFormat, err) // as Load's parse of the document
	}
	return nil
}

// ready reports whether the fields the entities need are read: format, version, grid,
// types and the entity pool (Save writes them before the components; the grid is
// absent from files written before grids were fingerprinted, which then wait).
func (s *streamLoad) ready() bool {
	return s.seen[fieldFormat] && s.seen[fieldVersion] && s.seen[fieldGrid] && s.seen[fieldTypes] && s.seen[fieldWorld]
}

// start takes the steps before the entities: head, types, clock (the count is checked
// as the components are read), recording a fault.
func (s *streamLoad) start() {
	s.started = true
	if s.failed() {
		return
	}
	if err := s.ld.head(&s.f, s.reg); err != nil {
		s.fail(stepHead, err)
		return
	}
	if !s.seen[fieldDefinitions] {
		s.ld.r.deferred = true // checked at the end (checkUses)
	}
	if err := s.ld.types(&s.f, s.reg); err != nil {
		s.fail(stepTypes, err)
		return
	}
	if err := s.ld.clock(&s.f); err != nil {
		s.fail(stepClock, err)
	}
}

// entity adds the i-th entity, or records its fault.
func (s *streamLoad) entity(i int, raw json.RawMessage) {
	if s.failed() {
		return
	}
	if i >= len(s.ld.pool.Alive) {
		s.fail(stepCount, errors.New("more components than alive entities")) // run's count error replaces it
		return
	}
	if err := s.ld.entity(i, raw); err != nil {
		s.fail(stepEntity, err)
		s.failedAt = i
	}
}

// components reads the components array (under key), an entity at a time; again: the
// document holds it twice (refused), so this one is only read.
func (s *streamLoad) components(key string, again bool) error {
	s.seen[fieldComponents] = true
	tok, err := s.dec.Token()
	if err != nil {
		return s.syntax(key, err)
	}
	if tok == nil { // null: no entities
		return nil
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("load: %w: %s is %s, not an array", ErrFormat, key, describeToken(tok))
	}
	if !again && !s.started && (s.ready() || s.failed()) {
		s.start()
	}
	for i := 0; s.dec.More(); i++ {
		var raw json.RawMessage
		where := jsonkeys.Path{{Key: key}, {Index: i, Array: true}}
		if err := s.dec.Decode(&raw); err != nil {
			return s.syntax(where.String(), err)
		}
		s.duplicate(raw, where)
		if again {
			continue
		}
		s.entities++
		if s.started {
			s.entity(i, raw)
		} else {
			s.pending = append(s.pending, raw)
		}
	}
	if _, err := s.dec.Token(); err != nil {
		return s.syntax(key, err)
	}
	return nil
}
