package utility

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/internal/plan"
	"github.com/archai-go/archai/internal/jsonkeys"
)

// Errors of [Registry.RegisterInput] and [Registry.LoadJSON], beside those of [New].
var (
	// ErrSyntax is wrapped by every error of a file LoadJSON refuses, beside the
	// sentinel of the problem where there is one (ErrUnknownInput, ErrBadCurve, ...).
	ErrSyntax = errors.New("bad reasoner file")
	// ErrUnknownInput: a consideration names an input no one registered, or a
	// blackboard key its registry's schema does not declare as a number.
	ErrUnknownInput = errors.New("unknown input")
	// ErrUnknownAct: an action names an act no one registered.
	ErrUnknownAct = errors.New("unknown act")
	// ErrActionName: an action of a file without a name, or with the name of an
	// earlier one.
	ErrActionName = errors.New("action name empty or used twice")
	// ErrRegistration: RegisterInput or RegisterAct given an empty name, a nil
	// function or a name registered already.
	ErrRegistration = errors.New("bad registration")
)

// Registry is where reasoners authored as data meet Go code: the inputs their
// considerations read and the acts their actions run, registered by name, and the
// blackboard schema whose keys considerations may read by name. Register inputs and
// acts and declare keys, then load files; a Registry is not
// safe for concurrent registration, and the Reasoners it loads are those of [New]
// (shared, safe for concurrent decisions). The zero Registry has no schema: its files
// read no keys.
type Registry struct {
	schema *blackboard.Schema
	inputs map[string]func(agent any) float64
	acts   map[string]func(agent any)
}

// NewRegistry returns a registry whose files may read the keys of schema (a new, empty
// schema if nil), as a consideration's "key".
func NewRegistry(schema *blackboard.Schema) *Registry {
	if schema == nil {
		schema = blackboard.NewSchema()
	}
	return &Registry{schema: schema, inputs: map[string]func(agent any) float64{}}
}

// Schema returns the blackboard schema of the registry; make agent stores from it.
func (r *Registry) Schema() *blackboard.Schema { return r.schema }

// RegisterInput names an input for reasoner files: a function reading a raw fact of
// the agent, as [Consideration].Input (see [Fact] for a typed adapter). It returns an
// error wrapping [ErrRegistration] if name is empty, f is nil or the name is taken.
func (r *Registry) RegisterInput(name string, f func(agent any) float64) error {
	if name == "" || f == nil {
		return fmt.Errorf("utility: RegisterInput(%s): %w: empty name or nil input", plan.Quote(name), ErrRegistration)
	}
	if _, ok := r.inputs[name]; ok {
		return fmt.Errorf("utility: RegisterInput(%s): %w: name taken", plan.Quote(name), ErrRegistration)
	}
	if r.inputs == nil {
		r.inputs = map[string]func(agent any) float64{}
	}
	r.inputs[name] = f
	return nil
}

// RegisterAct names an act for reasoner files: the [Action].Act of the actions whose
// "act" names it, which writes the agent's intent when the action is chosen. It returns
// an error wrapping [ErrRegistration] if name is empty, act is nil or the name is taken.
func (r *Registry) RegisterAct(name string, act func(agent any)) error {
	if name == "" || act == nil {
		return fmt.Errorf("utility: RegisterAct(%s): %w: empty name or nil act", plan.Quote(name), ErrRegistration)
	}
	if _, ok := r.acts[name]; ok {
		return fmt.Errorf("utility: RegisterAct(%s): %w: name taken", plan.Quote(name), ErrRegistration)
	}
	if r.acts == nil {
		r.acts = map[string]func(agent any){}
	}
	r.acts[name] = act
	return nil
}

