package htn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/internal/plan"
	"github.com/archai-go/archai/internal/jsonkeys"
)

// ID names a domain in a [Registry]; 0 is no domain.
type ID uint16

// Registry holds operators and sensors by name, for domains loaded from files, and
// domains by ID (from 1, in the order added) and name: agents' components store the name
// (the truth, saved) and cache the ID ([Registry.Resolve]).
// Register operators, then load or add domains, before agents use them; a Registry is
// safe for concurrent reads.
type Registry struct {
	operators map[string]operator
	sensors   map[string]func(c *Context)
	domains   plan.Registry[*Domain]
}

type operator struct {
	run  Operator
	halt func(c *Context)
}

// RegisterOperator names an operator (and its halt hook, nil for none) for domain files.
// It returns an error if name is empty, run is nil or the name is taken.
func (r *Registry) RegisterOperator(name string, run Operator, halt func(c *Context)) error {
	if name == "" || run == nil {
		return fmt.Errorf("htn: RegisterOperator(%q): empty name or nil operator", name)
	}
	if _, ok := r.operators[name]; ok {
		return fmt.Errorf("htn: RegisterOperator(%q): %w", name, ErrName)
	}
	if r.operators == nil {
		r.operators = map[string]operator{}
	}
	r.operators[name] = operator{run, halt}
	return nil
}

// RegisterSensor names a sensor (see [Builder.Sense]) for domain files.
func (r *Registry) RegisterSensor(name string, fn func(c *Context)) error {
	if name == "" || fn == nil {
		return fmt.Errorf("htn: RegisterSensor(%q): empty name or nil sensor", name)
	}
	if _, ok := r.sensors[name]; ok {
		return fmt.Errorf("htn: RegisterSensor(%q): %w", name, ErrName)
	}
	if r.sensors == nil {
		r.sensors = map[string]func(c *Context){}
	}
	r.sensors[name] = fn
	return nil
}

// Add adds d and returns its ID. It returns an error if d is nil or a domain of that
// name is registered.
func (r *Registry) Add(d *Domain) (ID, error) {
	id, err := r.domains.Add("htn", d)
	return ID(id), err
}

// Domain returns the domain of id, or nil.
func (r *Registry) Domain(id ID) *Domain {
	return r.shared().Domain(uint16(id))
}

// Lookup returns the ID of the domain called name, or 0 and false.
func (r *Registry) Lookup(name string) (ID, bool) {
	id, ok := r.shared().Lookup(name)
	return ID(id), ok
}

// shared returns r's domains, nil for a nil r.
func (r *Registry) shared() *plan.Registry[*Domain] {
	if r == nil {
		return nil
	}
	return &r.domains
}

// MaxFileSize is the largest domain file [Registry.LoadFile] reads, in bytes.
const MaxFileSize = 64 << 20

// LoadFile reads a domain file (see [Registry.LoadJSON]) and adds its domain. A file of
// more than [MaxFileSize] bytes, or a device that never ends (/dev/zero), is an error,
// read no further than that. Errors name the file by path as given.
func (r *Registry) LoadFile(path string) (ID, error) {
	data, err := readFile(path)
	if err != nil {
		return 0, err
	}
	return r.LoadJSON(path, data)
}

// readFile reads the domain file at path, at most MaxFileSize bytes.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("htn: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("htn: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("htn: %s holds more than MaxFileSize (%d) bytes", path, MaxFileSize)
	}
	return data, nil
}

