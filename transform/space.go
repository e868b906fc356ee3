// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"fmt"
	"math"
	"strconv"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// Param is one named parameter of a model's parameter vector: a scalar or a
// vector of constrained coordinates and the transform that maps
// unconstrained coordinates onto them.
type Param struct {
	// Name names the parameter: a scalar's name (sigma), or a vector's
	// prefix, its coordinates named in CmdStan's style Name.1, Name.2, ….
	Name string
	// Size is the number of constrained coordinates: 0 for a scalar, n ≥ 1
	// for a vector of n (a simplex of K categories has Size K).
	Size int
	// Transform maps unconstrained coordinates onto the parameter's set.
	// Nil means Identity{} (unconstrained).
	Transform Transform
}

// block is one parameter's place in x and in y.
type block struct {
	t      Transform
	name   string
	x0, nx int // x[x0 : x0+nx]
	y0, ny int // y[y0 : y0+ny]
}

// Space is a parameter vector x of named, constrained parameters laid out
// one after another, and its unconstrained counterpart y, each parameter
// mapped by its Transform. It is immutable and safe for concurrent use.
type Space struct {
	blocks           []block
	dim, free        int
	names, freeNames []string
}

// MaxDim is the largest number of constrained coordinates a Space may
// have, 2²⁴: beyond it the coordinates' names alone would take more than
// a gigabyte.
const MaxDim = 1 << 24

// NewSpace lays out the parameters in the order given: parameter p
// occupies the next Size (1 for a scalar) coordinates of x and the next
// Transform.FreeDim(Size) coordinates of y. Names must be non-empty, the
// coordinates' names distinct, and there may be at most MaxDim
// coordinates in all.
func NewSpace(params ...Param) (*Space, error) {
	if len(params) == 0 {
		return nil, errorf(sgmcmc.ErrDimension, "transform: NewSpace: no parameters")
	}
	// The sizes first, so that a space too large is refused before its
	// names are made.
	total := 0
	for _, par := range params {
		nx := max(par.Size, 1)
		if nx > MaxDim-total {
			return nil, errorf(sgmcmc.ErrRange, "transform: NewSpace: parameter %s: Size = %d takes the space beyond MaxDim = %d coordinates", par.Name, par.Size, MaxDim)
		}
		total += nx
	}
	s := &Space{}
	seen := make(map[string]bool)
	for p, par := range params {
		if par.Name == "" {
			return nil, errorf(sgmcmc.ErrRange, "transform: NewSpace: parameter %d has no name", p)
		}
		if par.Size < 0 {
			return nil, errorf(sgmcmc.ErrDimension, "transform: NewSpace: parameter %s: Size = %d, want 0 (a scalar) or more", par.Name, par.Size)
		}
		t := par.Transform
		if t == nil {
			t = Identity{}
		}
		nx := max(par.Size, 1)
		ny, err := t.FreeDim(nx)
		if err != nil {
			return nil, fmt.Errorf("transform: NewSpace: parameter %s: %w", par.Name, err)
		}
		if ny < 0 || ny > nx {
			return nil, errorf(sgmcmc.ErrDimension, "transform: NewSpace: parameter %s: %T.FreeDim(%d) = %d, want in [0, %d]", par.Name, t, nx, ny, nx)
		}
		s.blocks = append(s.blocks, block{t: t, name: par.Name, x0: s.dim, nx: nx, y0: s.free, ny: ny})
		s.dim += nx
		s.free += ny
		if par.Size == 0 {
			s.names = append(s.names, par.Name)
		} else {
			for i := range nx {
				s.names = append(s.names, par.Name+"."+strconv.Itoa(i+1))
			}
		}
		if par.Size == 0 && ny == 1 {
			s.freeNames = append(s.freeNames, par.Name+"_free")
		} else {
			for i := range ny {
				s.freeNames = append(s.freeNames, par.Name+"_free."+strconv.Itoa(i+1))
			}
		}
	}
	for _, n := range s.names {
		if seen[n] {
			return nil, errorf(sgmcmc.ErrRange, "transform: NewSpace: two coordinates named %q", n)
		}
		seen[n] = true
	}
	return s, nil
}

