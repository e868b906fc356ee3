// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
)

// Methods are the samplers compared, in table order.
var Methods = []string{"HAMCMC", "SGLD", "pSGLD", "SGHMC"}

// paramName names each method's second tuning parameter.
var paramName = map[string]string{"HAMCMC": "γ", "SGHMC": "C"}

// Setting is one point of a method's tuning grid: the constant step size ε
// and the method's second parameter (HAMCMC's γ, SGHMC's friction C;
// unused by SGLD and pSGLD).
type Setting struct {
	Eps, P float64
}

func (s Setting) String(method string) string {
	if n := paramName[method]; n != "" {
		return fmt.Sprintf("ε = %g, %s = %g", s.Eps, n, s.P)
	}
	return fmt.Sprintf("ε = %g", s.Eps)
}

// Config configures the experiment.
type Config struct {
	Rank, Blocks int
	// Workers is the number of goroutines computing the blocks of a
	// stratum during the timed comparison.
	Workers int
	// Seeds are the seeds of the reported runs.
	Seeds []uint64
	// TuneSeed seeds the tuning runs (on a validation split of the
	// training set).
	TuneSeed uint64
	// Budget is the wall-clock budget of each method in each reported run,
	// TuneBudget that of each tuning point.
	Budget, TuneBudget time.Duration
	// Grid holds each method's tuning grid (nil means DefaultGrid for the
	// data's size); Fixed, if it has an entry for a method, skips its
	// tuning.
	Grid  map[string][]Setting
	Fixed map[string]Setting
	// MaxSteps, if positive, also ends each reported run after that many
	// iterations (the tests use it to be independent of the machine's
	// speed).
	MaxSteps int
	// BurnIn samples are discarded before averaging the predictions.
	BurnIn int
	// Checkpoints is the number of RMSE checkpoints per run, spread
	// evenly in time after a few early ones.
	Checkpoints int
	// InitSD is the sd of the random starting factors.
	InitSD float64
	// Memory is HAMCMC's M (the paper uses 2 here); Lambda its damping λ.
	Memory int
	Lambda float64
	// PSGLDAlpha is pSGLD's RMSprop decay α.
	PSGLDAlpha float64
	// Log receives progress notes; nil discards them.
	Log io.Writer
}

// DefaultConfig returns the settings of the default run.
func DefaultConfig() Config {
	return Config{
		Rank: 10, Blocks: 4, Workers: 1,
		Seeds: []uint64{1, 2, 3}, TuneSeed: 1 << 32,
		Budget: 8 * time.Second, TuneBudget: 2500 * time.Millisecond,
		BurnIn:      50,
		Checkpoints: 24,
		InitSD:      0.1,
		Memory:      2,
		Lambda:      0,
		PSGLDAlpha:  0.99,
	}
}

// DefaultGrid is the tuning grid for n training ratings: six points per
// method, step sizes a factor of 2 apart, reaching past the largest stable
// step. The grids are placed for n = 9·10⁴ (MovieLens 100K's size) and
// shifted for other sizes by r = 9·10⁴/n: pSGLD's step sizes by r (its
// RMS-normalised update moves each coordinate by about εn per step, so εn
// is what must cover the same range), SGLD's and HAMCMC's by r^0.6 and
// SGHMC's by r^0.3 (SGHMC's ε enters squared), exponents fitted to where
// the step sizes diverge at MovieLens 100K's and 1M's sizes (the largest
// stable SGLD step falls about fourfold for ten times the ratings, as the
// heaviest users' curvature grows).
func DefaultGrid(n int) map[string][]Setting {
	r := 9e4 / float64(n)
	g := map[string][]Setting{}
	for _, e := range []float64{5e-4, 1e-3, 2e-3, 4e-3, 8e-3, 1.6e-2} {
		g["SGLD"] = append(g["SGLD"], Setting{Eps: roundSig(e * math.Pow(r, 0.6))})
	}
	for _, e := range []float64{2.5e-7, 5e-7, 1e-6, 2e-6, 4e-6, 8e-6} {
		g["pSGLD"] = append(g["pSGLD"], Setting{Eps: roundSig(e * r)})
	}
	for _, p := range []float64{0.5, 2} {
		for _, e := range []float64{2e-3, 4e-3, 8e-3} {
			g["HAMCMC"] = append(g["HAMCMC"], Setting{Eps: roundSig(e * math.Pow(r, 0.6)), P: p})
		}
	}
	for _, c := range []float64{3, 10} {
		for _, e := range []float64{0.03, 0.06, 0.12} {
			g["SGHMC"] = append(g["SGHMC"], Setting{Eps: roundSig(e * math.Pow(r, 0.3)), P: c})
		}
	}
	return g
}