// LoadJSON builds the domain of a JSON domain file and adds it; file names it in errors.
//
// The format (unknown fields are errors):
//
//	{
//	  "name":   "squad",                    // the domain's name
//	  "facts":  ["enemyVisible", "ammo"],   // the facts, in State order (int32 values, htn.State)
//	  "sensor": "SquadSensor",              // optional: a sensor of the registry
//	  "root":   "Attack",                   // the root task
//	  "tasks": [
//	    {"name": "Attack", "methods": [     // a compound task: methods in order
//	      {"name": "Flank", "if": "enemyVisible && ammo > 0", "tasks": ["Move", "Shoot"]}
//	    ]},
//	    {"name": "Move"},                   // a primitive task run by operator "Move"
//	    {"name": "Shoot",                   // a primitive task
//	     "if": "ammo > 0",                  // optional: a script condition to start
//	     "while": "enemyVisible",           // optional: checked on every think it runs
//	     "effects": "ammo -= 1",            // optional: a script of assignments to facts
//	     "operator": "Shoot"}               // the registered operator; default: the
//	                                        // task's name; "instant": true for none
//	  ]
//	}
//
// Conditions and effects are scripts of package ai/script over the facts; a fact is an
// int32, so an effect's value beyond its range is stored as the nearest end of it
// (ammo = 1e12 stores 2147483647), as [Add] saturates. A task is
// compound if it has "methods", primitive otherwise. Errors name the file, the line and
// column where the offending member is written (its key; an array's element itself; the
// enclosing value when the member is not written, as a defaulted "operator"), and its
// JSON path ("squad.json:12:19: tasks[2].methods[0].if: ..."). A script error adds the
// script's own column, counted within the script's text ("...if: script col 4: ..."),
// not added to the member's. JSON syntax errors name the line (an empty file: "no JSON
// document"; one that ends inside the document: "the document ends early", at its last
// line); a UTF-8 byte order mark before the document is skipped. An unknown field is
// placed at its key and names the object holding it ("squad.json:9:40:
// tasks[3].methods[0]: unknown field "iff""), and so does a key written twice in an
// object, placed at its second writing ("tasks[1].methods[0]: duplicate key "if"";
// encoding/json would silently keep the last; keys are matched by any case, as
// encoding/json fills "if" from "If"). Content after the document but white space (a
// second domain, a stray "}") is an error naming its line and column. An error of the
// domain as a whole (a cycle of compound tasks) names the file only.
//
// Every error of a file the loader refuses (its JSON, or what it says: a task named
// twice, an operator not registered, a script that does not compile, ...) wraps
// [ErrSyntax], beside the sentinel of the problem where there is one ([ErrName],
// [ErrTask], ...). A domain whose name is registered already is not such an error.
func (r *Registry) LoadJSON(file string, data []byte) (ID, error) {
	d, err := r.parse(file, data)
	if err != nil {
		return 0, &fileError{err}
	}
	id, err := r.Add(d)
	if err != nil {
		return 0, inFile(file, err)
	}
	return id, nil
}

// ReloadFile is [Registry.LoadFile] for a domain file loaded before and edited since (a
// designer's hot reload): see [Registry.ReloadJSON].
func (r *Registry) ReloadFile(path string) (ID, error) {
	data, err := readFile(path)
	if err != nil {
		return 0, err
	}
	return r.ReloadJSON(path, data)
}

// ReloadJSON is [Registry.LoadJSON] for a domain loaded before and edited since: the
// domain it builds replaces the registered domain of its name (see [Registry.Replace];
// a name not registered is added) and keeps that domain's ID. The reload is all or
// nothing: a file LoadJSON would refuse (its JSON, an unknown operator, a script that
// does not compile, a cycle, ...) returns that error and leaves the registered domain
// as it was, so a game can show the error and go on with the domain it has.
//
// Agents see the new domain at their next think: systems.HTN halts a plan made by the
// old domain with that domain (its running task's Halt runs) and plans afresh with the
// new one, as when an agent's domain is swapped by name; task IDs of the old plan never
// index the new domain. Call it between frames, not while systems.HTN updates. A
// behavior-tree action made with hybrid.HTNAction or RegisterHTN holds the domain it
// was given and is not reloaded: its agents go on with the old definition (see
// hybrid.HTNAction).
func (r *Registry) ReloadJSON(file string, data []byte) (ID, error) {
	d, err := r.parse(file, data)
	if err != nil {
		return 0, &fileError{err}
	}
	id, err := r.Replace(d)
	if err != nil {
		return 0, inFile(file, err)
	}
	return id, nil
}

// Replace puts d in the place of the registered domain of d's name, keeping its ID, and
// returns the ID; a name not registered is added, as by [Registry.Add]. It returns an
// error if d is nil or, adding, the registry is full. An agent planning with the
// replaced domain is halted by it and plans with d at its next think (see
// [Registry.ReloadJSON]).
//
// Important: the replaced domain stays referenced by r for r's life (agents' components
// may cache it until they think again), so each replacement keeps one more domain in
// memory. Not safe during concurrent reads: call it between frames.
func (r *Registry) Replace(d *Domain) (ID, error) {
	id, _, err := r.domains.Replace("htn", d)
	return ID(id), err
}

// inFile is err of the file named file: "htn: file: " and err's text without its own
// "htn: " prefix (a Builder's or a Registry's error), wrapping err.
func inFile(file string, err error) error {
	return &fileNamed{file: file, err: err}
}

type fileNamed struct {
	file string
	err  error
}

func (e *fileNamed) Error() string {
	return "htn: " + e.file + ": " + strings.TrimPrefix(e.err.Error(), "htn: ")
}

func (e *fileNamed) Unwrap() error { return e.err }

// unprefixed is err without the "htn: " its text may start with (a Builder's error),
// placed after a file's position that says "htn:" already.
type unprefixed struct{ err error }

func (e unprefixed) Error() string { return strings.TrimPrefix(e.err.Error(), "htn: ") }
func (e unprefixed) Unwrap() error { return e.err }

