// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// Config configures a run of the experiment.
type Config struct {
	// Seed seeds every random stream: fold draws, samplers, Gibbs.
	Seed uint64
	// FoldDraws is the number of random 5-fold splits; every model and
	// method is scored on the same splits.
	FoldDraws int
	// Folds is K of K-fold cross-validation.
	Folds int
	// CheckDraws and CheckBurn are the kept draws and burn-in steps of the
	// full-data SG-MCMC runs checked against the exact posterior (each
	// method thins by its Thin).
	CheckDraws, CheckBurn int
	// CVDraws and CVBurn are the same for each cross-validation fit.
	CVDraws, CVBurn int
	// GibbsCheck and GibbsCV are the Gibbs sweeps kept for the full-data
	// reference and for each cross-validation fit (after a burn-in of a
	// fifth as many).
	GibbsCheck, GibbsCV int
	// G is the g-prior's g; zero means the number of training rows (the
	// unit-information prior).
	G float64
	// DiabetesLambda is Park & Casella's λ for the diabetes data (their
	// marginal-maximum-likelihood value, for predictors with unit norm).
	DiabetesLambda float64
	// BostonLambda is the lasso λ for Boston in the same units (the
	// report's fixed-ψ energy uses λ√ψ); zero means Park & Casella's Monte
	// Carlo EM estimate on the full data.
	BostonLambda float64
	// EMIters and EMSweeps are Park & Casella's Monte Carlo EM iterations
	// and Gibbs sweeps per iteration, for the λ estimates.
	EMIters, EMSweeps int
	// PathLambdas are the λ of the diabetes coefficient paths.
	PathLambdas []float64
	// SweepLambdas are the λ of the Boston cross-validation sweep.
	SweepLambdas []float64
	// Precond is the samplers' preconditioner.
	Precond Precond
	// Methods are the SG-MCMC samplers.
	Methods []Method
	// Workers is the number of fits run at once; zero means GOMAXPROCS.
	Workers int
	// DataDir holds boston.csv, diabetes_raw.txt and diabetes_target.txt.
	DataDir string
}

// DefaultConfig returns the settings of the default run.
func DefaultConfig() Config {
	return Config{
		Seed: 1, FoldDraws: 20, Folds: 5,
		CheckDraws: 100000, CheckBurn: 2000,
		CVDraws: 2000, CVBurn: 1000,
		GibbsCheck: 50000, GibbsCV: 2000,
		DiabetesLambda: 0.237,
		EMIters:        40, EMSweeps: 1000,
		PathLambdas:  []float64{0.01, 0.03, 0.1, 0.237, 0.5, 1, 2, 4, 8, 16, 32, 64},
		SweepLambdas: []float64{0.01, 0.1, 0.3, 1, 3, 10, 30},
		Precond:      Dense,
		Methods:      Methods(),
	}
}

// Validate reports the first setting that is out of range.
func (c *Config) Validate() error {
	switch {
	case c.FoldDraws < 1:
		return fmt.Errorf("fold draws = %d, want ≥ 1", c.FoldDraws)
	case c.Folds < 2:
		return fmt.Errorf("folds = %d, want ≥ 2", c.Folds)
	case c.CheckDraws < 10 || c.CVDraws < 1 || c.GibbsCheck < 10 || c.GibbsCV < 1:
		return errors.New("draw counts too small")
	case c.EMIters < 2 || c.EMSweeps < 2:
		return errors.New("the Monte Carlo EM needs at least 2 iterations of 2 sweeps")
	case c.CheckBurn < 0 || c.CVBurn < 0:
		return errors.New("negative burn-in")
	case c.G < 0 || math.IsNaN(c.G) || math.IsInf(c.G, 0):
		return fmt.Errorf("g = %g, want > 0 (or 0 for the number of rows)", c.G)
	case !(c.DiabetesLambda > 0) || math.IsInf(c.DiabetesLambda, 0):
		return fmt.Errorf("λ = %g for diabetes, want a positive finite number", c.DiabetesLambda)
	case c.BostonLambda < 0 || math.IsNaN(c.BostonLambda) || math.IsInf(c.BostonLambda, 0):
		return fmt.Errorf("λ = %g for Boston, want a positive finite number (or 0 for the EM estimate)", c.BostonLambda)
	}
	for _, l := range append(append([]float64(nil), c.PathLambdas...), c.SweepLambdas...) {
		if !(l > 0) || math.IsInf(l, 0) {
			return fmt.Errorf("λ = %g in a path or sweep, want a positive finite number", l)
		}
	}
	return nil
}