// roundSig rounds x to three significant digits.
func roundSig(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return v
}

// Row is one line of the -json output: one method at one checkpoint of one
// run, or the global-mean predictor (method "mean", seconds and iteration
// 0).
type Row struct {
	Method    string  `json:"method"`
	Seed      uint64  `json:"seed"`
	Seconds   float64 `json:"seconds"`
	Iteration int     `json:"iteration"`
	RMSE      float64 `json:"rmse"`
	// Eps and Param are the method's settings (Param: HAMCMC's γ, SGHMC's C).
	Eps   float64 `json:"eps,omitempty"`
	Param float64 `json:"param,omitempty"`
}

// run is one chain with its running posterior-mean prediction.
type run struct {
	method  string
	set     Setting
	seed    uint64
	s       sgmcmc.Sampler
	grad    *BlockGradient
	p       *Problem
	test    []Rating
	sum     []float64 // Σ predictions over the kept samples
	kept    int
	steps   int
	elapsed time.Duration
	budget  time.Duration
	maxStep int
	marks   []time.Duration // checkpoint times
	next    int
	burnIn  int
	rows    []Row
	err     error
}

// newRun builds method m at setting st on problem p with seed seed.
func newRun(c Config, p *Problem, test []Rating, m string, st Setting, seed uint64, workers int, budget time.Duration) (*run, error) {
	grad, err := NewBlockGradient(p, rand.NewPCG(seed, 0x67726164), workers)
	if err != nil {
		return nil, err
	}
	theta0 := make([]float64, p.Dim())
	p.Init(theta0, c.InitSD, rand.New(rand.NewPCG(seed, 0x696e6974)))
	src := rand.NewPCG(seed, 0x73616d70)
	var s sgmcmc.Sampler
	switch m {
	case "SGLD":
		s, err = sgmcmc.NewSGLD(grad, theta0, src, nil)
	case "pSGLD":
		s, err = sgmcmc.NewPSGLD(grad, theta0, src, &sgmcmc.PSGLDSettings{Alpha: c.PSGLDAlpha, N: float64(p.Len()), DropGamma: true})
	case "SGHMC":
		s, err = sgmcmc.NewSGHMC(grad, theta0, src, &sgmcmc.SGHMCSettings{Friction: st.P})
	case "HAMCMC":
		s, err = sgmcmc.NewHAMCMC(grad, theta0, src, &sgmcmc.HAMCMCSettings{M: c.Memory, Gamma: st.P, Lambda: c.Lambda})
	default:
		err = fmt.Errorf("unknown method %q", m)
	}
	if err != nil {
		grad.Close()
		return nil, err
	}
	return &run{method: m, set: st, seed: seed, s: s, grad: grad, p: p, test: test,
		sum: make([]float64, len(test)), budget: budget, marks: checkpoints(budget, c.Checkpoints), burnIn: c.BurnIn}, nil
}

// checkpoints returns n times in (0, budget]: three early ones at 2, 5
// and 10 % of the budget, the rest evenly spaced.
func checkpoints(budget time.Duration, n int) []time.Duration {
	var t []time.Duration
	for _, f := range []float64{0.02, 0.05} {
		t = append(t, time.Duration(f*float64(budget)))
	}
	rest := max(n-len(t), 1)
	for k := 1; k <= rest; k++ {
		t = append(t, time.Duration(float64(k)/float64(rest)*float64(budget)))
	}
	return t
}

