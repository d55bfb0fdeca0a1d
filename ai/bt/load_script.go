package bt

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/script"
)

// RegisterEnum registers a named integer constant for the scripts of the trees built
// afterwards (BehaviorTree.CPP's registerScriptingEnum): <Script code="weapon := RIFLE"/>.
// A name shadows a blackboard entry of the same name in scripts (@name still names the
// entry). It returns an error wrapping ErrRegistration if name is not an identifier
// (a letter or _, then letters, digits or _) or is already registered with another
// value.
func (r *Registry) RegisterEnum(name string, value int) error {
	ok := name != ""
	for i := 0; i < len(name) && ok; i++ {
		c := name[i]
		ok = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
	}
	if !ok {
		return fmt.Errorf("bt: register enum %s: %w: not an identifier", quote(name), ErrRegistration)
	}
	if v, dup := r.enums[name]; dup && v != value {
		return fmt.Errorf("bt: register enum %s: %w: already registered as %d", quote(name), ErrRegistration, v)
	}
	if r.enums == nil {
		r.enums = map[string]int{}
	}
	r.enums[name] = value
	return nil
}

// pendingScript is a script attribute waiting to be compiled.
type pendingScript struct {
	index   int    // order of appearance, for the order of errors
	attr    string // attribute name
	src     string
	cond    bool // the value is a condition
	sc      *scope
	d       *defNode
	set     func(*script.Program)
	err     error
	missing string // the key an unknown-entry error was about, if known
}

// conditions reads the pre- and post-condition attributes of the node being built and
// queues their scripts. It returns the conds to attach to the built node (nil if none).
func (p *Ports) conditions() *conds {
	var c *conds
	for k, name := range condNames {
		v, ok := p.attr(name)
		if !ok {
			continue
		}
		if c == nil {
			c = &conds{}
		}
		p.queueScript(name, v, k < condOnSuccess, func(prog *script.Program) { c[k] = prog })
	}
	return c
}

// script queues the script of attribute name, which the node must have.
func (p *Ports) script(name string, cond bool, set func(*script.Program)) {
	v, ok := p.attr(name)
	if !ok {
		p.fail(fmt.Errorf("%w: missing port %q (a script)", ErrPort, name))
		return
	}
	p.queueScript(name, v, cond, set)
}

func (p *Ports) queueScript(name, src string, cond bool, set func(*script.Program)) {
	b := p.b
	b.scripts = append(b.scripts, &pendingScript{index: len(b.scripts), attr: name, src: src, cond: cond, sc: p.sc, d: p.d, set: set})
}

// scriptNode builds <Script code="…"/>.
func scriptNode(p *Ports, _ []*Node) *Node {
	n := &Node{kind: kindScript}
	p.script("code", false, func(prog *script.Program) { n.prog = prog })
	return n
}

// scriptConditionNode builds <ScriptCondition code="…"/>.
func scriptConditionNode(p *Ports, _ []*Node) *Node {
	n := &Node{kind: kindScriptCondition}
	p.script("code", true, func(prog *script.Program) { n.prog = prog })
	return n
}

// preconditionNode builds <Precondition if="…" else="SUCCESS|FAILURE|SKIPPED">child</…>. A
// run-time error of the script counts as false (the else status) and is counted by
// [Context.ScriptErrors].
func preconditionNode(p *Ports, k []*Node) *Node {
	other := Failure
	switch v, _ := p.attr("else"); v {
	case "", "FAILURE":
	case "SUCCESS":
		other = Success
	case "SKIPPED":
		other = Skipped
	default:
		p.fail(fmt.Errorf("%w: else=%s, want SUCCESS, FAILURE or SKIPPED", ErrPort, quote(v)))
	}
	n := Precondition("", nil, other, k[0])
	p.script("if", true, func(prog *script.Program) { n.cond = scriptCond(prog) })
	return n
}

