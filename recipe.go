// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// Operator is a linear map A(z) of size r×c that may depend on the state z.
// D, Q and their blocks are Operators, so that structured samplers cost O(d)
// per step: only the dense operators do dense work.
type Operator interface {
	// Dims returns the number of rows and columns.
	Dims() (r, c int)
	// AddMulVec adds alpha·(A(z) x) restricted to rows [lo, hi) to
	// dst[lo:hi]. x has length c, dst length r, and z is the full state.
	AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int)
	// NonZero reports whether the submatrix of rows [rlo, rhi) and columns
	// [clo, chi) may be nonzero at some state. The Recipe uses it to skip
	// work, such as a gradient evaluation a block does not need.
	NonZero(rlo, rhi, clo, chi int) bool
}

// Diffusion is an Operator that is symmetric positive semidefinite and can
// draw the noise of the recipe's update.
type Diffusion interface {
	Operator
	// Noise writes a draw of N(0, eps·(2D(z) − eps·diag(b))) into dst, using
	// standard normals from rng; b may be nil, meaning zero. A coordinate
	// with zero variance draws no normal. If 2D − eps·diag(b) is not
	// positive semidefinite it returns a *NotPSDError.
	Noise(dst, z []float64, eps float64, b []float64, rng *rand.Rand) error
}

// NotPSDError reports that a noise covariance 2D − εB̂ is not positive
// semidefinite: the friction or diffusion is too small for the gradient
// noise, or the step is too large.
type NotPSDError struct {
	Index int     // coordinate (or pivot) where it fails, -1 if unknown
	Value float64 // the offending diagonal entry or pivot of 2D − εB̂
}

// Error names the coordinate and the offending value.
func (e *NotPSDError) Error() string {
	return fmt.Sprintf("sgmcmc: 2D − εB̂ not positive semidefinite at coordinate %d (value %.6g)", e.Index, e.Value)
}

func overlap(alo, ahi, blo, bhi int) bool { return max(alo, blo) < min(ahi, bhi) }

// noiseAt draws sqrt(eps(2d − eps b))·N(0,1) for one coordinate.
func noiseAt(i int, d, eps, b float64, rng *rand.Rand) (float64, error) {
	v := 2*d - eps*b
	switch {
	case v > 0:
		return math.Sqrt(eps*v) * rng.NormFloat64(), nil
	case v == 0:
		return 0, nil
	default:
		return 0, &NotPSDError{Index: i, Value: v}
	}
}

// diagNoise draws dst[i] = sqrt(eps(2d_i − eps b_i))·N(0,1), with d_i = c
// when d is nil.
func diagNoise(dst []float64, eps float64, b []float64, rng *rand.Rand, d []float64, c float64) error {
	if b == nil && d == nil {
		if c < 0 {
			return &NotPSDError{Index: 0, Value: 2 * c}
		}
		if c == 0 {
			clear(dst)
			return nil
		}
		sd := math.Sqrt(2 * eps * c)
		for i := range dst {
			dst[i] = sd * rng.NormFloat64()
		}
		return nil
	}
	var err error
	for i := range dst {
		di, bi := c, 0.0
		if d != nil {
			di = d[i]
		}
		if b != nil {
			bi = b[i]
		}
		if dst[i], err = noiseAt(i, di, eps, bi, rng); err != nil {
			return err
		}
	}
	return nil
}

// Scalar is the operator C·I of size N×N.
type Scalar struct {
	N int
	C float64
}

// Dims returns (N, N).
func (s Scalar) Dims() (int, int) { return s.N, s.N }

// AddMulVec adds alpha·C·x[lo:hi] to dst[lo:hi].
func (s Scalar) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	a := alpha * s.C
	for i := lo; i < hi; i++ {
		dst[i] += a * x[i]
	}
}

// NonZero reports whether C ≠ 0 and the ranges meet the diagonal.
func (s Scalar) NonZero(rlo, rhi, clo, chi int) bool { return s.C != 0 && overlap(rlo, rhi, clo, chi) }

// Noise draws N(0, eps(2C − eps b_i)) for each coordinate.
func (s Scalar) Noise(dst, _ []float64, eps float64, b []float64, rng *rand.Rand) error {
	return diagNoise(dst, eps, b, rng, nil, s.C)
}

// Diagonal is the diagonal operator diag(d). Its values are read at every
// use, so a sampler may update them in place between uses (the metric-based
// samplers keep G(θ)⁻¹ in one).
type Diagonal []float64

// Dims returns (len(d), len(d)).
func (d Diagonal) Dims() (int, int) { return len(d), len(d) }

// AddMulVec adds alpha·d_i·x_i to dst[i] for i in [lo, hi).
func (d Diagonal) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		dst[i] += alpha * d[i] * x[i]
	}
}

// NonZero reports whether the ranges meet the diagonal.
func (d Diagonal) NonZero(rlo, rhi, clo, chi int) bool { return overlap(rlo, rhi, clo, chi) }

// Noise draws N(0, eps(2d_i − eps b_i)) for each coordinate.
func (d Diagonal) Noise(dst, _ []float64, eps float64, b []float64, rng *rand.Rand) error {
	return diagNoise(dst, eps, b, rng, d, 0)
}

// DiagFunc is a state-dependent diagonal operator diag(F(z)) of size N×N.
// As a Diffusion, F must write non-negative values.
type DiagFunc struct {
	n   int
	f   func(dst, z []float64)
	buf []float64
}

