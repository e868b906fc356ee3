// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/transform"

	"gonum.org/v1/gonum/mat"
)

// GLM specifies a generalised linear model, with varying (group-level)
// effects if Groups is not empty:
//
//	η_i = offset_i + b₀ + x_iᵀb + Σ_g Σ_e r_{g, j_g(i), e} v_{i,e},   y_i ~ Family(g⁻¹(η_i), aux)
//
// where j_g(i) is row i's level of grouping factor g, its effects e are its
// intercept (v = 1) and its slopes (v = x_{i,k} for k in Slopes), and
// r_{g,j,e} ~ N(0, sd_{g,e}²) independently — or, for a factor with
// Correlated set, r_{g,j} ~ N(0, diag(sd)·Ω·diag(sd)) with an LKJ prior on
// the correlation matrix Ω. NewGLM checks it and builds the Model.
type GLM struct {
	// Family is the response distribution; Link its link (zero: the
	// family's default).
	Family Family
	Link   Link
	// Y is the response, one value a row.
	Y []float64
	// Trials are Binomial's numbers of trials, one a row; nil otherwise.
	Trials []float64
	// X (dense, N × p) or Sparse (compressed sparse rows) holds the
	// predictors; both nil means none (an intercept-only model). Names
	// names their columns (nil: x1, x2, …).
	X      *mat.Dense
	Sparse *CSR
	Names  []string
	// NoIntercept drops the population-level intercept b₀.
	NoIntercept bool
	// Offset adds a known term to each row's η (for Poisson, the log of
	// the exposure); Weights multiply each row's log likelihood. Nil means
	// 0 and 1.
	Offset, Weights []float64
	// SD, for a Gaussian, are the rows' known sds (a meta-analysis's
	// standard errors): then σ is not a parameter. Nil means σ is one.
	SD []float64
	// Nu is StudentT's degrees of freedom; zero means ν is a parameter,
	// ν > 1, with NuPrior.
	Nu float64
	// Prior is every coefficient's prior, InterceptPrior the intercept's,
	// AuxPrior that of σ (Gaussian, StudentT) or φ (NegBinomial), NuPrior
	// that of ν. Zero values are the defaults (doc.go): weakly informative
	// on the data's scale, as rstanarm's.
	Prior, InterceptPrior, AuxPrior, NuPrior Prior
	// Categories names a Categorical response's categories, Y holding
	// their indices 0 … K−1 (nil: 1 … K).
	Categories []string
	// Horseshoe, if not nil, puts the regularised horseshoe on the
	// coefficients (not the intercept) instead of Prior.
	Horseshoe *Horseshoe
	// Groups are the grouping factors with varying effects.
	Groups []Group
	// Table, if not nil, holds the data instead of Y and X, one row a
	// datum, read as the sampler needs them (a dataset.File on disk: the
	// model holds no row in memory): column Response is the response and
	// the columns Predictors the predictors (nil: every other column, in
	// order). Names, when nil, are the table's column names if it has
	// them (a Names method). NewGLM reads the table twice (its checks,
	// and the moments the default priors scale by); the model is then the
	// one over the same rows in memory, bit for bit. With a Table, Trials,
	// SD, Offset, Weights, Sparse, Groups and Categories must be unset,
	// and the family one of Gaussian, StudentT, Bernoulli, Poisson and
	// NegBinomial (table.go).
	Table      dataset.Table
	Response   int
	Predictors []int
}

// Group is a grouping factor: its levels' varying intercepts and,
// optionally, varying slopes.
type Group struct {
	// Name names the factor in the parameters' names (sd_Name.Intercept,
	// r_Name.level.Intercept).
	Name string
	// Index is each row's level, 0 … K−1.
	Index []int
	// Levels names the K levels (nil: 1 … K).
	Levels []string
	// Slopes are the predictor columns (0-based) whose coefficients vary
	// by level, each with its own sd; a level's effects are independent
	// unless Correlated is set.
	Slopes []int
	// Prior is the prior of each effect's sd (zero: the default).
	Prior Prior
	// Param chooses the parameterisation (zero: Auto, by the data).
	Param Param
	// Correlated, for a factor with slopes (two effects or more), models
	// the correlation of a level's effects, as brms's (1 + x | g): r_j =
	// diag(sd)·L·z_j, z_j ~ N(0, I), with L the Cholesky factor of their
	// correlation matrix Ω = LLᵀ and L ~ LKJCholesky(LKJ), Stan's
	// lkj_corr_cholesky. Every level is then sampled non-centred (Param
	// Centred is refused; Auto's rule is reported by Describe but not
	// applied), L through Stan's transform (canonical partial
	// correlations tanh y). Draws and Summary report the correlations as
	// cor_Name.<effect>.<effect> (brms's cor_Name__Intercept__x1), after
	// the sds.
	Correlated bool
	// LKJ is the LKJ prior's shape η > 0 (zero: 1, uniform over
	// correlation matrices; larger η pulls Ω toward I). Only with
	// Correlated.
	LKJ float64
}

