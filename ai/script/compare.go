package script

import (
	"math"

	"github.com/archai-go/archai/ai/blackboard"
)

// compare evaluates a and b, of kind dom, and compares them.
func (p *Program) compare(st *blackboard.Store, bg *budget, dom Kind, c cmp, a, b int32) (bool, error) {
	switch dom {
	case Int:
		x, err := p.intOperand(st, bg, a)
		if err != nil {
			return false, err
		}
		y, err := p.intOperand(st, bg, b)
		if err != nil {
			return false, err
		}
		return cmpInt(c, x, y), nil
	case Float:
		x, err := p.floatOperand(st, bg, a)
		if err != nil {
			return false, err
		}
		y, err := p.floatOperand(st, bg, b)
		if err != nil {
			return false, err
		}
		return cmpFloat(c, x, y), nil
	}
	x, err := p.evalString(st, bg, a)
	if err != nil {
		return false, err
	}
	y, err := p.evalString(st, bg, b)
	if err != nil {
		return false, err
	}
	return cmpString(c, x, y), nil
}

// chain evaluates a comparison chain: operands left to right, each once, stopping at the
// first pair that compares false.
func (p *Program) chain(st *blackboard.Store, bg *budget, n *node) (bool, error) {
	ops := p.list[n.a : n.a+n.b]
	switch n.dom {
	case Int:
		x, err := p.evalInt(st, bg, ops[0])
		for k, o := range ops[1:] {
			if err != nil {
				return false, err
			}
			var y int64
			if y, err = p.evalInt(st, bg, o); err != nil {
				return false, err
			}
			if !cmpInt(n.cmps[k], x, y) {
				return false, nil
			}
			x = y
		}
		return err == nil, err
	case Float:
		x, err := p.evalFloat(st, bg, ops[0])
		for k, o := range ops[1:] {
			if err != nil {
				return false, err
			}
			var y float64
			if y, err = p.evalFloat(st, bg, o); err != nil {
				return false, err
			}
			if !cmpFloat(n.cmps[k], x, y) {
				return false, nil
			}
			x = y
		}
		return err == nil, err
	}
	x, err := p.evalString(st, bg, ops[0])
	for k, o := range ops[1:] {
		if err != nil {
			return false, err
		}
		var y string
		if y, err = p.evalString(st, bg, o); err != nil {
			return false, err
		}
		if !cmpString(n.cmps[k], x, y) {
			return false, nil
		}
		x = y
	}
	return err == nil, err
}

func cmpInt(c cmp, x, y int64) bool {
	switch c {
	case cmpEq:
		return x == y
	case cmpNe:
		return x != y
	case cmpLt:
		return x < y
	case cmpGt:
		return x > y
	case cmpLe:
		return x <= y
	}
	return x >= y
}

// cmpFloat compares as BT.CPP: == and != with the tolerance eps, the others exactly.
func cmpFloat(c cmp, x, y float64) bool {
	switch c {
	case cmpEq:
		return x == y || math.Abs(x-y) <= eps
	case cmpNe:
		return !(x == y || math.Abs(x-y) <= eps)
	case cmpLt:
		return x < y
	case cmpGt:
		return x > y
	case cmpLe:
		return x <= y
	}
	return x >= y
}

func cmpString(c cmp, x, y string) bool {
	switch c {
	case cmpEq:
		return x == y
	case cmpNe:
		return x != y
	case cmpLt:
		return x < y
	case cmpGt:
		return x > y
	case cmpLe:
		return x <= y
	}
	return x >= y
}