// NewDiagFunc returns the operator diag(f(z)) of size n×n; f writes the
// diagonal at state z into dst.
func NewDiagFunc(n int, f func(dst, z []float64)) *DiagFunc {
	return &DiagFunc{n: n, f: f, buf: make([]float64, n)}
}

// Dims returns (n, n).
func (d *DiagFunc) Dims() (int, int) { return d.n, d.n }

// AddMulVec adds alpha·f(z)_i·x_i to dst[i] for i in [lo, hi).
func (d *DiagFunc) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	d.f(d.buf, z)
	for i := lo; i < hi; i++ {
		dst[i] += alpha * d.buf[i] * x[i]
	}
}

// NonZero reports whether the ranges meet the diagonal.
func (d *DiagFunc) NonZero(rlo, rhi, clo, chi int) bool { return overlap(rlo, rhi, clo, chi) }

// Noise draws N(0, eps(2f(z)_i − eps b_i)) for each coordinate.
func (d *DiagFunc) Noise(dst, z []float64, eps float64, b []float64, rng *rand.Rand) error {
	d.f(d.buf, z)
	return diagNoise(dst, eps, b, rng, d.buf, 0)
}

// Dense is a constant dense operator. It is not a Diffusion: use SymDense
// for a dense D.
type Dense struct {
	M *mat.Dense
}

// Dims returns the dimensions of M.
func (d Dense) Dims() (int, int) { return d.M.Dims() }

// AddMulVec adds alpha·(M x)[lo:hi] to dst[lo:hi].
func (d Dense) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	_, c := d.M.Dims()
	raw := d.M.RawMatrix()
	for i := lo; i < hi; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		var s float64
		for j, v := range row {
			s += v * x[j]
		}
		dst[i] += alpha * s
	}
}

// NonZero reports true.
func (d Dense) NonZero(int, int, int, int) bool { return true }

// SymDense is a dense symmetric positive semidefinite diffusion, either
// constant (NewSymDense) or state-dependent (NewSymFunc). Its noise uses
// the Cholesky factor of ε(2D − εdiag(b)), recomputed only when D, ε or b
// change: O(n³) then, O(n²) per draw otherwise. It allocates nothing after
// construction.
type SymDense struct {
	n    int
	f    func(dst *mat.SymDense, z []float64)
	m    *mat.SymDense // D at the last state
	chol []float64     // n×n upper Cholesky factor U, UᵀU = ε(2D − εdiag(b))
	u    []float64
	cEps float64
	cOK  bool
}

// NewSymDense returns the constant dense diffusion D = m. m is not copied.
func NewSymDense(m *mat.SymDense) *SymDense {
	n := m.SymmetricDim()
	return &SymDense{n: n, m: m, chol: make([]float64, n*n), u: make([]float64, n)}
}

// NewSymFunc returns the state-dependent dense diffusion D(z) of size n×n;
// f writes D(z) into dst.
func NewSymFunc(n int, f func(dst *mat.SymDense, z []float64)) *SymDense {
	return &SymDense{n: n, f: f, m: mat.NewSymDense(n, nil), chol: make([]float64, n*n), u: make([]float64, n)}
}

// Dims returns (n, n).
func (s *SymDense) Dims() (int, int) { return s.n, s.n }

func (s *SymDense) at(z []float64) {
	if s.f != nil {
		s.f(s.m, z)
	}
}

// AddMulVec adds alpha·(D(z) x)[lo:hi] to dst[lo:hi].
func (s *SymDense) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	s.at(z)
	raw := s.m.RawSymmetric()
	for i := lo; i < hi; i++ {
		var v float64
		for j := range s.n {
			a, b := i, j
			if a > b {
				a, b = b, a
			}
			v += raw.Data[a*raw.Stride+b] * x[j]
		}
		dst[i] += alpha * v
	}
}

// NonZero reports true.
func (s *SymDense) NonZero(int, int, int, int) bool { return true }

// Noise draws N(0, eps(2D(z) − eps·diag(b))) as Uᵀu with UᵀU the Cholesky
// factorisation of the covariance and u standard normal.
func (s *SymDense) Noise(dst, z []float64, eps float64, b []float64, rng *rand.Rand) error {
	s.at(z)
	n := s.n
	tri := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Stride: n, Data: s.chol}
	if !(s.f == nil && b == nil && s.cOK && s.cEps == eps) { // constant D: reuse the factor
		raw := s.m.RawSymmetric()
		mn, idx := math.Inf(1), -1
		for i := range n {
			for j := i; j < n; j++ {
				s.chol[i*n+j] = 2 * eps * raw.Data[i*raw.Stride+j]
			}
			if b != nil {
				s.chol[i*n+i] -= eps * eps * b[i]
			}
			if v := s.chol[i*n+i]; v < mn {
				mn, idx = v, i
			}
		}
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: s.chol}); !ok {
			s.cOK = false
			return &NotPSDError{Index: idx, Value: mn / eps}
		}
		s.cOK, s.cEps = true, eps
	}
	for i := range s.u {
		s.u[i] = rng.NormFloat64()
	}
	blas64.Trmv(blas.Trans, tri, blas64.Vector{N: n, Inc: 1, Data: s.u})
	copy(dst, s.u)
	return nil
}