// scriptCond is a condition function evaluating prog; an error counts as false.
func scriptCond(prog *script.Program) func(*Context) bool {
	return func(c *Context) bool {
		ok, err := prog.Bool(c.Blackboard)
		if err != nil {
			c.scriptFailed(int32(c.node), err)
			return false
		}
		return ok
	}
}

// compileScripts compiles the queued scripts and runs the deferred bindings of the
// blackboard nodes (b.later), in the order described above.
func (b *builder) compileScripts() {
	schema := b.reg.schema
	later := append(b.textPorts, b.later...)
	b.later, b.textPorts = nil, nil
	b.deferring = true
	defer func() { b.deferring = false }()
	queue := b.scripts
	waiting := map[string][]*pendingScript{}
	var waitAny []*pendingScript // unknown entry, key not known: retried on any declaration
	var broken []*pendingScript  // failed for another cause (reported at once): they declare nothing
	for {
		for len(queue) > 0 {
			ps := queue[0]
			queue = queue[1:]
			before := schema.Len()
			prog, err := b.compileScript(ps)
			for i := before; i < schema.Len(); i++ { // wake the scripts waiting for new entries
				name := schema.Name(i)
				queue = append(queue, waiting[name]...)
				delete(waiting, name)
			}
			if schema.Len() > before {
				queue = append(queue, waitAny...)
				waitAny = nil
			}
			switch {
			case err == nil:
				ps.set(prog)
			case errors.Is(err, script.ErrUnknownEntry):
				ps.err = err
				if ps.missing != "" && schema.Type(ps.missing) == nil {
					waiting[ps.missing] = append(waiting[ps.missing], ps)
				} else {
					waitAny = append(waitAny, ps)
				}
			default:
				broken = append(broken, ps)
				b.fail(ps.d.pos, ps.d.label(), err)
			}
		}
		if later == nil {
			break
		}
		before := schema.Len()
		for _, f := range later {
			f()
		}
		later = nil
		if schema.Len() == before {
			break
		}
		// Retry every waiting script, in order.
		for _, w := range waiting {
			queue = append(queue, w...)
		}
		queue = append(queue, waitAny...)
		clear(waiting)
		waitAny = nil
		slices.SortFunc(queue, func(a, b *pendingScript) int { return a.index - b.index })
	}
	var failed []*pendingScript
	for _, w := range waiting {
		failed = append(failed, w...)
	}
	failed = append(failed, waitAny...)
	slices.SortFunc(failed, func(a, b *pendingScript) int { return a.index - b.index })
	broken = append(broken, failed...)
	for _, ps := range failed {
		err := ps.err
		if from := declaredBy(ps.missing, ps, broken); from != nil {
			err = fmt.Errorf("%w (this follows from the error at %s: the script there declares %q and does not compile; fix that one first)",
				err, from.d.pos, ps.missing)
		}
		b.fail(ps.d.pos, ps.d.label(), err)
	}
}

// declaredBy returns the first script of broken other than ps whose source declares key
// (key := …, by name in its scope), or nil: a script that does not compile declares
// nothing, so ps's unknown entry key follows from that script's error.
func declaredBy(key string, ps *pendingScript, broken []*pendingScript) *pendingScript {
	if key == "" {
		return nil
	}
	var first *pendingScript
	for _, o := range broken {
		if o == ps || first != nil && o.index > first.index {
			continue
		}
		for _, name := range declaredNames(bareNames(o.src)) {
			k := name
			if root, ok := strings.CutPrefix(name, "@"); ok {
				k = root
			} else if o.sc != nil {
				var isLit bool
				if k, _, isLit = o.sc.resolve(name); isLit {
					continue
				}
			}
			if k == key {
				first = o
				break
			}
		}
	}
	return first
}