// Row is one line of the result: a model fitted by one method on one data
// set.
type Row struct {
	Data   string `json:"data"`
	Model  string `json:"model"`
	Method string `json:"method"`
	// CVRMSE is the K-fold cross-validated RMSE of the posterior-mean
	// prediction (the mean of the K test folds' RMSEs, scikit-learn's
	// cross_val_score convention), averaged over the fold draws; CVRMSESD
	// is its standard deviation over the draws, CVMin and CVMax its range.
	// CVPooled is the RMSE of all N out-of-fold predictions at once,
	// averaged over the draws (slightly larger: it weights the worst fold
	// by its squared error).
	CVRMSE   float64 `json:"cv_rmse"`
	CVRMSESD float64 `json:"cv_rmse_sd"`
	CVMin    float64 `json:"cv_rmse_min"`
	CVMax    float64 `json:"cv_rmse_max"`
	CVPooled float64 `json:"cv_rmse_pooled"`
	// Lambda is the lasso's λ (unit-norm predictors; Park & Casella's
	// scale), for BLASSO rows.
	Lambda float64 `json:"lambda,omitempty"`
	// For sampler rows checked against a reference posterior on the full
	// data: the largest |mean error| in reference sds, the largest
	// relative sd error, the largest |median error| in reference sds
	// (each with its sign), and the smallest bulk ESS over coefficients.
	MaxMeanErrSD   *float64 `json:"max_mean_err_sd,omitempty"`
	MaxSDRelErr    *float64 `json:"max_sd_rel_err,omitempty"`
	MaxMedianErrSD *float64 `json:"max_median_err_sd,omitempty"`
	MinESS         float64  `json:"min_ess,omitempty"`
	// Reference names the posterior the errors are measured against.
	Reference string `json:"reference,omitempty"`
	// Steps is the number of sampler steps (or Gibbs sweeps) of the
	// full-data run, Seconds the wall time of the whole row.
	Steps   int     `json:"steps,omitempty"`
	Seconds float64 `json:"seconds"`
	// Eps, Friction and Batch are the sampler's settings.
	Eps      float64 `json:"eps,omitempty"`
	Friction float64 `json:"friction,omitempty"`
	Batch    int     `json:"batch,omitempty"`
}

// Posterior is a set of draws on the full data, summarised, for the plots.
type Posterior struct {
	Data, Model, Method string
	Names               []string
	Summary             Summary
	// Unit converts a standardised coefficient to the response's change
	// per standard deviation of the predictor.
	Unit float64
}

// PathPoint is the posterior of the diabetes coefficients at one λ.
type PathPoint struct {
	Lambda  float64
	Method  string
	Summary Summary
}

// Result is everything the experiment computes.
type Result struct {
	Rows       []Row
	Posteriors []Posterior
	Paths      []PathPoint
	Names      map[string][]string
	// FoldRMSE holds each row's per-draw CV RMSE, keyed by data/model/method.
	FoldRMSE map[string][]float64
	// EMLambda is the Boston λ from Monte Carlo EM (zero if set by hand).
	EMLambda, EMLambdaNoB float64
	// DiabetesEM is the Monte Carlo EM λ on diabetes (Park & Casella: 0.237).
	DiabetesEM float64
	Seconds    float64
}

// fit is one (model, method) fitted on a training design: it returns the
// posterior mean of β in the design's standardised coordinates.
type fit func(ctx context.Context, pr *Problem, seed uint64) ([]float64, error)

// spec is one row of the experiment.
type spec struct {
	data, model, method string
	lambda              float64 // for BLASSO
	fit                 fit
	// check runs the full-data comparison (nil for exact rows).
	check func(ctx context.Context, pr *Problem, row *Row, seed uint64) (*Posterior, error)
	meth  *Method
}

// runner is one run of the experiment.
type runner struct {
	Config
	// cache memoises the full-data Gibbs references, which several rows
	// share.
	cache sync.Map
}