// Block is an operator partitioned into blocks over z = (θ, r, ξ, …), each
// block an Operator or nil for zero. As a Diffusion, the off-diagonal blocks
// must be nil and each diagonal block a Diffusion.
type Block struct {
	sizes []int
	off   []int
	ops   [][]Operator
	diff  bool // block-diagonal with Diffusion diagonal blocks
}

// NewBlock returns the block operator with the given block sizes (the same
// for rows and columns) and blocks ops[i][j] of size sizes[i]×sizes[j].
func NewBlock(sizes []int, ops [][]Operator) (*Block, error) {
	if len(ops) != len(sizes) {
		return nil, fmt.Errorf("sgmcmc: NewBlock: %d block rows for %d sizes", len(ops), len(sizes))
	}
	b := &Block{sizes: append([]int(nil), sizes...), off: make([]int, len(sizes)+1), ops: ops, diff: true}
	for i, s := range sizes {
		if s <= 0 {
			return nil, fmt.Errorf("sgmcmc: NewBlock: block %d has size %d", i, s)
		}
		b.off[i+1] = b.off[i] + s
	}
	for i, row := range ops {
		if len(row) != len(sizes) {
			return nil, fmt.Errorf("sgmcmc: NewBlock: block row %d has %d blocks, want %d", i, len(row), len(sizes))
		}
		for j, op := range row {
			if op == nil {
				continue
			}
			if r, c := op.Dims(); r != sizes[i] || c != sizes[j] {
				return nil, fmt.Errorf("sgmcmc: NewBlock: block (%d,%d) is %d×%d, want %d×%d", i, j, r, c, sizes[i], sizes[j])
			}
			if i != j {
				b.diff = false
			} else if _, ok := op.(Diffusion); !ok {
				b.diff = false
			}
		}
	}
	return b, nil
}

// Dims returns the total size.
func (b *Block) Dims() (int, int) { n := b.off[len(b.sizes)]; return n, n }

// AddMulVec adds alpha·(A(z) x)[lo:hi] to dst[lo:hi], block by block.
func (b *Block) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	for i := range b.sizes {
		r0, r1 := b.off[i], b.off[i+1]
		if !overlap(lo, hi, r0, r1) {
			continue
		}
		rlo, rhi := max(lo, r0)-r0, min(hi, r1)-r0
		for j, op := range b.ops[i] {
			if op != nil {
				op.AddMulVec(dst[r0:r1], alpha, x[b.off[j]:b.off[j+1]], z, rlo, rhi)
			}
		}
	}
}

// NonZero reports whether any block meeting the ranges may be nonzero there.
func (b *Block) NonZero(rlo, rhi, clo, chi int) bool {
	for i := range b.sizes {
		r0, r1 := b.off[i], b.off[i+1]
		if !overlap(rlo, rhi, r0, r1) {
			continue
		}
		for j, op := range b.ops[i] {
			c0, c1 := b.off[j], b.off[j+1]
			if op != nil && overlap(clo, chi, c0, c1) &&
				op.NonZero(max(rlo, r0)-r0, min(rhi, r1)-r0, max(clo, c0)-c0, min(chi, c1)-c0) {
				return true
			}
		}
	}
	return false
}

// Noise draws each diagonal block's noise in turn; zero blocks get zero
// noise (and an error if b asks for a positive B̂ there).
func (b *Block) Noise(dst, z []float64, eps float64, bh []float64, rng *rand.Rand) error {
	if !b.diff {
		return errors.New("sgmcmc: Block used as a diffusion must be block-diagonal with Diffusion blocks")
	}
	for i := range b.sizes {
		r0, r1 := b.off[i], b.off[i+1]
		var bb []float64
		if bh != nil {
			bb = bh[r0:r1]
		}
		op := b.ops[i][i]
		if op == nil {
			for k := r0; k < r1; k++ {
				dst[k] = 0
				if bb != nil && bb[k-r0] > 0 {
					return &NotPSDError{Index: k, Value: -eps * bb[k-r0]}
				}
			}
			continue
		}
		if err := op.(Diffusion).Noise(dst[r0:r1], z, eps, bb, rng); err != nil {
			var pe *NotPSDError
			if errors.As(err, &pe) && pe.Index >= 0 {
				return &NotPSDError{Index: pe.Index + r0, Value: pe.Value}
			}
			return err
		}
	}
	return nil
}