// LoadJSON builds the reasoner of a JSON reasoner file; file names it in errors. The
// reasoner scores and decides exactly as one built in Go with [New] from the same
// values (the same bits).
//
// The format; every field but the names may be left out, for its zero value:
//
//	{
//	  "name": "villager",                   // the reasoner's name (New's name)
//	  "policy": {"kind": "Softmax",         // Argmax (default), Softmax or TopN
//	             "temperature": 0.2,        // Softmax's T
//	             "n": 0,                    // TopN's N
//	             "hysteresis": 0.15},       // Policy.Hysteresis
//	  "actions": [
//	    {"name": "eat",                     // unique within the file
//	     "weight": 2,                       // Action.Weight: 0 or left out counts as 1
//	     "combine": "Compensated",          // Compensated (default), Product or WeightedSum
//	     "act": "Eat",                      // a registered act; left out: no Act
//	     "considerations": [
//	       {"name": "hungry",
//	        "input": "hunger",              // a registered input, or:
//	        "key": "hunger",                // a number key of the schema (as KeyInput)
//	        "range": {"min": 0, "max": 100}, // both bounds; left out: the zero Range
//	        "curve": {"kind": "Logistic",   // a CurveKind's name (Identity by default)
//	                  "m": 10, "k": 1, "b": 0, "c": 0.5},
//	        "weight": 1,                    // WeightedSum's weight
//	        "veto": false}                  // Consideration.Veto
//	     ]}
//	  ]
//	}
//
// A consideration names exactly one of "input" and "key"; a key's type must be int,
// int8…int64, uint, uint8…uint64, float32 or float64 (a key of a type defined on one,
// such as type Ammo int16, is read with [KeyInput] in Go). Names of kinds are written
// as their String method writes them, case and all.
//
// LoadJSON refuses a file (an error wrapping [ErrSyntax] and naming the file, the line
// and column (of the key of the value refused, of the byte after a number or string of
// the wrong type) and the JSON path of the value: "villager.json:9:10: actions[0].
// considerations[1].curve.kind: unknown curve kind "Sigmoid"") with an unknown field, a
// key written twice in an object (keys match by any case, as encoding/json fills
// "name" from "Name"), content after the document, a number that is no float64 (1e999)
// or no int, an unknown input, key, act, curve, combine or policy name
// ([ErrUnknownInput], [ErrUnknownAct], [ErrBadCurve], [ErrBadCombine], [ErrBadPolicy]), an action without a name or with
// an earlier one's ([ErrActionName]), and everything [New] refuses, with New's sentinel
// ([ErrNoActions], [ErrBadWeight], [ErrBadPolicy], [ErrName], ...): the rules on
// numbers are New's. A UTF-8 byte order mark before the document is skipped (lines and
// columns are counted after it). It never panics.
func (r *Registry) LoadJSON(file string, data []byte) (*Reasoner, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a byte order mark (Windows Notepad); RFC 8259 lets a reader skip it
	l := loader{file: file, data: data}
	var fr fileReasoner
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fr); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn): // Offset is after the byte refused
			return nil, l.at(syn.Offset-1, plan.Clip(err))
		case errors.As(err, &typ):
			field := ""
			if typ.Field != "" {
				field = typ.Field + ": "
			}
			return nil, l.at(typ.Offset, fmt.Errorf("%swant %s, not %s", field, jsonType(typ.Type), plan.Quote(typ.Value)))
		case errors.Is(err, io.EOF):
			return nil, l.at(0, errors.New("no JSON document"))
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, l.at(int64(len(data)), errors.New("the document ends early"))
		}
		if at, key, ok := jsonkeys.Unknown(data, knownFields); ok {
			return nil, l.fail(append(at, jsonkeys.Step{Key: key}), fmt.Errorf("unknown field %s", plan.Quote(key)))
		}
		return nil, l.at(0, plan.Clip(err))
	}
	if line, col, rest, ok := jsonkeys.Trailing(data, dec.InputOffset()); ok {
		return nil, &fileError{file: file, line: line, col: col,
			err: fmt.Errorf("content after the document: %s", plan.Quote(rest))}
	}
	if at, key, dup := jsonkeys.Duplicate(data, func(jsonkeys.Path) bool { return true }); dup {
		return nil, l.fail(append(at, jsonkeys.Step{Key: key}), fmt.Errorf("duplicate key %s", plan.Quote(key)))
	}
	var policy Policy
	if k, ok := kindNamed(fr.Policy.Kind, policyNames[:]); ok {
		policy = Policy{Kind: PolicyKind(k), Temperature: fr.Policy.Temperature, N: fr.Policy.N,
			Hysteresis: fr.Policy.Hysteresis}
	} else {
		return nil, l.fail(path("policy", "kind"), fmt.Errorf("%w: no policy %s (Argmax, Softmax or TopN)", ErrBadPolicy, plan.Quote(fr.Policy.Kind)))
	}
	actions := make([]Action, len(fr.Actions))
	seen := make(map[string]bool, len(fr.Actions))
	for i, fa := range fr.Actions {
		at := path("actions", i)
		if fa.Name == "" || seen[fa.Name] {
			return nil, l.fail(append(at, jsonkeys.Step{Key: "name"}), fmt.Errorf("%w: %s", ErrActionName, plan.Quote(fa.Name)))
		}
		seen[fa.Name] = true
		c, ok := kindNamed(fa.Combine, combineNames[:])
		if !ok {
			return nil, l.fail(append(at, jsonkeys.Step{Key: "combine"}), fmt.Errorf("%w %s (Compensated, Product or WeightedSum)", ErrBadCombine, plan.Quote(fa.Combine)))
		}
		a := Action{Name: fa.Name, Weight: fa.Weight, Combine: Combine(c),
			Considerations: make([]Consideration, len(fa.Considerations))}
		if fa.Act != "" {
			if a.Act = r.acts[fa.Act]; a.Act == nil {
				return nil, l.fail(append(at, jsonkeys.Step{Key: "act"}), fmt.Errorf("%w: no act %s registered", ErrUnknownAct, plan.Quote(fa.Act)))
			}
		}
		for j, fc := range fa.Considerations {
			at := append(at[:len(at):len(at)], jsonkeys.Step{Key: "considerations"}, jsonkeys.Step{Index: j, Array: true})
			cons, err := r.consideration(fc)
			if err != nil {
				return nil, l.fail(append(at, err.steps...), err.err)
			}
			a.Considerations[j] = cons
		}
		actions[i] = a
	}
	rs, where, err := build(fr.Name, policy, actions)
	if err != nil {
		return nil, l.fail(newPath(err, where), plan.Clip(err)) // New quotes names in full
	}
	return rs, nil
}

