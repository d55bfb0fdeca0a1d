// Package plan holds what the planners ai/htn and ai/goap share: the registry of their
// domains by ID and name, and the cutting of the names and other packages' messages
// their errors quote ([Quote], [Clip]). It does not import Arche.
package plan

import (
	"errors"
	"fmt"
	"math"
)

// Domain is what a Registry holds: a domain pointer with a name.
type Domain interface {
	comparable
	Name() string
}

// Registry holds domains by ID (from 1, in the order added; 0 is no domain) and name.
// Its zero value is empty; a nil *Registry has no domains. It is safe for concurrent
// reads.
type Registry[D Domain] struct {
	domains []D
	retired []D // domains Replace took out, kept referenced (see Replace)
}

// Add adds d and returns its ID. It returns an error, prefixed with pkg, if d is nil, a
// domain of that name is already registered, or the registry is full.
func (r *Registry[D]) Add(pkg string, d D) (uint16, error) {
	var none D
	if d == none {
		return 0, errors.New(pkg + ": Registry.Add: nil domain")
	}
	if _, ok := r.Lookup(d.Name()); ok {
		return 0, fmt.Errorf("%s: Registry.Add: a domain called %s is already registered", pkg, Quote(d.Name()))
	}
	if len(r.domains) >= math.MaxUint16 {
		return 0, errors.New(pkg + ": Registry.Add: registry full")
	}
	r.domains = append(r.domains, d)
	return uint16(len(r.domains)), nil
}

// Replace puts d in the place of the registered domain of d's name, under its ID, and
// returns that ID and true; without one it adds d as Add does (false). It returns an
// error, prefixed with pkg, if d is nil or, adding, the registry is full. The domain
// replaced stays referenced by r (agents' components may cache it until their next
// think, and Arche's byte copies must not hold the only reference): each replacement
// keeps one domain more for r's life.
func (r *Registry[D]) Replace(pkg string, d D) (uint16, bool, error) {
	var none D
	if d == none {
		return 0, false, errors.New(pkg + ": Registry.Replace: nil domain")
	}
	id, ok := r.Lookup(d.Name())
	if !ok {
		id, err := r.Add(pkg, d)
		return id, false, err
	}
	if old := r.domains[id-1]; old != d {
		r.retired = append(r.retired, old)
		r.domains[id-1] = d
	}
	return id, true, nil
}

// Domain returns the domain of id, or nil.
func (r *Registry[D]) Domain(id uint16) D {
	if r == nil || id == 0 || int(id) > len(r.domains) {
		var none D
		return none
	}
	return r.domains[id-1]
}

// Lookup returns the ID of the domain called name, or 0 and false.
func (r *Registry[D]) Lookup(name string) (uint16, bool) {
	if r == nil {
		return 0, false
	}
	for i, d := range r.domains {
		if d.Name() == name {
			return uint16(i + 1), true
		}
	}
	return 0, false
}

// Resolve returns the domain called name and its ID, trying hint first; an empty name
// resolves hint alone. It returns nil and 0 if there is no such domain.
func (r *Registry[D]) Resolve(name string, hint uint16) (D, uint16) {
	var none D
	if d := r.Domain(hint); d != none && (name == "" || d.Name() == name) {
		return d, hint
	}
	if name == "" {
		return none, 0
	}
	if id, ok := r.Lookup(name); ok {
		return r.domains[id-1], id
	}
	return none, 0
}

// Names returns the names of the domains, in ID order.
func (r *Registry[D]) Names() []string {
	if r == nil {
		return nil
	}
	out := make([]string, len(r.domains))
	for i, d := range r.domains {
		out[i] = d.Name()
	}
	return out
}