// RecipeSpec describes a sampler in the complete recipe of Ma, Chen & Fox
// (2015): a state z = (θ, r, ξ, …) with Hamiltonian H(z) = U(θ) + K(z), a
// diffusion D(z), a curl Q(z) and the correction Γ(z). NewRecipe turns it
// into a Sampler performing EQUATIONS §1's update
//
//	z ← z + ε[−(D(z) + Q(z))∇H̃(z) + Γ(z)] + N(0, ε(2D(z) − εB̂)).
type RecipeSpec struct {
	// Blocks are the sizes of the blocks of z; Blocks[0] is dim θ. Nil
	// means one block, θ alone, of size len(Z0).
	Blocks []int
	// Grad is the stochastic gradient ∇Ũ(θ). Required.
	Grad Gradient
	// GradK writes ∇K(z) into dst (length of z), K(z) = H(z) − U(θ) the
	// auxiliary part of the Hamiltonian (kinetic energy, thermostat). Nil
	// means K = 0.
	GradK func(dst, z []float64)
	// D is the diffusion matrix, symmetric positive semidefinite. Required.
	D Diffusion
	// Q is the curl matrix, skew-symmetric. Nil means zero.
	Q Operator
	// Gamma writes Γ(z), Γ_i = Σ_j ∂_j(D_ij + Q_ij), into dst. Nil means
	// Γ = 0, which is correct when D and Q do not depend on z.
	Gamma func(dst, z []float64)
	// NumericGamma computes Γ at every step by central finite differences
	// of D + Q (gonum's diff/fd) instead of Gamma: O(n) operator columns
	// per coordinate, allocating. For prototyping a new recipe.
	NumericGamma bool
	// Simultaneous selects Eq. 9 read literally (explicit Euler): every
	// block from z_t. The default is the sequential sweep of Order.
	Simultaneous bool
	// Order is the sweep's order of blocks: each block is updated by its
	// own rows of Eq. 9 at the latest state, with the step's noise drawn
	// once at z_t. Nil means block 1 (the momentum), then block 0 (θ),
	// then the rest in order — the SGHMC and SGNHT papers' algorithms.
	Order []int
	// Z0 is the initial state (copied). Required.
	Z0 []float64
	// Src is the random source. Required.
	Src rand.Source
	// NoiseVar is a constant estimate of diag(V), the covariance of the
	// gradient noise in θ-space. Nil means no B̂ correction.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from Grad at every step; Grad must
	// implement NoiseEstimator.
	EstimateNoise bool
	// NoiseMap writes the z-space diagonal of B̂ for the θ-space noise
	// variance v at state z: B̂ = A V Aᵀ with A = (D + Q)[:, θ], the way the
	// gradient noise reaches z. Required with NoiseVar or EstimateNoise.
	NoiseMap func(dst, z, v []float64)
	// Prepare, if not nil, is called with the state before D, Q, Γ and ∇K
	// are evaluated at it; state-dependent operators compute and cache what
	// they share there (a metric and its factors). An error stops the step.
	Prepare func(z []float64) error
	// Refresh, if not nil, is called every RefreshEvery steps after the
	// update, e.g. to resample the momentum.
	Refresh      func(z []float64, rng *rand.Rand)
	RefreshEvery int
	// Naive, when not empty, marks a deliberately incorrect sampler (the
	// papers' foils) and says why; Check reports it.
	Naive string
}

// Recipe is a sampler built from a RecipeSpec. Every named sampler of the
// package (SGLD, SGHMC, SGNHT, SGRLD, gSGRHMC) is a Recipe.
type Recipe struct {
	spec   RecipeSpec
	d      int   // dim θ
	n      int   // dim z
	off    []int // block offsets
	order  []int
	needG  []bool // block rows need ∇_θ H
	z      []float64
	prev   []float64
	g      []float64 // ∇Ũ(θ)
	gh     []float64 // ∇H(z)
	gam    []float64
	noise  []float64
	incr   []float64
	v, b   []float64
	rng    *rand.Rand
	t      int
	gVer   int // θ version of g, -1 if none
	thVer  int
	gCache []float64 // numeric Γ columns
}

var _ Sampler = (*Recipe)(nil)