// rmse is the test RMSE of the running posterior-mean prediction (the
// prediction 0, the training mean, before any sample is kept).
func (r *run) rmse() float64 {
	var ss float64
	inv := 0.0
	if r.kept > 0 {
		inv = 1 / float64(r.kept)
	}
	for k, o := range r.test {
		e := o.Value - r.sum[k]*inv
		ss += e * e
	}
	return math.Sqrt(ss / float64(len(r.test)))
}

// step advances the chain by one timed step and folds the new sample into
// the running prediction (untimed). It records a row at each checkpoint
// passed.
func (r *run) step() {
	t0 := time.Now()
	err := r.s.Step(r.set.Eps)
	r.elapsed += time.Since(t0)
	if err != nil {
		r.err = err
		return
	}
	r.steps++
	if r.steps > r.burnIn {
		th := r.s.Position()
		for k, o := range r.test {
			r.sum[k] += r.p.Predict(th, o.User, o.Item)
		}
		r.kept++
	}
	if r.next < len(r.marks) && r.elapsed >= r.marks[r.next] {
		for r.next < len(r.marks) && r.elapsed >= r.marks[r.next] {
			r.next++
		}
		if v := r.rmse(); r.kept > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			r.rows = append(r.rows, Row{Method: r.method, Seed: r.seed, Seconds: r.elapsed.Seconds(),
				Iteration: r.steps, RMSE: v, Eps: r.set.Eps, Param: r.set.P})
		}
	}
}

// note describes HAMCMC's curvature pairs.
func (r *run) note() string {
	h, ok := r.s.(*sgmcmc.HAMCMC)
	if !ok {
		return ""
	}
	st := h.Stats()
	return fmt.Sprintf("  pairs accepted %d, rejected %d, identity steps %d", st.PairsAccepted, st.PairsRejected, st.IdentitySteps)
}

func (r *run) done() bool {
	return r.err != nil || r.elapsed >= r.budget || (r.maxStep > 0 && r.steps >= r.maxStep)
}

// finish records a last row if the run ended between checkpoints.
func (r *run) finish() {
	v := r.rmse()
	if r.err != nil || r.kept == 0 || math.IsInf(v, 0) || math.IsNaN(v) || (len(r.rows) > 0 && r.rows[len(r.rows)-1].Iteration == r.steps) {
		return
	}
	r.rows = append(r.rows, Row{Method: r.method, Seed: r.seed, Seconds: r.elapsed.Seconds(),
		Iteration: r.steps, RMSE: v, Eps: r.set.Eps, Param: r.set.P})
}

// interleave runs every chain to its budget, always advancing the one that
// has used the least time, for slices of about quantum. Interleaving makes
// the timings fair on a shared machine: a burst of load from elsewhere
// slows every method alike.
func interleave(ctx context.Context, runs []*run, quantum time.Duration) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var cur *run
		for _, r := range runs {
			if !r.done() && (cur == nil || r.elapsed < cur.elapsed) {
				cur = r
			}
		}
		if cur == nil {
			return nil
		}
		stop := cur.elapsed + quantum
		for !cur.done() && cur.elapsed < stop {
			cur.step()
		}
		if cur.done() {
			cur.finish()
		}
	}
}