// Param is a grouping factor's parameterisation.
type Param int

// The parameterisations. Auto chooses per level, before sampling, by the
// rule of doc.go.
const (
	Auto Param = iota
	Centred
	NonCentred
)

// CSR is a sparse predictor matrix in compressed sparse row form: row i
// has the values Val[k] in the columns Idx[k], k in [Ptr[i], Ptr[i+1]).
type CSR struct {
	Rows, Cols int
	Ptr, Idx   []int
	Val        []float64
}

// Model is a GLM as an sgmcmc.Model in its sampled parameters x —
// coefficients, the auxiliary parameters, each factor's sds and each
// level's effects (r where centred, z = r/sd where not) — with
// sgmcmc.LogDensity and sgmcmc.BatchModel. Problem gives sample.Run the
// model in unconstrained coordinates (scales on the log scale, or a
// non-centred factor's sds as doc.go's Names says, through the transform
// package); Draws and Summary report the natural parameters.
// It is safe for concurrent use.
type Model struct {
	fam       Family
	link      Link
	n, p      int
	x         []float64 // dense predictors, row-major n × p; nil if sparse or none
	sp        *CSR
	y, trials []float64
	sd        []float64 // known sds (Gaussian with GLM.SD)
	offset    []float64
	weight    []float64
	intercept bool
	priorB    []Prior // the intercept's first, if any
	priorA    Prior
	priorNu   Prior
	nu        float64 // fixed ν (StudentT, GLM.Nu > 0)
	nB        int     // coefficients, the intercept's included
	iA, iNu   int     // indices of σ or φ, and ν; −1 if none
	groups    []group
	dim       int
	names     []string // natural names
	xnames    []string // names of x's coordinates
	space     *transform.Space
	start     []float64 // x₀
	desc      string
	hs        *horseshoe   // the regularised horseshoe, or nil
	cat       *categorical // a Categorical response's layout, or nil
	pool      *sync.Pool   // of *batchWork
	// scratchPool holds a horseshoe model's *hsScratch.
	scratchPool *sync.Pool
	tab         *tableData // the rows of GLM.Table, or nil (table.go)
}

// group is a grouping factor as the model holds it.
type group struct {
	name    string
	levels  []string
	level   []int // each row's
	slopes  []int
	k, e    int // levels, effects a level
	sdOff   int // index of sd_e
	uOff    int // index of level j's effect e: uOff + j·e + e
	prior   Prior
	centred []bool // per level
	kappa   []float64
	// A correlated factor's (lkj.go): L's free entries at corOff, its
	// LKJ shape and log normalising constant.
	cor      bool
	corOff   int
	eta      float64
	lkjConst float64
}

// NewGLM checks g and returns its Model.
func NewGLM(g GLM) (*Model, error) {
	link, err := g.Family.resolve(g.Link)
	if err != nil {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
	}
	m := &Model{fam: g.Family, link: link, y: g.Y, trials: g.Trials, sd: g.SD, offset: g.Offset, weight: g.Weights, intercept: !g.NoIntercept, nu: g.Nu, iA: -1, iNu: -1,
		pool: new(sync.Pool), scratchPool: new(sync.Pool)}
	m.n = len(g.Y)
	if g.Table != nil {
		if err := m.setTable(g); err != nil {
			return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
		}
		if err := m.checkData(g); err != nil {
			return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
		}
	} else {
		if m.n == 0 {
			return nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: NewGLM: no rows (len(Y) = 0)")
		}
		if err := m.setDesign(g); err != nil {
			return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
		}
		if err := m.checkData(g); err != nil {
			return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
		}
	}
	if err := m.setPriors(g); err != nil {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
	}
	if m.fam == Categorical {
		if err := m.setCategories(g); err != nil {
			return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
		}
	} else if g.Categories != nil {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", errorf(sgmcmc.ErrRange, "Categories set for %v", m.fam))
	}
	if g.Horseshoe != nil && !g.Prior.IsZero() {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", errorf(sgmcmc.ErrRange, "both Prior and Horseshoe set: the horseshoe is the coefficients' prior"))
	}
	if err := m.setHorseshoe(g.Horseshoe); err != nil {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
	}
	if err := m.setGroups(g); err != nil {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
	}
	if err := m.setSpace(); err != nil {
		return nil, fmt.Errorf("sgmcmc: models: NewGLM: %w", err)
	}
	m.desc += "\npriors: " + m.priorList()
	m.pool.New = func() any { return new(batchWork) }
	return m, nil
}