// Dim returns the number of constrained coordinates, the dimension of the
// user's model.
func (s *Space) Dim() int { return s.dim }

// FreeDim returns the number of unconstrained coordinates, the dimension
// of the model that Model returns and of the draws a sampler makes on it.
func (s *Space) FreeDim() int { return s.free }

// Names returns the names of the constrained coordinates: a scalar's
// Name, a vector's Name.1, Name.2, …, in CmdStan's style (for summaries
// and for stancsv).
func (s *Space) Names() []string { return append([]string(nil), s.names...) }

// FreeNames returns names for the unconstrained coordinates, for
// sgmcmc.Problem.Names: a scalar's Name_free, a vector's Name_free.1, ….
func (s *Space) FreeNames() []string { return append([]string(nil), s.freeNames...) }

// Constrain writes x = f(y) into x (length Dim) for y of length FreeDim,
// and returns the log absolute Jacobian determinant, the sum over the
// parameters. It returns an error wrapping sgmcmc.ErrNonFinite, naming
// the parameter and the cause, if a coordinate of y is NaN or infinite,
// or if x or the log-Jacobian is not finite (y beyond what float64 can
// map: Positive's exp(y) overflows for y > 709.78); x then holds what the
// transforms wrote.
func (s *Space) Constrain(x, y []float64) (float64, error) {
	if len(x) != s.dim || len(y) != s.free {
		return 0, errorf(sgmcmc.ErrDimension, "transform: Constrain: len(x) = %d, len(y) = %d, want %d and %d", len(x), len(y), s.dim, s.free)
	}
	lj, err := s.constrainFinite(x, y)
	if err != nil {
		return 0, fmt.Errorf("transform: Constrain: %w", err)
	}
	return lj, nil
}

// constrainFinite is constrain with the checks of Constrain.
func (s *Space) constrainFinite(x, y []float64) (float64, error) {
	var lj float64
	for _, b := range s.blocks {
		bx, by := x[b.x0:b.x0+b.nx], y[b.y0:b.y0+b.ny]
		l := b.t.Constrain(bx, by)
		for i, v := range by {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, errorf(sgmcmc.ErrNonFinite, "parameter %s: unconstrained coordinate %s is %v", b.name, s.freeNames[b.y0+i], v)
			}
		}
		for i, v := range bx {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				at := fmt.Sprint(by)
				if b.nx == b.ny {
					at = fmt.Sprint(by[i])
				}
				return 0, errorf(sgmcmc.ErrNonFinite, "parameter %s: coordinate %s is %v at y = %s: %T maps y beyond float64's range", b.name, s.names[b.x0+i], v, at, b.t)
			}
		}
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return 0, errorf(sgmcmc.ErrNonFinite, "parameter %s: the log-Jacobian is %v at y = %v: %T's log-Jacobian overflows float64 there", b.name, l, by, b.t)
		}
		lj += l
	}
	if math.IsInf(lj, 0) {
		return 0, errorf(sgmcmc.ErrNonFinite, "the log-Jacobian summed over the parameters overflows to %v", lj)
	}
	return lj, nil
}

func (s *Space) constrain(x, y []float64) float64 {
	var lj float64
	for _, b := range s.blocks {
		lj += b.t.Constrain(x[b.x0:b.x0+b.nx], y[b.y0:b.y0+b.ny])
	}
	return lj
}