// Experiment runs everything.
func Experiment(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &runner{Config: cfg}
	start := time.Now()
	dir, err := DataDir(c.DataDir)
	if err != nil {
		return nil, err
	}
	boston, err := LoadBoston(filepath.Join(dir, "boston.csv"))
	if err != nil {
		return nil, err
	}
	noB, err := boston.Drop("B")
	if err != nil {
		return nil, err
	}
	noB.Name = "boston-noB"
	diabetes, err := LoadDiabetes(filepath.Join(dir, "diabetes_raw.txt"), filepath.Join(dir, "diabetes_target.txt"))
	if err != nil {
		return nil, err
	}
	res := &Result{FoldRMSE: map[string][]float64{}, Names: map[string][]string{}}
	for _, d := range []*Data{boston, noB, diabetes} {
		res.Names[d.Name] = d.Names
	}

	// λ for Boston: Park & Casella's Monte Carlo EM on the full data.
	lamB, lamNoB := c.BostonLambda, c.BostonLambda
	if lamB == 0 {
		if lamB, err = c.emLambda(boston); err != nil {
			return nil, err
		}
		if lamNoB, err = c.emLambda(noB); err != nil {
			return nil, err
		}
		res.EMLambda, res.EMLambdaNoB = lamB, lamNoB
	}
	if res.DiabetesEM, err = c.emLambda(diabetes); err != nil {
		return nil, err
	}

	for _, d := range []*Data{boston, noB, diabetes} {
		lam := c.DiabetesLambda
		switch d {
		case boston:
			lam = lamB
		case noB:
			lam = lamNoB
		}
		specs := c.specs(d, lam)
		rows, posts, err := c.runSpecs(ctx, d, specs, res)
		if err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, rows...)
		res.Posteriors = append(res.Posteriors, posts...)
	}
	if res.Paths, err = c.paths(ctx, diabetes); err != nil {
		return nil, err
	}
	sweep, err := c.sweep(ctx, boston)
	if err != nil {
		return nil, err
	}
	res.Rows = append(res.Rows, sweep...)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

func (c *runner) emLambda(d *Data) (float64, error) {
	des, err := NewDesign(d, nil)
	if err != nil {
		return 0, err
	}
	pr, err := NewProblem(des)
	if err != nil {
		return 0, err
	}
	return MCEM(pr, c.EMIters, c.EMSweeps, rand.NewPCG(c.Seed, 0xe1))
}

// g returns the g-prior's g for n training rows.
func (c *runner) g(n int) float64 {
	if c.G > 0 {
		return c.G
	}
	return float64(n)
}

// specs lists the rows of one data set: OLS; BLR exact and by each
// sampler; BLASSO by Gibbs and by each sampler (the fixed-ψ lasso of the
// report on Boston, Park & Casella's hierarchical lasso on diabetes).
func (c *runner) specs(d *Data, lambda float64) []spec {
	hier := d.Name == "diabetes"
	ss := []spec{
		{data: d.Name, model: "OLS", method: "exact", fit: func(_ context.Context, pr *Problem, _ uint64) ([]float64, error) {
			return pr.OLS, nil
		}},
		{data: d.Name, model: "BLR", method: "exact", fit: func(_ context.Context, pr *Problem, _ uint64) ([]float64, error) {
			return pr.GPrior(c.g(pr.N), 1/pr.Sigma2).Mean, nil
		}},
	}
	for i := range c.Methods {
		m := &c.Methods[i]
		ss = append(ss, spec{data: d.Name, model: "BLR", method: m.Name, meth: m,
			fit: func(ctx context.Context, pr *Problem, seed uint64) ([]float64, error) {
				t, err := c.blrTarget(pr)
				if err != nil {
					return nil, err
				}
				draws, err := m.Sample(ctx, t, pr.P, c.CVBurn, c.CVDraws, seed)
				if err != nil {
					return nil, err
				}
				return Summarize(draws, pr.P).Mean, nil
			},
			check: func(ctx context.Context, pr *Problem, row *Row, seed uint64) (*Posterior, error) {
				return c.checkBLR(ctx, pr, m, row, seed)
			}})
	}
	ss = append(ss, spec{data: d.Name, model: "BLASSO", method: "exact", lambda: lambda,
		fit: func(_ context.Context, pr *Problem, seed uint64) ([]float64, error) {
			g, err := NewGibbs(pr, lassoLambda(pr, lambda, hier), lassoPsi(pr, hier), rand.NewPCG(seed, 3))
			if err != nil {
				return nil, err
			}
			draws, err := g.Run(c.GibbsCV, c.GibbsCV/5)
			if err != nil {
				return nil, err
			}
			return Summarize(draws, g.Dim()).Mean[:pr.P], nil
		}})
	for i := range c.Methods {
		m := &c.Methods[i]
		ss = append(ss, spec{data: d.Name, model: "BLASSO", method: m.Name, lambda: lambda, meth: m,
			fit: func(ctx context.Context, pr *Problem, seed uint64) ([]float64, error) {
				t, dim, err := c.lassoTarget(pr, lambda, hier)
				if err != nil {
					return nil, err
				}
				draws, err := m.Sample(ctx, t, dim, c.CVBurn, c.CVDraws, seed)
				if err != nil {
					return nil, err
				}
				return Summarize(draws, dim).Mean[:pr.P], nil
			},
			check: func(ctx context.Context, pr *Problem, row *Row, seed uint64) (*Posterior, error) {
				return c.checkLasso(ctx, pr, m, lambda, hier, row, seed)
			}})
	}
	return ss
}