// declaredNames returns the names src declares: each identifier (with its @ if any)
// followed by := outside string literals.
func declaredNames(src string) []string {
	var names []string
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'':
			inString = !inString
		case inString:
		case c == '@' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			k := j
			for k < len(src) && src[k] == ' ' {
				k++
			}
			if strings.HasPrefix(src[k:], ":=") && (c != '@' || j > i+1) {
				names = append(names, src[i:j])
			}
			i = j - 1
		case c >= '0' && c <= '9':
			for i+1 < len(src) && (src[i+1] == '.' || src[i+1] == '_' || src[i+1] >= '0' && src[i+1] <= '9' || src[i+1] >= 'a' && src[i+1] <= 'z' || src[i+1] >= 'A' && src[i+1] <= 'Z') {
				i++ // a number (1e5, 0x1f): no identifier within
			}
		}
	}
	return names
}

// compileScript compiles one queued script in its scope.
func (b *builder) compileScript(ps *pendingScript) (*script.Program, error) {
	schema := b.reg.schema
	ps.missing = ""
	if b.enums == nil && len(b.reg.enums) > 0 {
		// The tree's programs keep this copy: enums registered later do not change them.
		b.enums = maps.Clone(b.reg.enums)
	}
	env := &script.Env{
		Schema: schema,
		Enums:  b.enums,
		Where:  ps.attr,
		Resolve: func(name string, root bool) (script.Binding, error) {
			key := name
			if !root {
				k, lit, isLit := ps.sc.resolve(name)
				if isLit {
					return script.Binding{Const: literalScriptValue(lit), IsConst: true}, nil
				}
				key = k
			}
			if schema.Type(key) == nil {
				ps.missing = key
			}
			b.wroteKey(key) // a script may assign it (reads of a key nobody declares fail to compile)
			return script.Binding{Key: key}, nil
		},
	}
	prog, err := script.Compile(bareNames(ps.src), env)
	if err != nil {
		return nil, scriptLoadError{err}
	}
	if ps.cond && prog.Kind() == script.String {
		return nil, scriptLoadError{fmt.Errorf("%s: the script's value is a string, not a condition", ps.attr)}
	}
	return prog, nil
}

// scriptLoadError is a script attribute that does not compile. A script attribute is a
// port of its node, so the error wraps ErrPort as well as ErrScript and the cause (a
// [*script.Error]).
type scriptLoadError struct{ err error }

func (e scriptLoadError) Error() string   { return ErrScript.Error() + ": " + e.err.Error() }
func (e scriptLoadError) Unwrap() []error { return []error{ErrScript, ErrPort, e.err} }

// literalScriptValue is the script value of a SubTree port remapped to a literal: a
// boolean, an integer, a real number, else the string.
func literalScriptValue(s string) script.Value {
	t := strings.TrimSpace(s)
	switch t {
	case "true":
		return script.BoolValue(true)
	case "false":
		return script.BoolValue(false)
	}
	if i, err := strconv.ParseInt(t, 10, 64); err == nil {
		return script.IntValue(i)
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		return script.FloatValue(f)
	}
	return script.StringValue(s)
}

// bareNames returns src with the braces of every {name} (outside string literals)
// replaced by spaces, so columns in errors stay those of src.
func bareNames(src string) string {
	if !strings.Contains(src, "{") {
		return src
	}
	b := []byte(src)
	inString := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\'':
			inString = !inString
		case b[i] == '{' && !inString:
			j := i + 1
			for j < len(b) && b[j] == ' ' {
				j++
			}
			start := j
			if j < len(b) && b[j] == '@' {
				j++
			}
			for j < len(b) && (b[j] == '_' || b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z' || j > start && b[j] >= '0' && b[j] <= '9') {
				j++
			}
			ident := j > start && !(b[start] >= '0' && b[start] <= '9')
			for j < len(b) && b[j] == ' ' {
				j++
			}
			if ident && j < len(b) && b[j] == '}' {
				b[i], b[j] = ' ', ' '
				i = j
			}
		}
	}
	return string(b)
}