// setDesign copies the predictors' layout and names.
func (m *Model) setDesign(g GLM) error {
	switch {
	case g.X != nil && g.Sparse != nil:
		return errorf(sgmcmc.ErrRange, "both X and Sparse are set: give the predictors once")
	case g.X != nil:
		r, c := g.X.Dims()
		if r != m.n {
			return errorf(sgmcmc.ErrDimension, "X has %d rows, Y %d", r, m.n)
		}
		m.p = c
		m.x = make([]float64, r*c)
		for i := range r {
			mat.Row(m.x[i*c:(i+1)*c], i, g.X)
		}
	case g.Sparse != nil:
		s := g.Sparse
		if s.Rows != m.n {
			return errorf(sgmcmc.ErrDimension, "Sparse has %d rows, Y %d", s.Rows, m.n)
		}
		if len(s.Ptr) != s.Rows+1 || s.Ptr[0] != 0 || s.Ptr[s.Rows] != len(s.Idx) || len(s.Val) != len(s.Idx) || s.Cols < 0 {
			return errorf(sgmcmc.ErrRange, "Sparse: inconsistent CSR arrays (want len(Ptr) = Rows+1, Ptr[0] = 0, Ptr[Rows] = len(Idx) = len(Val))")
		}
		for i := range s.Rows {
			if s.Ptr[i+1] < s.Ptr[i] {
				return errorf(sgmcmc.ErrRange, "Sparse: row pointers decrease at row %d", i)
			}
		}
		for k, j := range s.Idx {
			if j < 0 || j >= s.Cols {
				return errorf(sgmcmc.ErrRange, "Sparse: column index %d of nonzero %d not in [0, %d)", j, k, s.Cols)
			}
		}
		m.p, m.sp = s.Cols, s
	}
	return m.setNames(g.Names)
}

// setNames names the coefficients after the predictors' names (nil: x1,
// x2, …).
func (m *Model) setNames(names []string) error {
	if names != nil && len(names) != m.p {
		return errorf(sgmcmc.ErrDimension, "%d Names for %d predictor columns", len(names), m.p)
	}
	m.nB = m.p
	if m.intercept {
		m.nB++
	}
	m.names = nil
	if m.intercept {
		m.names = append(m.names, "b.Intercept")
	}
	for j := range m.p {
		name := "x" + strconv.Itoa(j+1)
		if names != nil {
			name = names[j]
		}
		if err := checkName(name); err != nil {
			return fmt.Errorf("predictor %d: %w", j+1, err)
		}
		m.names = append(m.names, "b."+name)
	}
	return nil
}

// checkName refuses names CmdStan CSV cannot carry.
func checkName(s string) error {
	if s == "" {
		return errorf(sgmcmc.ErrRange, "empty name")
	}
	for _, r := range s {
		if r == ',' || r == '"' || r == '\n' || r == '\r' || r == ' ' {
			return errorf(sgmcmc.ErrRange, "name %q has %q, which a CmdStan CSV header cannot carry", s, r)
		}
	}
	return nil
}

// colName is predictor column j's name without its "b." prefix.
func (m *Model) colName(j int) string {
	off := 0
	if m.intercept {
		off = 1
	}
	return m.names[off+j][2:]
}

// value returns x_{i,k}.
func (m *Model) value(i, k int) float64 {
	if m.x != nil {
		return m.x[i*m.p+k]
	}
	s := m.sp
	for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
		if s.Idx[q] == k {
			return s.Val[q]
		}
	}
	return 0
}

// Dim returns the number of sampled parameters x.
func (m *Model) Dim() int { return m.dim }

// Len returns the number of rows.
func (m *Model) Len() int { return m.n }

// priorList lists the population-level parameters' priors.
func (m *Model) priorList() string {
	var parts []string
	for k, p := range m.priorB {
		if p.IsZero() {
			continue // a horseshoe's coefficient: Describe's horseshoe line
		}
		parts = append(parts, m.names[k]+" ~ "+p.String())
	}
	if m.iA >= 0 {
		parts = append(parts, m.names[m.iA]+" ~ "+m.priorA.String())
	}
	if m.iNu >= 0 {
		parts = append(parts, "nu ~ "+m.priorNu.String())
	}
	return strings.Join(parts, ", ")
}

// Describe says, in words, the model: family, link, priors and each
// grouping factor's parameterisation and why.
func (m *Model) Describe() string { return m.desc }

// The capabilities a Model has.
var (
	_ sgmcmc.Model      = (*Model)(nil)
	_ sgmcmc.LogDensity = (*Model)(nil)
	_ sgmcmc.BatchModel = (*Model)(nil)
)