// lassoPsi is the fixed precision of the report's lasso (Boston), or 0 for
// the hierarchical model (diabetes).
func lassoPsi(pr *Problem, hier bool) float64 {
	if hier {
		return 0
	}
	return 1 / pr.Sigma2
}

// lassoLambda converts λ on Park & Casella's scale to the λ of the model:
// the fixed-ψ energy ψ/2‖y − Xβ‖² + λ'‖β‖₁ with λ' = λ√ψ, the
// hierarchical prior's rate λ/σ at σ² = 1/ψ.
func lassoLambda(pr *Problem, lambda float64, hier bool) float64 {
	if hier {
		return lambda
	}
	return lambda / math.Sqrt(pr.Sigma2)
}

func (c *runner) blrTarget(pr *Problem) (*Target, error) {
	m, err := newBLRModel(pr, c.g(pr.N), 1/pr.Sigma2, c.Precond)
	if err != nil {
		return nil, err
	}
	theta0 := make([]float64, pr.P)
	m.Theta(theta0, pr.OLS)
	return NewTarget(m, theta0, m.Beta)
}

// lassoTarget returns the lasso's SG-MCMC target and the dimension of its
// parameters (β, or β and σ²), started at the least-squares fit.
func (c *runner) lassoTarget(pr *Problem, lambda float64, hier bool) (*Target, int, error) {
	if hier {
		m, err := newHierModel(pr, lambda, c.Precond)
		if err != nil {
			return nil, 0, err
		}
		theta0 := make([]float64, pr.P+1)
		m.FromParams(theta0, append(append([]float64(nil), pr.OLS...), pr.Sigma2))
		t, err := NewTarget(m, theta0, m.Params)
		return t, pr.P + 1, err
	}
	m, err := newLassoModel(pr, lassoLambda(pr, lambda, false), 1/pr.Sigma2, c.Precond)
	if err != nil {
		return nil, 0, err
	}
	theta0 := make([]float64, pr.P)
	m.Theta(theta0, pr.OLS)
	t, err := NewTarget(m, theta0, m.Beta)
	return t, pr.P, err
}

// checkBLR compares a long full-data run of m with the exact g-prior
// posterior.
func (c *runner) checkBLR(ctx context.Context, pr *Problem, m *Method, row *Row, seed uint64) (*Posterior, error) {
	t, err := c.blrTarget(pr)
	if err != nil {
		return nil, err
	}
	draws, err := m.Sample(ctx, t, pr.P, c.CheckBurn, c.CheckDraws, seed)
	if err != nil {
		return nil, err
	}
	ex := pr.GPrior(c.g(pr.N), 1/pr.Sigma2)
	s := Summarize(draws, pr.P)
	me, se, _ := s.Errors(ex.Mean, ex.SD(), nil, pr.P)
	row.MaxMeanErrSD, row.MaxSDRelErr = &me, &se
	row.MinESS = minESS(draws, pr.P, pr.P)
	row.Reference = "exact g-prior posterior"
	row.Steps = c.CheckBurn + c.CheckDraws*m.Thin
	return &Posterior{Summary: s}, nil
}