// Result is the outcome of the experiment.
type Result struct {
	// Chosen is each method's tuned setting; Tuning its tuning scores
	// (mean validation RMSE over the checkpoints, +Inf for a failed run),
	// in the order of Grid.
	Chosen map[string]Setting
	Tuning map[string][]float64
	// Grid is the tuning grid used.
	Grid map[string][]Setting
	// Unsafe marks the grid points excluded because the next larger step
	// size with the same second parameter diverged (see unsafePoints).
	Unsafe map[string][]bool
	// Rows are the reported runs' checkpoints, then the mean predictor.
	Rows []Row
	// MeanRMSE is the test RMSE of the global-mean predictor.
	MeanRMSE float64
	// Failures lists reported runs that stopped with an error (a step that
	// diverged); their rows end there.
	Failures []string
	// Speedup holds the parallel-block timings.
	Speedup []SpeedRow
	// Problem sizes.
	Users, Items, Train, Test, Dim int
}

// Experiment tunes each method on a validation split of the training data,
// then runs every method for the budget with each seed and records the
// test RMSE of its running posterior-mean prediction at the checkpoints.
func Experiment(ctx context.Context, c Config, data *Split) (*Result, error) {
	logf := func(format string, a ...any) {
		if c.Log != nil {
			fmt.Fprintf(c.Log, format, a...)
		}
	}
	p, err := NewProblem(data, c.Rank, c.Blocks)
	if err != nil {
		return nil, err
	}
	if c.Grid == nil {
		c.Grid = DefaultGrid(len(data.Train))
	}
	res := &Result{Grid: c.Grid, Unsafe: map[string][]bool{}, Chosen: map[string]Setting{}, Tuning: map[string][]float64{}, MeanRMSE: data.MeanRMSE(),
		Users: data.Users, Items: data.Items, Train: len(data.Train), Test: len(data.Test), Dim: p.Dim()}

	// Tuning: every grid point of every method, interleaved, on a
	// validation split (5 % of the training ratings) with the tuning seed.
	var tune []*run
	needTune := false
	for _, m := range Methods {
		if _, ok := c.Fixed[m]; !ok {
			needTune = true
		}
	}
	if needTune {
		val, err := validationSplit(data, 0.05, c.TuneSeed)
		if err != nil {
			return nil, err
		}
		vp, err := NewProblem(val, c.Rank, c.Blocks)
		if err != nil {
			return nil, err
		}
		for _, m := range Methods {
			if _, ok := c.Fixed[m]; ok {
				continue
			}
			for _, st := range c.Grid[m] {
				r, err := newRun(c, vp, val.Test, m, st, c.TuneSeed, c.Workers, c.TuneBudget)
				if err != nil {
					return nil, err
				}
				tune = append(tune, r)
			}
		}
		logf("tuning: %d grid points × %v each\n", len(tune), c.TuneBudget)
		err = interleave(ctx, tune, 20*time.Millisecond)
		for _, r := range tune {
			r.grad.Close()
		}
		if err != nil {
			return nil, err
		}
		for _, r := range tune {
			score := math.Inf(1)
			if r.err == nil && len(r.rows) > 0 {
				score = 0
				for _, row := range r.rows {
					score += row.RMSE
				}
				score /= float64(len(r.rows))
				if math.IsNaN(score) {
					score = math.Inf(1)
				}
			}
			res.Tuning[r.method] = append(res.Tuning[r.method], score)
			logf("  %-7s %-22s score %.4f  (%d steps)%s\n", r.method, r.set.String(r.method), score, r.steps, r.note())
		}
	}
	for _, m := range Methods {
		if st, ok := c.Fixed[m]; ok {
			res.Chosen[m] = st
			continue
		}
		res.Unsafe[m] = unsafePoints(c.Grid[m], res.Tuning[m])
		best := -1
		for i, v := range res.Tuning[m] {
			if !res.Unsafe[m][i] && !math.IsInf(v, 1) && (best < 0 || v < res.Tuning[m][best]) {
				best = i
			}
		}
		if best < 0 {
			return nil, fmt.Errorf("%s: every tuning point diverged or is next to one that did", m)
		}
		res.Chosen[m] = c.Grid[m][best]
	}

	for _, seed := range c.Seeds {
		var runs []*run
		for _, m := range Methods {
			r, err := newRun(c, p, data.Test, m, res.Chosen[m], seed, c.Workers, c.Budget)
			if err != nil {
				return nil, err
			}
			r.maxStep = c.MaxSteps
			runs = append(runs, r)
		}
		logf("seed %d: %d methods × %v\n", seed, len(runs), c.Budget)
		err := interleave(ctx, runs, 20*time.Millisecond)
		for _, r := range runs {
			r.grad.Close()
		}
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			if r.err != nil {
				res.Failures = append(res.Failures, fmt.Sprintf("%s seed %d: %v", r.method, seed, r.err))
			}
			res.Rows = append(res.Rows, r.rows...)
			last := math.NaN()
			if len(r.rows) > 0 {
				last = r.rows[len(r.rows)-1].RMSE
			}
			logf("  %-7s %6d steps  RMSE %.4f%s\n", r.method, r.steps, last, r.note())
		}
	}
	for _, seed := range c.Seeds {
		res.Rows = append(res.Rows, Row{Method: "mean", Seed: seed, RMSE: res.MeanRMSE})
	}
	return res, nil
}