// consideration resolves a file's consideration: its input, curve and range.
func (r *Registry) consideration(fc fileConsideration) (Consideration, *stepError) {
	c := Consideration{Name: fc.Name, Weight: fc.Weight, Veto: fc.Veto,
		Curve: Curve{M: fc.Curve.M, K: fc.Curve.K, B: fc.Curve.B, C: fc.Curve.C}}
	switch {
	case (fc.Input == "") == (fc.Key == ""):
		return c, &stepError{path("input"), errors.New(`a consideration names one "input" or one "key"`)}
	case fc.Input != "":
		c.Input = r.inputs[fc.Input]
		if c.Input == nil {
			return c, &stepError{path("input"), fmt.Errorf("%w: no input %s registered", ErrUnknownInput, plan.Quote(fc.Input))}
		}
	default:
		in, err := keyInput(r.schema, fc.Key)
		if err != nil {
			return c, &stepError{path("key"), err}
		}
		c.Input = in
	}
	if fc.Range != nil {
		if fc.Range.Min == nil || fc.Range.Max == nil {
			return c, &stepError{path("range"), errors.New(`a range needs "min" and "max"`)}
		}
		c.Range = Range{Min: *fc.Range.Min, Max: *fc.Range.Max}
	}
	k, ok := kindNamed(fc.Curve.Kind, curveNames[:])
	if !ok {
		return c, &stepError{path("curve", "kind"), fmt.Errorf("%w %s", ErrBadCurve, plan.Quote(fc.Curve.Kind))}
	}
	c.Curve.Kind = CurveKind(k)
	return c, nil
}

// keyInput is [KeyInput] of the number key called name of s, whatever its type.
func keyInput(s *blackboard.Schema, name string) (func(agent any) float64, error) {
	var typ reflect.Type
	if s != nil { // the zero Registry's
		typ = s.Type(name)
	}
	if typ == nil {
		return nil, fmt.Errorf("%w: %w: %s is not declared in the registry's schema", ErrUnknownInput, blackboard.ErrUnknownKey, plan.Quote(name))
	}
	switch typ {
	case reflect.TypeFor[float64]():
		return lookupInput[float64](s, name)
	case reflect.TypeFor[float32]():
		return lookupInput[float32](s, name)
	case reflect.TypeFor[int]():
		return lookupInput[int](s, name)
	case reflect.TypeFor[int8]():
		return lookupInput[int8](s, name)
	case reflect.TypeFor[int16]():
		return lookupInput[int16](s, name)
	case reflect.TypeFor[int32]():
		return lookupInput[int32](s, name)
	case reflect.TypeFor[int64]():
		return lookupInput[int64](s, name)
	case reflect.TypeFor[uint]():
		return lookupInput[uint](s, name)
	case reflect.TypeFor[uint8]():
		return lookupInput[uint8](s, name)
	case reflect.TypeFor[uint16]():
		return lookupInput[uint16](s, name)
	case reflect.TypeFor[uint32]():
		return lookupInput[uint32](s, name)
	case reflect.TypeFor[uint64]():
		return lookupInput[uint64](s, name)
	}
	return nil, fmt.Errorf("%w: %w: key %s holds %s, not a number type", ErrUnknownInput, blackboard.ErrTypeMismatch,
		plan.Quote(name), plan.Quote(typ.String()))
}

func lookupInput[T Number](s *blackboard.Schema, name string) (func(agent any) float64, error) {
	k, err := blackboard.Lookup[T](s, name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnknownInput, err)
	}
	return KeyInput(k), nil
}

// jsonType names what a file may write for a value of type t.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct:
		return "an object"
	case reflect.Slice:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int:
		return "an integer"
	}
	return "a finite number"
}