// fileError is an error of a file the loader refuses: its text, wrapping ErrSyntax and
// the error.
type fileError struct{ err error }

func (e *fileError) Error() string   { return e.err.Error() }
func (e *fileError) Unwrap() []error { return []error{ErrSyntax, e.err} }

type fileDomain struct {
	Name   string     `json:"name"`
	Facts  []string   `json:"facts"`
	Sensor string     `json:"sensor"`
	Root   string     `json:"root"`
	Tasks  []fileTask `json:"tasks"`
}

type fileTask struct {
	Name     string       `json:"name"`
	Methods  []fileMethod `json:"methods"`
	If       string       `json:"if"`
	While    string       `json:"while"`
	Effects  string       `json:"effects"`
	Operator string       `json:"operator"`
	Instant  bool         `json:"instant"`
}

type fileMethod struct {
	Name  string   `json:"name"`
	If    string   `json:"if"`
	Tasks []string `json:"tasks"`
}

func (r *Registry) parse(file string, data []byte) (*Domain, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a byte order mark (Windows Notepad); RFC 8259 lets a reader skip it
	l := loader{file: file, data: data}
	var fd fileDomain
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fd); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("htn: %s:%d: %w", file, 1+bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n")), err)
		}
		if errors.Is(err, io.EOF) { // nothing but white space
			return nil, fmt.Errorf("htn: %s:1: no JSON document", file)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("htn: %s:%d: the document ends early (truncated?)", file, 1+bytes.Count(data, []byte("\n")))
		}
		if at, key, ok := jsonkeys.Unknown(data, knownFields); ok {
			return nil, fmt.Errorf("htn: %s: %sunknown field %s", l.locate(at, key), pathPrefix(at), plan.Quote(key))
		}
		return nil, fmt.Errorf("htn: %s: %w", file, plan.Clip(err)) // encoding/json quotes an unknown field in full
	}
	if line, col, rest, ok := jsonkeys.Trailing(data, dec.InputOffset()); ok {
		return nil, fmt.Errorf("htn: %s:%d:%d: content after the document: %s", file, line, col, plan.Quote(rest))
	}
	if at, key, dup := jsonkeys.Duplicate(data, func(jsonkeys.Path) bool { return true }); dup {
		return nil, fmt.Errorf("htn: %s: %sduplicate key %s", l.locate(at, key), pathPrefix(at), plan.Quote(key))
	}
	fail := func(p jsonkeys.Path, err error) (*Domain, error) {
		return nil, fmt.Errorf("htn: %s: %w", l.where(p), unprefixed{err}) // a Builder's error says "htn:" too
	}
	if fd.Name == "" {
		return fail(path("name"), fmt.Errorf("%w: the domain needs a name", ErrName))
	}
	b := NewBuilder(fd.Name)
	for i, f := range fd.Facts {
		if !validIdent(f) {
			return fail(path("facts", i), fmt.Errorf("%w: %s is not an identifier", ErrName, plan.Quote(f)))
		}
		if _, dup := b.factIndex(f); dup {
			return fail(path("facts", i), fmt.Errorf("%w: %s", ErrName, plan.Quote(f)))
		}
		b.Fact(f)
		if len(b.errs) > 0 {
			return fail(path("facts", i), b.errs[0])
		}
	}
	if fd.Sensor != "" {
		fn, ok := r.sensors[fd.Sensor]
		if !ok {
			return fail(path("sensor"), fmt.Errorf("no sensor %s registered", plan.Quote(fd.Sensor)))
		}
		b.Sense(fn)
	}
	ids := map[string]TaskID{}
	for i, t := range fd.Tasks { // declare every task first: methods may name later ones
		at := path("tasks", i)
		if t.Name == "" {
			return fail(child(at, "name"), fmt.Errorf("%w: empty", ErrName))
		}
		if _, dup := ids[t.Name]; dup {
			return fail(child(at, "name"), fmt.Errorf("%w: %s", ErrName, plan.Quote(t.Name)))
		}
		if t.Methods != nil {
			if t.If != "" || t.While != "" || t.Effects != "" || t.Operator != "" || t.Instant {
				return fail(at, fmt.Errorf("compound task %s has a primitive's if, while, effects, operator or instant", plan.Quote(t.Name)))
			}
			ids[t.Name] = b.Compound(t.Name)
			continue
		}
		var p Primitive
		if t.If != "" {
			c, err := b.Script(t.If, l.where(child(at, "if")))
			if err != nil {
				return nil, fmt.Errorf("htn: %w", err)
			}
			p.If = []Condition{c}
		}
		if t.While != "" {
			c, err := b.Script(t.While, l.where(child(at, "while")))
			if err != nil {
				return nil, fmt.Errorf("htn: %w", err)
			}
			p.While = []Condition{c}
		}
		if t.Effects != "" {
			e, err := b.ScriptEffect(t.Effects, l.where(child(at, "effects")))
			if err != nil {
				return nil, fmt.Errorf("htn: %w", err)
			}
			p.Effects = []Effect{e}
		}
		switch {
		case t.Instant && t.Operator != "":
			return fail(at, fmt.Errorf("task %s has both an operator and instant", plan.Quote(t.Name)))
		case !t.Instant:
			name := t.Operator
			if name == "" {
				name = t.Name
			}
			op, ok := r.operators[name]
			if !ok {
				return fail(child(at, "operator"), fmt.Errorf("no operator %s registered (register it, or set \"instant\": true for a task that succeeds at once)", plan.Quote(name)))
			}
			p.Run, p.Halt = op.run, op.halt
		}
		ids[t.Name] = b.Primitive(t.Name, p)
	}
	for i, t := range fd.Tasks {
		if t.Methods == nil {
			continue
		}
		if len(t.Methods) == 0 {
			return fail(path("tasks", i, "methods"), fmt.Errorf("%w: %s", ErrNoMethod, plan.Quote(t.Name)))
		}
		for j, m := range t.Methods {
			at := path("tasks", i, "methods", j)
			meth := Method{Name: m.Name}
			if m.If != "" {
				c, err := b.Script(m.If, l.where(child(at, "if")))
				if err != nil {
					return nil, fmt.Errorf("htn: %w", err)
				}
				meth.If = []Condition{c}
			}
			if len(m.Tasks) == 0 {
				return fail(child(at, "tasks"), errors.New("a method needs at least one task"))
			}
			for k, name := range m.Tasks {
				id, ok := ids[name]
				if !ok {
					return fail(path("tasks", i, "methods", j, "tasks", k), fmt.Errorf("%w %s", ErrTask, plan.Quote(name)))
				}
				meth.Tasks = append(meth.Tasks, id)
			}
			b.Method(ids[t.Name], meth)
		}
	}
	root, ok := ids[fd.Root]
	if !ok {
		return fail(path("root"), fmt.Errorf("%w: %s is not a task of the file", ErrNoRoot, plan.Quote(fd.Root)))
	}
	b.Root(root)
	d, err := b.Build()
	if err != nil {
		return nil, inFile(file, err)
	}
	return d, nil
}