// NewRecipe validates s and returns the sampler.
func NewRecipe(s RecipeSpec) (*Recipe, error) {
	if s.Grad == nil {
		return nil, errors.New("sgmcmc: recipe: nil Grad")
	}
	if s.D == nil {
		return nil, errors.New("sgmcmc: recipe: nil D")
	}
	if s.Src == nil {
		return nil, errors.New("sgmcmc: recipe: nil random source")
	}
	if len(s.Z0) == 0 {
		return nil, errors.New("sgmcmc: recipe: empty initial state")
	}
	if i := firstNonFinite(s.Z0); i >= 0 {
		return nil, fmt.Errorf("sgmcmc: recipe: initial state not finite at coordinate %d (%v)", i, s.Z0[i])
	}
	if s.Blocks == nil {
		s.Blocks = []int{len(s.Z0)}
	}
	r := &Recipe{spec: s, off: make([]int, len(s.Blocks)+1), gVer: -1}
	for i, b := range s.Blocks {
		if b <= 0 {
			return nil, fmt.Errorf("sgmcmc: recipe: block %d has size %d", i, b)
		}
		r.off[i+1] = r.off[i] + b
	}
	r.n, r.d = r.off[len(s.Blocks)], s.Blocks[0]
	if r.n != len(s.Z0) {
		return nil, fmt.Errorf("sgmcmc: recipe: blocks sum to %d, initial state has length %d", r.n, len(s.Z0))
	}
	if rr, c := s.D.Dims(); rr != r.n || c != r.n {
		return nil, fmt.Errorf("sgmcmc: recipe: D is %d×%d, state has length %d", rr, c, r.n)
	}
	if s.Q != nil {
		if rr, c := s.Q.Dims(); rr != r.n || c != r.n {
			return nil, fmt.Errorf("sgmcmc: recipe: Q is %d×%d, state has length %d", rr, c, r.n)
		}
	}
	if s.NoiseVar != nil {
		if len(s.NoiseVar) != r.d {
			return nil, fmt.Errorf("sgmcmc: recipe: NoiseVar has length %d, want dim θ = %d", len(s.NoiseVar), r.d)
		}
		for i, v := range s.NoiseVar {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("sgmcmc: recipe: NoiseVar[%d] = %v, want finite ≥ 0", i, v)
			}
		}
	}
	if s.EstimateNoise {
		if _, ok := s.Grad.(NoiseEstimator); !ok {
			return nil, errors.New("sgmcmc: recipe: EstimateNoise needs a Grad that implements NoiseEstimator (e.g. a Minibatch with Noise set)")
		}
	}
	if (s.NoiseVar != nil || s.EstimateNoise) && s.NoiseMap == nil {
		return nil, errors.New("sgmcmc: recipe: NoiseVar or EstimateNoise needs a NoiseMap")
	}
	if s.RefreshEvery < 0 || (s.Refresh != nil && s.RefreshEvery == 0) {
		return nil, fmt.Errorf("sgmcmc: recipe: RefreshEvery = %d, want > 0 with Refresh", s.RefreshEvery)
	}
	nb := len(s.Blocks)
	if s.Order == nil {
		r.order = make([]int, 0, nb)
		if nb > 1 {
			r.order = append(r.order, 1, 0)
			for k := 2; k < nb; k++ {
				r.order = append(r.order, k)
			}
		} else {
			r.order = append(r.order, 0)
		}
	} else {
		if len(s.Order) != nb {
			return nil, fmt.Errorf("sgmcmc: recipe: Order has %d blocks, want %d", len(s.Order), nb)
		}
		seen := make([]bool, nb)
		for _, k := range s.Order {
			if k < 0 || k >= nb || seen[k] {
				return nil, fmt.Errorf("sgmcmc: recipe: Order %v is not a permutation of the blocks", s.Order)
			}
			seen[k] = true
		}
		r.order = append([]int(nil), s.Order...)
	}
	r.needG = make([]bool, nb)
	for k := range nb {
		lo, hi := r.off[k], r.off[k+1]
		r.needG[k] = s.D.NonZero(lo, hi, 0, r.d) || (s.Q != nil && s.Q.NonZero(lo, hi, 0, r.d))
	}
	r.z = append([]float64(nil), s.Z0...)
	r.prev = make([]float64, r.n)
	r.g = make([]float64, r.d)
	r.gh = make([]float64, r.n)
	r.gam = make([]float64, r.n)
	r.noise = make([]float64, r.n)
	r.incr = make([]float64, r.n)
	if s.NoiseVar != nil || s.EstimateNoise {
		r.v = make([]float64, r.d)
		r.b = make([]float64, r.n)
	}
	if s.NumericGamma {
		r.gCache = make([]float64, r.n)
	}
	r.rng = rand.New(s.Src)
	if s.Prepare != nil {
		if err := s.Prepare(r.z); err != nil {
			return nil, fmt.Errorf("sgmcmc: recipe: at the initial state: %w", err)
		}
	}
	return r, nil
}

// Dim returns dim θ.
func (r *Recipe) Dim() int { return r.d }

// Position returns θ, the first block of the state.
func (r *Recipe) Position() []float64 { return r.z[:r.d] }

// State returns the full state z = (θ, r, ξ, …). The slice is the
// sampler's own storage: it may be modified between steps (e.g. to restart
// the momentum), never during one.
func (r *Recipe) State() []float64 { return r.z }

// Steps returns the number of completed steps.
func (r *Recipe) Steps() int { return r.t }

// Blocks returns the block sizes of z.
func (r *Recipe) Blocks() []int { return append([]int(nil), r.spec.Blocks...) }

// Step performs one update of Eq. 9 with step size eps, by the sequential
// sweep or simultaneously as configured. On error the state is restored.
func (r *Recipe) Step(eps float64) error {
	step := r.t + 1
	if err := checkStepSize(eps, step); err != nil {
		return err
	}
	copy(r.prev, r.z)
	// Every step draws a fresh stochastic gradient, and the state may have
	// been changed through State between steps.
	r.thVer++
	if err := r.step(eps, step); err != nil {
		copy(r.z, r.prev)
		r.thVer++ // the cached gradient may belong to a discarded θ
		if r.spec.Prepare != nil {
			_ = r.spec.Prepare(r.z)
		}
		return err
	}
	r.t = step
	if r.spec.Refresh != nil && r.t%r.spec.RefreshEvery == 0 {
		r.spec.Refresh(r.z, r.rng)
	}
	return nil
}

func (r *Recipe) prepare(step int) error {
	if r.spec.Prepare == nil {
		return nil
	}
	if err := r.spec.Prepare(r.z); err != nil {
		var se *StepError
		if errors.As(err, &se) {
			se.Step = step
			return se
		}
		return fmt.Errorf("sgmcmc: step %d: %w", step, err)
	}
	return nil
}

// gradTheta makes r.g the gradient at the current θ.
func (r *Recipe) gradTheta(step int) error {
	if r.gVer == r.thVer {
		return nil
	}
	r.spec.Grad.Grad(r.g, r.z[:r.d])
	r.gVer = r.thVer
	if err := checkFinite(r.g, step, "non-finite gradient"); err != nil {
		r.gVer = -1
		return err
	}
	return nil
}