// checkLasso compares a long full-data run of m with a long Gibbs run.
func (c *runner) checkLasso(ctx context.Context, pr *Problem, m *Method, lambda float64, hier bool, row *Row, seed uint64) (*Posterior, error) {
	t, dim, err := c.lassoTarget(pr, lambda, hier)
	if err != nil {
		return nil, err
	}
	draws, err := m.Sample(ctx, t, dim, c.CheckBurn, c.CheckDraws, seed)
	if err != nil {
		return nil, err
	}
	ref, err := c.gibbsReference(pr, lambda, hier)
	if err != nil {
		return nil, err
	}
	s := Summarize(draws, dim)
	me, se, md := s.Errors(ref.Mean, ref.SD, ref.Median, pr.P)
	row.MaxMeanErrSD, row.MaxSDRelErr, row.MaxMedianErrSD = &me, &se, &md
	row.MinESS = minESS(draws, dim, pr.P)
	row.Reference = "Gibbs sampler (Park & Casella 2008)"
	row.Steps = c.CheckBurn + c.CheckDraws*m.Thin
	return &Posterior{Summary: s}, nil
}

type gibbsKey struct {
	n, p         int
	y0           float64
	lambda       float64
	hier         bool
	sweeps, seed uint64
}

func (c *runner) gibbsReference(pr *Problem, lambda float64, hier bool) (Summary, error) {
	k := gibbsKey{pr.N, pr.P, pr.Y[0], lambda, hier, uint64(c.GibbsCheck), c.Seed}
	if v, ok := c.cache.Load(k); ok {
		return v.(Summary), nil
	}
	g, err := NewGibbs(pr, lassoLambda(pr, lambda, hier), lassoPsi(pr, hier), rand.NewPCG(c.Seed, 0x61bb5))
	if err != nil {
		return Summary{}, err
	}
	draws, err := g.Run(c.GibbsCheck, c.GibbsCheck/5)
	if err != nil {
		return Summary{}, err
	}
	s := Summarize(draws, g.Dim())
	c.cache.Store(k, s)
	return s, nil
}

// minESS is the smallest bulk ESS over the first p of dim coordinates.
func minESS(draws []float64, dim, p int) float64 {
	n := len(draws) / dim
	col := make([]float64, n)
	best := math.Inf(1)
	for j := range p {
		for i := range n {
			col[i] = draws[i*dim+j]
		}
		if e, err := diagnostics.ESSBulk([][]float64{col}); err == nil {
			best = min(best, e)
		}
	}
	return best
}

// job is one cross-validation fit.
type job struct {
	spec, draw, fold int
}

