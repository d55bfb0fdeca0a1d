package bt

import "github.com/archai-go/archai/ai/blackboard"

// In is an input port: where a leaf reads a value, bound either to a literal or to a
// blackboard key. The zero In is unbound: Get reports it missing.
//
// A string port loaded from a file reads an entry of another type as text, as
// BehaviorTree.CPP converts any entry for a std::string port: a boolean as "true" or
// "false", an integer in decimal, a float in the shortest form that reads back
// (strconv's 'g': 3.14, 42, 1e+21), the way ai/script formats its values; a type that
// is not a boolean, number or string is a load error. Such a port's Get allocates the
// text, except for booleans and the integers 0–99: the tree and its ports are shared by
// every agent and worker, so there is no per-node buffer the text could be kept in
// safely; give the leaf a port of the entry's type where a tick must not allocate. A
// port reading an entry of its own type allocates nothing.
type In[T any] struct {
	key   blackboard.Key[T]
	lit   T
	isLit bool
	txt   *textIn // a string port reading an entry of another type as text (ports_text.go)
}

// Literal returns an input bound to the constant v.
func Literal[T any](v T) In[T] { return In[T]{lit: v, isLit: true} }

// FromKey returns an input bound to the blackboard key k.
func FromKey[T any](k blackboard.Key[T]) In[T] { return In[T]{key: k} }

// Get returns the port's value: the literal, or the key's value in c.Blackboard. It
// returns the zero value and false when the key is not set, c.Blackboard is nil or of
// another schema, or the port is unbound. It allocates nothing.
func (p In[T]) Get(c *Context) (T, bool) {
	if p.isLit {
		return p.lit, true
	}
	if p.txt != nil {
		return textOf[T](p.txt, c)
	}
	return blackboard.Get(c.Blackboard, p.key)
}

// IsLiteral reports whether p is bound to a literal.
func (p In[T]) IsLiteral() bool { return p.isLit }

// Key returns the key p is bound to (the zero Key for a literal and for a string port
// of a loaded node that reads its entry as text, or whose entry's type was settled
// after the node was built).
func (p In[T]) Key() blackboard.Key[T] { return p.key }

// Out is an output port: where a leaf writes a value, always a blackboard key. The zero
// Out is unbound: Set reports false.
type Out[T any] struct{ key blackboard.Key[T] }

// ToKey returns an output bound to the blackboard key k.
func ToKey[T any](k blackboard.Key[T]) Out[T] { return Out[T]{key: k} }

// Set writes v to the port's key in c.Blackboard and reports whether it did (false if
// c.Blackboard is nil or of another schema, or the port is unbound).
func (p Out[T]) Set(c *Context, v T) bool { return blackboard.Set(c.Blackboard, p.key, v) }

// Key returns the key p is bound to.
func (p Out[T]) Key() blackboard.Key[T] { return p.key }