// gradH writes ∇H(z) into r.gh; withGrad includes ∇Ũ(θ).
func (r *Recipe) gradH(step int, withGrad bool) error {
	if r.spec.GradK != nil {
		r.spec.GradK(r.gh, r.z)
	} else {
		clear(r.gh)
	}
	if withGrad {
		if err := r.gradTheta(step); err != nil {
			return err
		}
		for i, g := range r.g {
			r.gh[i] += g
		}
	}
	return nil
}

func (r *Recipe) gamma() {
	switch {
	case r.spec.NumericGamma:
		r.numericGamma(r.gam, r.z)
	case r.spec.Gamma != nil:
		r.spec.Gamma(r.gam, r.z)
	}
	// Otherwise Γ = 0: r.gam was zeroed at construction and is never written.
}

func (r *Recipe) step(eps float64, step int) error {
	s := &r.spec
	if err := r.prepare(step); err != nil {
		return err
	}
	var b []float64
	if r.b != nil {
		if s.EstimateNoise {
			if err := r.gradTheta(step); err != nil {
				return err
			}
			s.Grad.(NoiseEstimator).NoiseVar(r.v)
		} else {
			copy(r.v, s.NoiseVar)
		}
		s.NoiseMap(r.b, r.z, r.v)
		b = r.b
	}
	if err := s.D.Noise(r.noise, r.z, eps, b, r.rng); err != nil {
		var pe *NotPSDError
		if errors.As(err, &pe) {
			return &StepError{Step: step, Index: pe.Index, Value: pe.Value, What: "2D − εB̂ not positive semidefinite (friction or diffusion too small for the gradient noise, or step too large)"}
		}
		return fmt.Errorf("sgmcmc: step %d: %w", step, err)
	}
	if s.Simultaneous {
		if err := r.gradH(step, true); err != nil {
			return err
		}
		r.gamma()
		for i := range r.incr {
			r.incr[i] = r.gam[i]
		}
		s.D.AddMulVec(r.incr, -1, r.gh, r.z, 0, r.n)
		if s.Q != nil {
			s.Q.AddMulVec(r.incr, -1, r.gh, r.z, 0, r.n)
		}
		for i := range r.z {
			r.z[i] += eps*r.incr[i] + r.noise[i]
		}
		r.thVer++
		if err := r.prepare(step); err != nil {
			return err
		}
	} else {
		for _, k := range r.order {
			lo, hi := r.off[k], r.off[k+1]
			if err := r.gradH(step, r.needG[k]); err != nil {
				return err
			}
			r.gamma()
			inc := r.incr[lo:hi]
			copy(inc, r.gam[lo:hi])
			s.D.AddMulVec(r.incr, -1, r.gh, r.z, lo, hi)
			if s.Q != nil {
				s.Q.AddMulVec(r.incr, -1, r.gh, r.z, lo, hi)
			}
			for i := lo; i < hi; i++ {
				r.z[i] += eps*r.incr[i] + r.noise[i]
			}
			if k == 0 {
				r.thVer++
			}
			if err := r.prepare(step); err != nil {
				return err
			}
		}
	}
	return checkFinite(r.z, step, "state became non-finite (step size too large?)")
}

// column writes column j of (D+Q)(z) into dst.
func (r *Recipe) column(dst []float64, z []float64, j int, e []float64) {
	clear(dst)
	clear(e)
	e[j] = 1
	if r.spec.Prepare != nil {
		_ = r.spec.Prepare(z)
	}
	r.spec.D.AddMulVec(dst, 1, e, z, 0, r.n)
	if r.spec.Q != nil {
		r.spec.Q.AddMulVec(dst, 1, e, z, 0, r.n)
	}
}

// numericGamma writes Γ_i(z) = Σ_j ∂_j (D+Q)_ij(z) by central differences
// into dst, leaving any Prepare cache at z.
func (r *Recipe) numericGamma(dst, z []float64) {
	n := r.n
	clear(dst)
	zz := make([]float64, n)
	e := make([]float64, n)
	jac := mat.NewDense(n, 1, nil)
	for j := range n {
		// Column j of D + Q as a function of z_j alone.
		f := func(y, x []float64) {
			copy(zz, z)
			zz[j] += x[0]
			r.column(y, zz, j, e)
		}
		fd.Jacobian(jac, f, []float64{0}, &fd.JacobianSettings{Formula: fd.Central})
		for i := range n {
			dst[i] += jac.At(i, 0)
		}
	}
	if r.spec.Prepare != nil {
		_ = r.spec.Prepare(z)
	}
}