// runSpecs cross-validates every spec of one data set on the same fold
// draws, and runs the full-data checks.
func (c *runner) runSpecs(ctx context.Context, d *Data, specs []spec, res *Result) ([]Row, []Posterior, error) {
	folds := make([][]int, c.FoldDraws)
	for r := range folds {
		folds[r] = Folds(d.N, c.Folds, rand.NewPCG(c.Seed, 1000+uint64(r)))
	}
	// Each training design is shared by every spec.
	type split struct {
		pr   *Problem
		test []int
	}
	splits := make([]split, c.FoldDraws*c.Folds)
	for r := range c.FoldDraws {
		for k := range c.Folds {
			train := make([]bool, d.N)
			var test []int
			for i, f := range folds[r] {
				if f == k {
					test = append(test, i)
				} else {
					train[i] = true
				}
			}
			des, err := NewDesign(d, train)
			if err != nil {
				return nil, nil, err
			}
			pr, err := NewProblem(des)
			if err != nil {
				return nil, nil, fmt.Errorf("%s fold draw %d, fold %d: %v", d.Name, r, k, err)
			}
			splits[r*c.Folds+k] = split{pr, test}
		}
	}
	full, err := NewDesign(d, nil)
	if err != nil {
		return nil, nil, err
	}
	fullPr, err := NewProblem(full)
	if err != nil {
		return nil, nil, err
	}

	// Squared errors per spec and fold (summed in a fixed order below, so
	// the result does not depend on scheduling), and the check results.
	sse := make([][]float64, len(specs))
	for s := range sse {
		sse[s] = make([]float64, c.FoldDraws*c.Folds)
	}
	rows := make([]Row, len(specs))
	posts := make([]*Posterior, len(specs))
	secs := make([]float64, len(specs))
	var mu sync.Mutex
	var jobs []job
	for s := range specs {
		if specs[s].check != nil {
			jobs = append(jobs, job{spec: s, draw: -1})
		}
	}
	for s := range specs {
		for r := range c.FoldDraws {
			for k := range c.Folds {
				jobs = append(jobs, job{s, r, k})
			}
		}
	}
	err = parallel(ctx, c.Workers, len(jobs), func(ctx context.Context, i int) error {
		j := jobs[i]
		sp := &specs[j.spec]
		t0 := time.Now()
		seed := c.Seed<<32 ^ uint64(j.spec)<<20 ^ uint64(j.draw+1)<<8 ^ uint64(j.fold)
		if j.draw < 0 {
			post, err := sp.check(ctx, fullPr, &rows[j.spec], seed)
			if err != nil {
				return fmt.Errorf("%s %s/%s: %w", sp.data, sp.model, sp.method, err)
			}
			mu.Lock()
			posts[j.spec] = post
			secs[j.spec] += time.Since(t0).Seconds()
			mu.Unlock()
			return nil
		}
		sl := splits[j.draw*c.Folds+j.fold]
		beta, err := sp.fit(ctx, sl.pr, seed)
		if err != nil {
			return fmt.Errorf("%s %s/%s, fold draw %d, fold %d: %w", sp.data, sp.model, sp.method, j.draw, j.fold, err)
		}
		var e float64
		for _, i := range sl.test {
			r := d.Y[i] - sl.pr.Predict(d.Row(i), beta)
			e += r * r
		}
		mu.Lock()
		sse[j.spec][j.draw*c.Folds+j.fold] = e
		secs[j.spec] += time.Since(t0).Seconds()
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var out []Posterior
	for s, sp := range specs {
		rmse := make([]float64, c.FoldDraws)
		var pooled float64
		for r := range c.FoldDraws {
			var all float64
			for k := range c.Folds {
				sl := splits[r*c.Folds+k]
				e := sse[s][r*c.Folds+k]
				all += e
				rmse[r] += math.Sqrt(e/float64(len(sl.test))) / float64(c.Folds)
			}
			pooled += math.Sqrt(all/float64(d.N)) / float64(c.FoldDraws)
		}
		row := &rows[s]
		row.Data, row.Model, row.Method = sp.data, sp.model, sp.method
		row.CVRMSE, row.CVRMSESD = stat.MeanStdDev(rmse, nil)
		row.CVPooled = pooled
		if c.FoldDraws < 2 {
			row.CVRMSESD = 0
		}
		row.CVMin, row.CVMax = minMax(rmse)
		row.Seconds = secs[s]
		if sp.model == "BLASSO" {
			row.Lambda = sp.lambda
		}
		if sp.meth != nil {
			row.Eps, row.Friction, row.Batch = sp.meth.Eps, sp.meth.Friction, sp.meth.Batch
		}
		res.FoldRMSE[sp.data+"/"+sp.model+"/"+sp.method] = rmse
		post := posts[s]
		if post == nil {
			var err error
			if post, err = c.exactPosterior(fullPr, sp); err != nil {
				return nil, nil, err
			}
		}
		if post != nil {
			post.Data, post.Model, post.Method, post.Names = sp.data, sp.model, sp.method, d.Names
			post.Unit = 1 / math.Sqrt(float64(d.N))
			out = append(out, *post)
		}
	}
	return rows, out, nil
}

// exactPosterior summarises the reference posterior of an exact row, for
// the interval plot: draws from the g-prior posterior, or the Gibbs
// reference. OLS has none.
func (c *runner) exactPosterior(pr *Problem, sp spec) (*Posterior, error) {
	switch sp.model {
	case "BLR":
		ex := pr.GPrior(c.g(pr.N), 1/pr.Sigma2)
		draws, err := ex.Draws(c.GibbsCheck, rand.NewPCG(c.Seed, 0xb1))
		if err != nil {
			return nil, err
		}
		return &Posterior{Summary: Summarize(draws, pr.P)}, nil
	case "BLASSO":
		s, err := c.gibbsReference(pr, sp.lambda, sp.data == "diabetes")
		if err != nil {
			return nil, err
		}
		return &Posterior{Summary: s}, nil
	}
	return nil, nil
}

// paths runs the diabetes lasso at each λ of c.PathLambdas: Gibbs for
// every λ, and the first SG-MCMC method at every other one.
func (c *runner) paths(ctx context.Context, d *Data) ([]PathPoint, error) {
	des, err := NewDesign(d, nil)
	if err != nil {
		return nil, err
	}
	pr, err := NewProblem(des)
	if err != nil {
		return nil, err
	}
	out := make([]PathPoint, 2*len(c.PathLambdas))
	err = parallel(ctx, c.Workers, len(out), func(ctx context.Context, i int) error {
		lam := c.PathLambdas[i/2]
		if i%2 == 0 {
			g, err := NewGibbs(pr, lam, 0, rand.NewPCG(c.Seed, 0x9a7+uint64(i)))
			if err != nil {
				return err
			}
			draws, err := g.Run(c.GibbsCheck/5, c.GibbsCheck/25)
			if err != nil {
				return err
			}
			out[i] = PathPoint{Lambda: lam, Method: "exact", Summary: Summarize(draws, g.Dim())}
			return nil
		}
		if len(c.Methods) == 0 || (i/2)%2 == 1 {
			return nil
		}
		m := &c.Methods[0]
		t, dim, err := c.lassoTarget(pr, lam, true)
		if err != nil {
			return err
		}
		draws, err := m.Sample(ctx, t, dim, c.CheckBurn, c.CheckDraws/5, c.Seed^uint64(i)<<40)
		if err != nil {
			return fmt.Errorf("diabetes lasso path, λ = %g: %w", lam, err)
		}
		out[i] = PathPoint{Lambda: lam, Method: m.Name, Summary: Summarize(draws, dim)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var pts []PathPoint
	for _, p := range out {
		if p.Method != "" {
			pts = append(pts, p)
		}
	}
	return pts, nil
}

// sweep cross-validates the Boston lasso (Gibbs) over c.SweepLambdas, on
// the same fold draws as the main table, as rows of data "boston-sweep".
func (c *runner) sweep(ctx context.Context, d *Data) ([]Row, error) {
	var rows []Row
	for _, lam := range c.SweepLambdas {
		sp := spec{data: d.Name + "-sweep", model: "BLASSO", method: "exact", lambda: lam,
			fit: func(_ context.Context, pr *Problem, seed uint64) ([]float64, error) {
				g, err := NewGibbs(pr, lassoLambda(pr, lam, false), lassoPsi(pr, false), rand.NewPCG(seed, 3))
				if err != nil {
					return nil, err
				}
				draws, err := g.Run(c.GibbsCV, c.GibbsCV/5)
				if err != nil {
					return nil, err
				}
				return Summarize(draws, g.Dim()).Mean, nil
			}}
		r, _, err := c.runSpecs(ctx, d, []spec{sp}, &Result{FoldRMSE: map[string][]float64{}})
		if err != nil {
			return nil, err
		}
		rows = append(rows, r[0])
	}
	return rows, nil
}

// parallel calls f(i) for i in [0, n) on workers goroutines and returns
// the first error; the others are cancelled through ctx.
func parallel(ctx context.Context, workers, n int, f func(ctx context.Context, i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		}()
	}
loop:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break loop
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

func minMax(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// StudyRow is one cell of the step-size study: the worst errors of a
// full-data run against the reference, and the coefficient whose sd is
// worst.
type StudyRow struct {
	Model, Method          string
	Eps                    float64
	MeanErr, SDErr, MedErr float64
	WorstSD                string
	MinESS                 float64
}

// StepStudy runs each method on the diabetes data at its step size times
// each factor, for the smooth g-prior posterior and for Park & Casella's
// lasso with its kink at β_j = 0, to separate the discretisation error of
// the subgradient from the ordinary one.
func StepStudy(ctx context.Context, cfg Config, factors []float64) ([]StudyRow, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &runner{Config: cfg}
	dir, err := DataDir(c.DataDir)
	if err != nil {
		return nil, err
	}
	d, err := LoadDiabetes(filepath.Join(dir, "diabetes_raw.txt"), filepath.Join(dir, "diabetes_target.txt"))
	if err != nil {
		return nil, err
	}
	des, err := NewDesign(d, nil)
	if err != nil {
		return nil, err
	}
	pr, err := NewProblem(des)
	if err != nil {
		return nil, err
	}
	ref, err := c.gibbsReference(pr, c.DiabetesLambda, true)
	if err != nil {
		return nil, err
	}
	ex := pr.GPrior(c.g(pr.N), 1/pr.Sigma2)
	type cell struct {
		m     Method
		model string
		f     float64
	}
	var cells []cell
	for _, m := range c.Methods {
		for _, model := range []string{"BLR", "BLASSO"} {
			for _, f := range factors {
				cells = append(cells, cell{m, model, f})
			}
		}
	}
	out := make([]StudyRow, len(cells))
	err = parallel(ctx, c.Workers, len(cells), func(ctx context.Context, i int) error {
		cl := cells[i]
		m := cl.m
		m.Eps *= cl.f
		var t *Target
		dim := pr.P
		var err error
		mean, sd, med := ex.Mean, ex.SD(), []float64(nil)
		if cl.model == "BLR" {
			t, err = c.blrTarget(pr)
		} else {
			t, dim, err = c.lassoTarget(pr, c.DiabetesLambda, true)
			mean, sd, med = ref.Mean, ref.SD, ref.Median
		}
		if err != nil {
			return err
		}
		draws, err := m.Sample(ctx, t, dim, c.CheckBurn, c.CheckDraws, c.Seed^uint64(i+1)<<36)
		if err != nil {
			return err
		}
		s := Summarize(draws, dim)
		r := StudyRow{Model: cl.model, Method: m.Name, Eps: m.Eps, MinESS: minESS(draws, dim, pr.P)}
		r.MeanErr, r.SDErr, r.MedErr = s.Errors(mean, sd, med, pr.P)
		for j := range pr.P {
			if s.SD[j]/sd[j]-1 == r.SDErr {
				r.WorstSD = d.Names[j]
			}
		}
		out[i] = r
		return nil
	})
	return out, err
}

// PrecondRow is one cell of the preconditioner study.
type PrecondRow struct {
	Data            string
	Precond         Precond
	MeanErr, SDErr  float64
	MinESS, Seconds float64
}

// PrecondStudy runs the first method (SGHMC) on the g-prior posterior of
// Boston and diabetes in both preconditioners with the same settings and
// budget, against the exact posterior.
func PrecondStudy(ctx context.Context, cfg Config) ([]PrecondRow, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(cfg.Methods) == 0 {
		return nil, errors.New("no methods")
	}
	dir, err := DataDir(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	b, err := LoadBoston(filepath.Join(dir, "boston.csv"))
	if err != nil {
		return nil, err
	}
	d, err := LoadDiabetes(filepath.Join(dir, "diabetes_raw.txt"), filepath.Join(dir, "diabetes_target.txt"))
	if err != nil {
		return nil, err
	}
	var cells []PrecondRow
	for _, data := range []*Data{b, d} {
		for _, k := range []Precond{Dense, Diag} {
			cells = append(cells, PrecondRow{Data: data.Name, Precond: k})
		}
	}
	m := cfg.Methods[0]
	err = parallel(ctx, cfg.Workers, len(cells), func(ctx context.Context, i int) error {
		t0 := time.Now()
		cl := &cells[i]
		data := b
		if cl.Data == "diabetes" {
			data = d
		}
		des, err := NewDesign(data, nil)
		if err != nil {
			return err
		}
		pr, err := NewProblem(des)
		if err != nil {
			return err
		}
		c := &runner{Config: cfg}
		c.Precond = cl.Precond
		t, err := c.blrTarget(pr)
		if err != nil {
			return err
		}
		draws, err := m.Sample(ctx, t, pr.P, c.CheckBurn, c.CheckDraws, c.Seed^uint64(i+1)<<44)
		if err != nil {
			return fmt.Errorf("%s, %s preconditioner: %w", cl.Data, cl.Precond, err)
		}
		ex := pr.GPrior(c.g(pr.N), 1/pr.Sigma2)
		cl.MeanErr, cl.SDErr, _ = Summarize(draws, pr.P).Errors(ex.Mean, ex.SD(), nil, pr.P)
		cl.MinESS = minESS(draws, pr.P, pr.P)
		cl.Seconds = time.Since(t0).Seconds()
		return nil
	})
	return cells, err
}