// unsafePoints marks the grid points whose next larger step size with the
// same second parameter diverged in tuning. A constant step size that is
// stable for one 2.5 s tuning run can still diverge later, or on another
// seed, when it is close to the stability limit (SGLD at ε = 0.008 here
// diverged after 75 to 821 steps on three seeds after surviving its tuning
// run): the rule keeps a margin of at least a factor of two below the
// smallest step size seen to diverge, for every method alike.
func unsafePoints(grid []Setting, score []float64) []bool {
	unsafe := make([]bool, len(grid))
	for i, a := range grid {
		next := -1
		for j, b := range grid {
			if b.P == a.P && b.Eps > a.Eps && (next < 0 || b.Eps < grid[next].Eps) {
				next = j
			}
		}
		unsafe[i] = next >= 0 && math.IsInf(score[next], 1)
	}
	return unsafe
}

// validationSplit holds out a fraction of the training ratings of s (which
// are already centred) as a validation set.
func validationSplit(s *Split, frac float64, seed uint64) (*Split, error) {
	n := len(s.Train)
	nv := int(math.Round(frac * float64(n)))
	if nv < 1 || nv >= n {
		return nil, fmt.Errorf("too few training ratings (%d) for a validation split", n)
	}
	perm := rand.New(rand.NewPCG(seed, 0x76616c)).Perm(n)
	v := &Split{Users: s.Users, Items: s.Items, Offset: s.Offset}
	for k, q := range perm {
		if k < nv {
			v.Test = append(v.Test, s.Train[q])
		} else {
			v.Train = append(v.Train, s.Train[q])
		}
	}
	return v, nil
}

// At returns, for method m, the median over seeds of the RMSE of each
// seed's last checkpoint at or before t seconds, and false if no seed has
// one.
func At(rows []Row, m string, t float64) (float64, bool) {
	last := map[uint64]Row{}
	for _, r := range rows {
		if r.Method != m || r.Seconds > t {
			continue
		}
		if q, ok := last[r.Seed]; !ok || r.Seconds > q.Seconds {
			last[r.Seed] = r
		}
	}
	if len(last) == 0 {
		return 0, false
	}
	v := make([]float64, 0, len(last))
	for _, r := range last {
		v = append(v, r.RMSE)
	}
	sort.Float64s(v)
	if n := len(v); n%2 == 1 {
		return v[n/2], true
	} else {
		return (v[n/2-1] + v[n/2]) / 2, true
	}
}

// CommonTime is the largest time every sampler reached in every seed's
// run: the minimum over methods of their largest checkpoint time.
func CommonTime(rows []Row) float64 {
	maxT := map[string]float64{}
	for _, r := range rows {
		if r.Method != "mean" && r.Seconds > maxT[r.Method] {
			maxT[r.Method] = r.Seconds
		}
	}
	t := math.Inf(1)
	for _, v := range maxT {
		t = math.Min(t, v)
	}
	return t
}