// Check validates the recipe at state z (nil means the current state) for
// step size eps and θ-space gradient-noise variance v (nil means the
// configured NoiseVar, or none): D symmetric positive semidefinite, Q
// skew-symmetric, the closed-form Γ against central finite differences of
// D + Q, and 2D − εB̂ positive semidefinite. It returns nil if all hold,
// and otherwise a *CheckError naming each failure and by how much.
// Check builds dense matrices: O(n²) memory and O(n³) time.
func (r *Recipe) Check(z []float64, eps float64, v []float64) error {
	if z == nil {
		z = r.z
	}
	if len(z) != r.n {
		return fmt.Errorf("sgmcmc: Check: state has length %d, want %d", len(z), r.n)
	}
	if v == nil {
		v = r.spec.NoiseVar
	}
	if v != nil && len(v) != r.d {
		return fmt.Errorf("sgmcmc: Check: noise variance has length %d, want %d", len(v), r.d)
	}
	zc := append([]float64(nil), z...)
	n := r.n
	tol := 1e-9
	var ce CheckError
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(zc); err != nil {
			ce.Problems = append(ce.Problems, fmt.Sprintf("Prepare fails at z: %v", err))
			return &ce
		}
	}
	dm := denseOf(r.spec.D, zc)
	var scale float64
	for i := range n {
		for j := range n {
			scale = math.Max(scale, math.Abs(dm.At(i, j)))
		}
	}
	atol := tol * math.Max(1, scale)
	if asym := maxAbsSym(dm, 1); asym > atol {
		ce.Problems = append(ce.Problems, fmt.Sprintf("D is not symmetric: max |D_ij − D_ji| = %.3g", asym))
	}
	if mn := minEigen(dm); mn < -atol {
		ce.Problems = append(ce.Problems, fmt.Sprintf("D is not positive semidefinite: smallest eigenvalue %.6g", mn))
	}
	if r.spec.Q != nil {
		qm := denseOf(r.spec.Q, zc)
		if sk := maxAbsSym(qm, -1); sk > atol {
			ce.Problems = append(ce.Problems, fmt.Sprintf("Q is not skew-symmetric: max |Q_ij + Q_ji| = %.3g", sk))
		}
	}
	num := make([]float64, n)
	r.numericGamma(num, zc)
	cl := make([]float64, n)
	if !r.spec.NumericGamma && r.spec.Gamma != nil {
		r.spec.Gamma(cl, zc)
	}
	if !r.spec.NumericGamma {
		worst, wi := 0.0, -1
		for i := range n {
			if e := math.Abs(cl[i]-num[i]) / math.Max(1, math.Abs(num[i])); e > worst {
				worst, wi = e, i
			}
		}
		if worst > 1e-5 {
			ce.Problems = append(ce.Problems, fmt.Sprintf("Γ does not match Σ_j ∂_j(D+Q)_ij: coordinate %d has closed form %.6g, finite differences %.6g", wi, cl[wi], num[wi]))
		}
	}
	if v != nil && eps > 0 {
		// The exact B̂ = A V Aᵀ with A = (D + Q)[:, θ], the way the
		// gradient noise enters z; NoiseMap is the step's fast diagonal form.
		am := mat.DenseCopyOf(dm)
		if r.spec.Q != nil {
			am.Add(am, denseOf(r.spec.Q, zc))
		}
		a := am.Slice(0, n, 0, r.d)
		m := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				var avat float64
				for k := range r.d {
					avat += a.At(i, k) * v[k] * a.At(j, k)
				}
				m.SetSym(i, j, dm.At(i, j)+dm.At(j, i)-eps*avat)
			}
		}
		if r.spec.NoiseMap != nil {
			b := make([]float64, n)
			r.spec.NoiseMap(b, zc, v)
			for i := range n {
				var want float64
				for k := range r.d {
					want += a.At(i, k) * v[k] * a.At(i, k)
				}
				if math.Abs(b[i]-want) > 1e-9*math.Max(1, math.Abs(want)) {
					ce.Problems = append(ce.Problems, fmt.Sprintf("NoiseMap gives B̂_%d%d = %.6g, but diag((D+Q)[:,θ] V (D+Q)[:,θ]ᵀ) is %.6g", i, i, b[i], want))
					break
				}
			}
		}
		if mn := minEigen(m); mn < -atol {
			ce.Problems = append(ce.Problems, fmt.Sprintf("2D − εB̂ is not positive semidefinite at ε = %g: smallest eigenvalue %.6g (the gradient noise is not absorbed)", eps, mn))
		}
	}
	if r.spec.Naive != "" {
		ce.Problems = append(ce.Problems, "not a complete-recipe sampler: "+r.spec.Naive)
	}
	if len(ce.Problems) == 0 {
		return nil
	}
	return &ce
}

// CheckError lists what Recipe.Check found wrong.
type CheckError struct {
	Problems []string
}

// Error lists every problem found.
func (e *CheckError) Error() string {
	return "sgmcmc: recipe check failed: " + strings.Join(e.Problems, "; ")
}

// denseOf materialises op at z by applying it to unit vectors.
func denseOf(op Operator, z []float64) *mat.Dense {
	rr, c := op.Dims()
	m := mat.NewDense(rr, c, nil)
	e := make([]float64, c)
	col := make([]float64, rr)
	for j := range c {
		clear(e)
		clear(col)
		e[j] = 1
		op.AddMulVec(col, 1, e, z, 0, rr)
		for i := range rr {
			m.Set(i, j, col[i])
		}
	}
	return m
}

// maxAbsSym returns max |A_ij − sign·A_ji|.
func maxAbsSym(a *mat.Dense, sign float64) float64 {
	n, _ := a.Dims()
	var w float64
	for i := range n {
		for j := range n {
			w = math.Max(w, math.Abs(a.At(i, j)-sign*a.At(j, i)))
		}
	}
	return w
}

// minEigen returns the smallest eigenvalue of the symmetric part of a.
func minEigen(a mat.Matrix) float64 {
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, false) {
		return math.NaN()
	}
	vals := es.Values(nil)
	return vals[0]
}

// Constraints on a constructor argument's values.
const (
	anyFinite = iota
	nonNegative
	positive
)