// Unconstrain writes y = f⁻¹(x) into y (length FreeDim) for x of length
// Dim, for instance to turn a start in the model's parameters into one for
// sample.Run. It returns an error naming the parameter if x is outside
// its constrained set (wrapping sgmcmc.ErrRange), or if a transform maps x
// to a y that is not finite (sgmcmc.ErrNonFinite; the package's
// transforms never do for x inside their sets).
func (s *Space) Unconstrain(y, x []float64) error {
	if len(x) != s.dim || len(y) != s.free {
		return errorf(sgmcmc.ErrDimension, "transform: Unconstrain: len(y) = %d, len(x) = %d, want %d and %d", len(y), len(x), s.free, s.dim)
	}
	for _, b := range s.blocks {
		by := y[b.y0 : b.y0+b.ny]
		if err := b.t.Unconstrain(by, x[b.x0:b.x0+b.nx]); err != nil {
			return fmt.Errorf("transform: Unconstrain: parameter %s: %w", b.name, err)
		}
		for i, v := range by {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errorf(sgmcmc.ErrNonFinite, "transform: Unconstrain: parameter %s: %T gives %s = %v for x = %v", b.name, b.t, s.freeNames[b.y0+i], v, x[b.x0:b.x0+b.nx])
			}
		}
	}
	return nil
}

// pullback adds Jᵀg to dy, and ∇_y log |det J| if jac.
func (s *Space) pullback(dy, y, x, g []float64, jac bool) {
	for _, b := range s.blocks {
		by, bx := y[b.y0:b.y0+b.ny], x[b.x0:b.x0+b.nx]
		b.t.Pullback(dy[b.y0:b.y0+b.ny], by, bx, g[b.x0:b.x0+b.nx])
		if jac {
			b.t.LogJacobianGrad(dy[b.y0:b.y0+b.ny], by, bx)
		}
	}
}

// Chain maps a chain of unconstrained draws (Dim() = FreeDim, as a sampler
// on the model of Model makes them) to the constrained parameters: a new
// Chain of dimension Dim with the same step sizes, divergences and step
// count. A draw that Constrain would refuse (not finite, or beyond what
// float64 can map) is an error naming the draw.
func (s *Space) Chain(c *sgmcmc.Chain) (*sgmcmc.Chain, error) {
	out, err := s.chain(c)
	if err != nil {
		return nil, fmt.Errorf("transform: Chain: %w", err)
	}
	return out, nil
}

func (s *Space) chain(c *sgmcmc.Chain) (*sgmcmc.Chain, error) {
	if c == nil {
		return nil, errorf(sgmcmc.ErrNil, "nil chain")
	}
	n := c.Len()
	if c.Dim != s.free || len(c.Draws) < n*s.free {
		return nil, errorf(sgmcmc.ErrDimension, "a chain of dimension %d with %d values for %d draws, want dimension %d (FreeDim)", c.Dim, len(c.Draws), n, s.free)
	}
	out := &sgmcmc.Chain{
		Dim:         s.dim,
		Draws:       make([]float64, n*s.dim),
		Eps:         append([]float64(nil), c.Eps...),
		Steps:       c.Steps,
		Divergences: c.Divergences,
	}
	if c.Divergent != nil {
		out.Divergent = append([]bool(nil), c.Divergent...)
	}
	for i := range n {
		if _, err := s.constrainFinite(out.Draws[i*s.dim:(i+1)*s.dim], c.Draws[i*s.free:(i+1)*s.free]); err != nil {
			return nil, fmt.Errorf("draw %d: %w", i, err)
		}
	}
	return out, nil
}

// Chains maps every chain with Chain: the chains of sgmcmc.RunChains or of
// an sgmcmc.Result.
func (s *Space) Chains(chains []*sgmcmc.Chain) ([]*sgmcmc.Chain, error) {
	out := make([]*sgmcmc.Chain, len(chains))
	for k, c := range chains {
		var err error
		if out[k], err = s.chain(c); err != nil {
			return nil, fmt.Errorf("transform: Chains: chain %d: %w", k, err)
		}
	}
	return out, nil
}

// Summary maps the chains to the constrained parameters and summarises
// them by name (diagnostics.NewTable with Names): the table to report
// instead of the unconstrained one of an sgmcmc.Result.
func (s *Space) Summary(chains []*sgmcmc.Chain) (diagnostics.Table, error) {
	xs, err := s.Chains(chains)
	if err != nil {
		return nil, err
	}
	return diagnostics.NewTable(s.names, xs)
}