// kindNamed returns the index of name among names; "" is the zero kind.
func kindNamed(name string, names []string) (int, bool) {
	if name == "" {
		return 0, true
	}
	for i, n := range names {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// newPath is the JSON path of the value an error of [New] is about.
func newPath(err error, w place) jsonkeys.Path {
	switch {
	case w.action < 0 && errors.Is(err, ErrBadPolicy) && w.policy != "":
		return path("policy", w.policy)
	case w.action < 0 && errors.Is(err, ErrBadPolicy):
		return path("policy")
	case w.action < 0 && errors.Is(err, ErrName):
		return path("name")
	case w.action < 0:
		return path("actions")
	}
	p := path("actions", w.action)
	if w.consideration >= 0 {
		p = append(p, jsonkeys.Step{Key: "considerations"}, jsonkeys.Step{Index: w.consideration, Array: true})
	}
	if errors.Is(err, ErrBadWeight) {
		p = append(p, jsonkeys.Step{Key: "weight"})
	}
	return p
}

// path builds a JSON path of keys (strings) and indices (ints).
func path(steps ...any) jsonkeys.Path {
	p := make(jsonkeys.Path, 0, len(steps)+4)
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

// loader places the errors of one file.
type loader struct {
	file string
	data []byte
}

// fail is err about the value at p: at its line and column, or at those of the
// nearest enclosing value the file writes (p's own key may be missing).
func (l *loader) fail(p jsonkeys.Path, err error) error {
	if line, col, ok := jsonkeys.LocateNearest(l.data, p); ok {
		return &fileError{file: l.file, line: line, col: col, path: p.String(), err: err}
	}
	return &fileError{file: l.file, path: p.String(), err: err}
}

// at is err at byte offset off of the file (the end of the value encoding/json read).
func (l *loader) at(off int64, err error) error {
	i := int(min(max(off, 0), int64(len(l.data))))
	line := 1 + bytes.Count(l.data[:i], []byte("\n"))
	col := 1 + utf8.RuneCount(l.data[bytes.LastIndexByte(l.data[:i], '\n')+1:i])
	return &fileError{file: l.file, line: line, col: col, err: err}
}

// fileError is an error of a file LoadJSON refuses: "utility: file:line:col: path:
// err", wrapping ErrSyntax and err.
type fileError struct {
	file      string
	line, col int // 0 if not known
	path      string
	err       error
}

func (e *fileError) Error() string {
	var b strings.Builder
	b.WriteString("utility: ")
	b.WriteString(e.file)
	if e.line > 0 {
		b.WriteString(":" + strconv.Itoa(e.line) + ":" + strconv.Itoa(e.col))
	}
	b.WriteString(": ")
	if e.path != "" {
		b.WriteString(e.path + ": ")
	}
	b.WriteString(strings.TrimPrefix(e.err.Error(), "utility: "))
	return b.String()
}

func (e *fileError) Unwrap() []error { return []error{ErrSyntax, e.err} }

// stepError is an error of a consideration, at steps from it.
type stepError struct {
	steps jsonkeys.Path
	err   error
}

type fileReasoner struct {
	Name    string       `json:"name"`
	Policy  filePolicy   `json:"policy"`
	Actions []fileAction `json:"actions"`
}

type filePolicy struct {
	Kind        string  `json:"kind"`
	Temperature float64 `json:"temperature"`
	N           int     `json:"n"`
	Hysteresis  float64 `json:"hysteresis"`
}

type fileAction struct {
	Name           string              `json:"name"`
	Weight         float64             `json:"weight"`
	Combine        string              `json:"combine"`
	Act            string              `json:"act"`
	Considerations []fileConsideration `json:"considerations"`
}

type fileConsideration struct {
	Name   string     `json:"name"`
	Input  string     `json:"input"`
	Key    string     `json:"key"`
	Range  *fileRange `json:"range"`
	Curve  fileCurve  `json:"curve"`
	Weight float64    `json:"weight"`
	Veto   bool       `json:"veto"`
}

type fileRange struct {
	Min *float64 `json:"min"`
	Max *float64 `json:"max"`
}

type fileCurve struct {
	Kind string  `json:"kind"`
	M    float64 `json:"m"`
	K    float64 `json:"k"`
	B    float64 `json:"b"`
	C    float64 `json:"c"`
}

// knownFields returns the fields of the object at p of a reasoner file.
func knownFields(p jsonkeys.Path) []string {
	switch {
	case p.Is():
		return []string{"name", "policy", "actions"}
	case p.Is("policy"):
		return []string{"kind", "temperature", "n", "hysteresis"}
	case p.Is("actions", "[]"):
		return []string{"name", "weight", "combine", "act", "considerations"}
	case p.Is("actions", "[]", "considerations", "[]"):
		return []string{"name", "input", "key", "range", "curve", "weight", "veto"}
	case p.Is("actions", "[]", "considerations", "[]", "range"):
		return []string{"min", "max"}
	case p.Is("actions", "[]", "considerations", "[]", "curve"):
		return []string{"kind", "m", "k", "b", "c"}
	}
	return nil
}