// checkVector validates a constructor argument: its length (n < 0 skips
// the check) and its values against the constraint c.
func checkVector(who, name string, x []float64, n int, c int) error {
	if n >= 0 && len(x) != n {
		return fmt.Errorf("sgmcmc: %s: %s has length %d, want %d", who, name, len(x), n)
	}
	for i, v := range x {
		finite := !math.IsNaN(v) && !math.IsInf(v, 0)
		switch {
		case !finite:
			return fmt.Errorf("sgmcmc: %s: %s[%d] = %v, want finite", who, name, i, v)
		case c == nonNegative && v < 0:
			return fmt.Errorf("sgmcmc: %s: %s[%d] = %v, want ≥ 0", who, name, i, v)
		case c == positive && v <= 0:
			return fmt.Errorf("sgmcmc: %s: %s[%d] = %v, want > 0", who, name, i, v)
		}
	}
	return nil
}

// checkScalar validates a positive finite hyperparameter.
func checkScalar(who, name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("sgmcmc: %s: %s = %v, want finite and > 0", who, name, v)
	}
	return nil
}

// checkTheta0 validates a named sampler's initial θ.
func checkTheta0(who string, theta0 []float64) error {
	if len(theta0) == 0 {
		return fmt.Errorf("sgmcmc: %s: empty theta0", who)
	}
	return checkVector(who, "theta0", theta0, -1, anyFinite)
}

// momentumState returns the initial state (θ₀, r₀, 0…) with extra
// trailing coordinates; a nil r0 means zero momentum.
func momentumState(who string, theta0, r0 []float64, extra int) ([]float64, error) {
	if err := checkTheta0(who, theta0); err != nil {
		return nil, err
	}
	d := len(theta0)
	z := make([]float64, 2*d+extra)
	copy(z, theta0)
	if r0 != nil {
		if err := checkVector(who, "R0", r0, d, anyFinite); err != nil {
			return nil, err
		}
		copy(z[d:], r0)
	}
	return z, nil
}

// setNoise validates a named sampler's B̂ settings (θ-space noise variance
// v, or estimate it from the gradient) and sets them, with the sampler's
// NoiseMap m, on spec.
func (spec *RecipeSpec) setNoise(who string, d int, v []float64, estimate bool, m func(b, z, v []float64)) error {
	if v == nil && !estimate {
		return nil
	}
	if v != nil {
		if err := checkVector(who, "NoiseVar", v, d, nonNegative); err != nil {
			return err
		}
		spec.NoiseVar = append([]float64(nil), v...)
	}
	spec.EstimateNoise = estimate
	spec.NoiseMap = m
	return nil
}

// resampleMomentum returns a Refresh that draws r ~ N(0, diag(mass)), with
// mass nil meaning I.
func resampleMomentum(d int, mass []float64) func(z []float64, rng *rand.Rand) {
	return func(z []float64, rng *rand.Rand) {
		for i := range d {
			r := rng.NormFloat64()
			if mass != nil {
				r *= math.Sqrt(mass[i])
			}
			z[d+i] = r
		}
	}
}

// MarshalBinary checkpoints the chain: the step count, the state z and the
// random source's state. The source must implement
// encoding.BinaryMarshaler, as math/rand/v2's PCG and ChaCha8 do. A
// gradient with its own randomness (a Minibatch) is checkpointed
// separately.
func (r *Recipe) MarshalBinary() ([]byte, error) {
	m, ok := r.spec.Src.(encoding.BinaryMarshaler)
	if !ok {
		return nil, fmt.Errorf("sgmcmc: Recipe.MarshalBinary: random source %T does not implement encoding.BinaryMarshaler", r.spec.Src)
	}
	src, err := m.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("sgmcmc: Recipe.MarshalBinary: %w", err)
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(r.t))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(r.z)))
	for _, v := range r.z {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return append(b, src...), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Recipe built by the same constructor with the same settings: the chain
// then continues exactly as the checkpointed one would have.
func (r *Recipe) UnmarshalBinary(data []byte) error {
	u, ok := r.spec.Src.(encoding.BinaryUnmarshaler)
	if !ok {
		return fmt.Errorf("sgmcmc: Recipe.UnmarshalBinary: random source %T does not implement encoding.BinaryUnmarshaler", r.spec.Src)
	}
	if len(data) < 16 {
		return errors.New("sgmcmc: Recipe.UnmarshalBinary: checkpoint too short")
	}
	t := binary.LittleEndian.Uint64(data)
	n := binary.LittleEndian.Uint64(data[8:])
	if n != uint64(len(r.z)) || uint64(len(data)) < 16+8*n {
		return fmt.Errorf("sgmcmc: Recipe.UnmarshalBinary: checkpoint of a state of length %d, sampler has %d", n, len(r.z))
	}
	z := make([]float64, n)
	for i := range z {
		z[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[16+8*i:]))
	}
	if i := firstNonFinite(z); i >= 0 {
		return fmt.Errorf("sgmcmc: Recipe.UnmarshalBinary: non-finite state at coordinate %d", i)
	}
	if err := u.UnmarshalBinary(data[16+8*n:]); err != nil {
		return fmt.Errorf("sgmcmc: Recipe.UnmarshalBinary: random source: %w", err)
	}
	copy(r.z, z)
	r.t = int(t)
	r.thVer++
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(r.z); err != nil {
			return fmt.Errorf("sgmcmc: Recipe.UnmarshalBinary: %w", err)
		}
	}
	return nil
}