// knownFields returns the fields of the object at p of a domain file, nil for a value
// that is no object of the format.
func knownFields(p jsonkeys.Path) []string {
	switch {
	case p.Is():
		return []string{"name", "facts", "sensor", "root", "tasks"}
	case p.Is("tasks", "[]"):
		return []string{"name", "methods", "if", "while", "effects", "operator", "instant"}
	case p.Is("tasks", "[]", "methods", "[]"):
		return []string{"name", "if", "tasks"}
	}
	return nil
}

// pathPrefix is "tasks[3].methods[0]: " for an object's path, "" for the document's.
func pathPrefix(p jsonkeys.Path) string {
	if len(p) == 0 {
		return ""
	}
	return p.String() + ": "
}

func (b *Builder) factIndex(name string) (Fact, bool) {
	for i, f := range b.facts {
		if f == name {
			return Fact(i), true
		}
	}
	return 0, false
}

func validIdent(s string) bool {
	if s == "" || s == "true" || s == "false" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && !(i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// path builds a JSON path of keys (strings) and indices (ints).
func path(steps ...any) jsonkeys.Path {
	p := make(jsonkeys.Path, 0, len(steps))
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			p = append(p, jsonkeys.Step{Key: s})
		case int:
			p = append(p, jsonkeys.Step{Index: s, Array: true})
		}
	}
	return p
}

// child is the path of the member key of the object at p, sharing nothing with p.
func child(p jsonkeys.Path, key string) jsonkeys.Path {
	return append(p[:len(p):len(p)], jsonkeys.Step{Key: key})
}

// loader places the errors of one domain file.
type loader struct {
	file string
	data []byte
}

// pos is "file:line:col" of the member at p (its key; an array's element itself), or
// of the nearest enclosing value the file writes (p's own key may be missing: an
// operator named after its task); "file" when none is found.
func (l *loader) pos(p jsonkeys.Path) string {
	if line, col, ok := jsonkeys.LocateNearest(l.data, p); ok {
		return l.file + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
	}
	return l.file
}

// where is "file:line:col: path" for an error of the value at p.
func (l *loader) where(p jsonkeys.Path) string {
	if len(p) == 0 {
		return l.pos(p)
	}
	return l.pos(p) + ": " + p.String()
}

// locate is "file:line:col" of key in the object at p (an unknown or a twice written
// key: of the latter, its last).
func (l *loader) locate(p jsonkeys.Path, key string) string {
	return l.pos(child(p, key))
}
