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

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// Gradient computes a (possibly stochastic) estimate ∇Ũ(θ) of the gradient
// of the potential U(θ) = −log p(θ) − Σ_i log p(x_i | θ).
//
// This is the low-level form: users who compute their own stochastic
// gradient (streaming data, control variates) implement it directly, or use
// GradFunc. Users with a dataset implement Model and wrap it in a Minibatch,
// which does the N/n scaling itself.
type Gradient interface {
	// Grad writes ∇Ũ(θ) into dst. It must not retain dst or theta.
	Grad(dst, theta []float64)
}

// GradFunc adapts a function to the Gradient interface.
type GradFunc func(dst, theta []float64)

// Grad calls f(dst, theta).
func (f GradFunc) Grad(dst, theta []float64) { f(dst, theta) }

// Model describes a posterior p(θ | x) ∝ p(θ) Π_i p(x_i | θ) over a dataset
// of Len() items by the gradients of its log prior and per-datum log
// likelihood. Both methods accumulate into dst, so sparse models can touch
// only the coordinates they affect.
type Model interface {
	// Dim returns the dimension of θ.
	Dim() int
	// Len returns the number N of data items.
	Len() int
	// LogPriorGrad adds ∇θ log p(θ) to dst.
	LogPriorGrad(dst, theta []float64)
	// LogLikGrad adds scale · ∇θ log p(x_i | θ) to dst.
	LogLikGrad(dst, theta []float64, i int, scale float64)
}

// LogDensity is an optional capability of a Model: the values of the log
// prior and of each datum's log likelihood, for the potential U(θ) used by
// diagnostics and by CheckModel.
type LogDensity interface {
	LogPrior(theta []float64) float64
	LogLik(theta []float64, i int) float64
}

// BatchModel is an optional capability of a Model: the log-likelihood
// gradient of a whole minibatch in one call, so that a model can vectorise
// across the batch (all dot products first, then the link functions).
// Minibatch uses it when present and Noise is not set.
type BatchModel interface {
	// LogLikGradBatch adds scale · Σ_{i∈idx} ∇θ log p(x_i | θ) to dst.
	LogLikGradBatch(dst, theta []float64, idx []int, scale float64)
}

// NoiseEstimator is an optional capability of a Gradient: the diagonal of an
// estimate V̂ of the covariance of the noise of the last gradient it computed
// (∇Ũ = ∇U + N(0, V)). The Recipe samplers use it for B̂ when asked to.
type NoiseEstimator interface {
	// NoiseVar writes diag(V̂) of the last call to Grad into dst.
	NoiseVar(dst []float64)
}

// Potential returns U(θ) = −log p(θ) − Σ_i log p(x_i | θ) over the whole
// dataset. The model must implement LogDensity.
func Potential(m Model, theta []float64) (float64, error) {
	ld, ok := m.(LogDensity)
	if !ok {
		return math.NaN(), errors.New("sgmcmc: Potential: model does not implement LogDensity")
	}
	if len(theta) != m.Dim() {
		return math.NaN(), fmt.Errorf("sgmcmc: Potential: len(theta) = %d, model dimension %d", len(theta), m.Dim())
	}
	u := -ld.LogPrior(theta)
	for i := range m.Len() {
		u -= ld.LogLik(theta, i)
	}
	return u, nil
}

// Minibatch is the stochastic gradient of a Model on random minibatches:
//
//	∇Ũ(θ) = −∇log p(θ) − (N/n) Σ_{i∈S} ∇log p(x_i | θ),
//
// with S a fresh minibatch of size n at every call, drawn with or without
// replacement. The N/n scaling is applied here, once, so that the estimate is
// unbiased for ∇U.
//
// With Noise set, Grad also estimates the diagonal of the gradient-noise
// covariance from the per-datum gradients of the batch (the SGFS estimate of
// Ahn et al. 2012, EQUATIONS §2): V̂ = (N²/n) · var_i(g_i), times the
// finite-population correction (1 − n/N) for batches drawn without
// replacement (without it V̂ overestimates the noise by N/(N − n), and B̂
// over-corrects), available through NoiseVar. That costs O(n·d) per call
// and needs n ≥ 2.
type Minibatch struct {
	// Noise enables the estimate of V̂. Set it before the first call to Grad.
	Noise bool

	model   Model
	n       int
	replace bool
	src     rand.Source
	rng     *rand.Rand
	perm    []int
	idx     []int

	// noise estimation buffers, allocated on first use
	gi, sum, sumsq, v []float64
}

// NewMinibatch returns a Minibatch of size n over m, drawing indices from
// src. With replace false each batch has n distinct items.
func NewMinibatch(m Model, n int, replace bool, src rand.Source) (*Minibatch, error) {
	if m == nil {
		return nil, errors.New("sgmcmc: NewMinibatch: nil model")
	}
	if src == nil {
		return nil, errors.New("sgmcmc: NewMinibatch: nil random source")
	}
	N := m.Len()
	if N <= 0 {
		return nil, fmt.Errorf("sgmcmc: NewMinibatch: model has %d data items", N)
	}
	if n <= 0 || (!replace && n > N) {
		return nil, fmt.Errorf("sgmcmc: NewMinibatch: batch size %d not in [1, %d]", n, N)
	}
	b := &Minibatch{model: m, n: n, replace: replace, src: src, rng: rand.New(src), idx: make([]int, n)}
	if !replace {
		b.perm = make([]int, N)
		for i := range b.perm {
			b.perm[i] = i
		}
	}
	return b, nil
}

// Size returns the batch size n.
func (b *Minibatch) Size() int { return b.n }

// Indices returns the data indices of the last batch (read only).
func (b *Minibatch) Indices() []int { return b.idx }

// Draw draws a new batch of indices and returns it (read only). Grad calls it;
// call it directly to evaluate something else on the same batch.
func (b *Minibatch) Draw() []int {
	N := b.model.Len()
	if b.replace {
		for k := range b.idx {
			b.idx[k] = b.rng.IntN(N)
		}
		return b.idx
	}
	// Partial Fisher–Yates over a persistent permutation: O(n) per batch,
	// and uniform over n-subsets whatever order perm was left in.
	for k := range b.n {
		j := k + b.rng.IntN(N-k)
		b.perm[k], b.perm[j] = b.perm[j], b.perm[k]
		b.idx[k] = b.perm[k]
	}
	return b.idx
}

// Grad draws a new minibatch and writes ∇Ũ(θ) into dst.
func (b *Minibatch) Grad(dst, theta []float64) {
	b.Draw()
	b.GradOn(dst, theta, b.idx)
}

// GradOn writes ∇Ũ(θ) computed on the given indices into dst, with the
// scaling N/len(idx). It does not draw a batch.
func (b *Minibatch) GradOn(dst, theta []float64, idx []int) {
	clear(dst)
	m := b.model
	m.LogPriorGrad(dst, theta)
	scale := float64(m.Len()) / float64(len(idx))
	switch bm, ok := m.(BatchModel); {
	case b.Noise:
		b.gradNoise(dst, theta, idx, scale)
	case ok:
		bm.LogLikGradBatch(dst, theta, idx, scale)
	default:
		for _, i := range idx {
			m.LogLikGrad(dst, theta, i, scale)
		}
	}
	for j := range dst {
		dst[j] = -dst[j]
	}
}

func (b *Minibatch) gradNoise(dst, theta []float64, idx []int, scale float64) {
	d := len(dst)
	if len(b.gi) != d {
		b.gi = make([]float64, d)
		b.sum = make([]float64, d)
		b.sumsq = make([]float64, d)
		b.v = make([]float64, d)
	}
	for j := range d {
		b.sum[j], b.sumsq[j] = 0, 0
	}
	m := b.model
	for _, i := range idx {
		for j := range d {
			b.gi[j] = 0
		}
		m.LogLikGrad(b.gi, theta, i, 1)
		for j, g := range b.gi {
			b.sum[j] += g
			b.sumsq[j] += g * g
			dst[j] += scale * g
		}
	}
	n := float64(len(idx))
	N := float64(m.Len())
	// Var(N·ḡ) = (N²/n)·S², times the finite-population correction 1 − n/N
	// when the batch is drawn without replacement; s² is unbiased for S².
	c := N * N / n
	if !b.replace {
		c *= 1 - n/N
	}
	for j := range d {
		if n < 2 {
			b.v[j] = 0
			continue
		}
		mean := b.sum[j] / n
		s2 := (b.sumsq[j] - n*mean*mean) / (n - 1)
		b.v[j] = max(c*s2, 0)
	}
}

// NoiseVar writes the diagonal of V̂ for the last batch into dst. It writes
// zeros unless Noise was set.
func (b *Minibatch) NoiseVar(dst []float64) {
	if len(b.v) != len(dst) {
		for j := range dst {
			dst[j] = 0
		}
		return
	}
	copy(dst, b.v)
}

// FullGradient returns the exact gradient ∇U(θ) of m over all N items. It is
// for tests, references and small problems.
func FullGradient(m Model) Gradient {
	return GradFunc(func(dst, theta []float64) {
		for j := range dst {
			dst[j] = 0
		}
		m.LogPriorGrad(dst, theta)
		for i := range m.Len() {
			m.LogLikGrad(dst, theta, i, 1)
		}
		for j := range dst {
			dst[j] = -dst[j]
		}
	})
}

// DiagMetric is a diagonal Riemannian metric G(θ) = diag(g(θ)) with g_i > 0,
// as used by SGRLD and gSGRHMC. From g and its diagonal derivatives the
// samplers derive G⁻¹, G^(−1/2) and their correction terms Γ exactly.
type DiagMetric interface {
	// Diag writes g(θ) into g and ∂g_i/∂θ_i into dg.
	Diag(g, dg, theta []float64)
}

// DiagMetricFunc adapts a function to the DiagMetric interface.
type DiagMetricFunc func(g, dg, theta []float64)

// Diag calls f(g, dg, theta).
func (f DiagMetricFunc) Diag(g, dg, theta []float64) { f(g, dg, theta) }

// DenseMetric is a dense positive definite metric G(θ). The samplers that
// use it do O(d³) work per step.
type DenseMetric interface {
	// Dense writes G(θ) into g and ∂G/∂θ_k into dg[k], k = 0 … d−1.
	Dense(g *mat.SymDense, dg []*mat.SymDense, theta []float64)
}

// GradCheck is the result of comparing an analytic gradient with central
// finite differences: the worst coordinate and its errors.
type GradCheck struct {
	Index    int     // coordinate with the largest absolute error
	Analytic float64 // analytic derivative there
	Numeric  float64 // finite-difference derivative there
	AbsErr   float64 // |Analytic − Numeric|
	RelErr   float64 // AbsErr / max(1, |Numeric|)
}

// String formats the check.
func (g GradCheck) String() string {
	return fmt.Sprintf("worst coordinate %d: analytic %.10g, finite difference %.10g, abs err %.3g, rel err %.3g",
		g.Index, g.Analytic, g.Numeric, g.AbsErr, g.RelErr)
}

// CheckGradient compares grad with the central finite-difference gradient of
// f (gonum's diff/fd) at x and reports the worst coordinate.
func CheckGradient(f func(x []float64) float64, grad func(dst, x []float64), x []float64) GradCheck {
	num := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central})
	ana := make([]float64, len(x))
	grad(ana, x)
	var w GradCheck
	w.Index = -1
	for i := range x {
		e := math.Abs(ana[i] - num[i])
		if math.IsNaN(e) {
			e = math.Inf(1)
		}
		if w.Index < 0 || e > w.AbsErr {
			w = GradCheck{Index: i, Analytic: ana[i], Numeric: num[i], AbsErr: e, RelErr: e / math.Max(1, math.Abs(num[i]))}
		}
	}
	return w
}

// CheckModel checks a model's gradients against finite differences of its
// log densities at theta: the log prior and the log likelihood of each
// datum in items. It returns the worse of the two checks. The model must
// implement LogDensity.
func CheckModel(m Model, theta []float64, items []int) (GradCheck, error) {
	ld, ok := m.(LogDensity)
	if !ok {
		return GradCheck{}, errors.New("sgmcmc: CheckModel: model does not implement LogDensity")
	}
	if len(theta) != m.Dim() {
		return GradCheck{}, fmt.Errorf("sgmcmc: CheckModel: len(theta) = %d, model dimension %d", len(theta), m.Dim())
	}
	worst := CheckGradient(ld.LogPrior, func(dst, x []float64) {
		clear(dst)
		m.LogPriorGrad(dst, x)
	}, theta)
	for _, i := range items {
		if i < 0 || i >= m.Len() {
			return worst, fmt.Errorf("sgmcmc: CheckModel: item %d out of range [0, %d)", i, m.Len())
		}
		c := CheckGradient(func(x []float64) float64 { return ld.LogLik(x, i) }, func(dst, x []float64) {
			clear(dst)
			m.LogLikGrad(dst, x, i, 1)
		}, theta)
		if c.RelErr > worst.RelErr {
			worst = c
		}
	}
	return worst, nil
}

// MarshalBinary checkpoints the batch stream: the random source's state
// and, without replacement, the permutation the batches are drawn from. The
// source must implement encoding.BinaryMarshaler.
func (b *Minibatch) MarshalBinary() ([]byte, error) {
	m, ok := b.src.(encoding.BinaryMarshaler)
	if !ok {
		return nil, fmt.Errorf("sgmcmc: Minibatch.MarshalBinary: random source %T does not implement encoding.BinaryMarshaler", b.src)
	}
	src, err := m.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("sgmcmc: Minibatch.MarshalBinary: %w", err)
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(b.perm)))
	for _, p := range b.perm {
		out = binary.LittleEndian.AppendUint64(out, uint64(p))
	}
	return append(out, src...), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Minibatch over the same model with the same size and replacement.
func (b *Minibatch) UnmarshalBinary(data []byte) error {
	u, ok := b.src.(encoding.BinaryUnmarshaler)
	if !ok {
		return fmt.Errorf("sgmcmc: Minibatch.UnmarshalBinary: random source %T does not implement encoding.BinaryUnmarshaler", b.src)
	}
	if len(data) < 8 {
		return errors.New("sgmcmc: Minibatch.UnmarshalBinary: checkpoint too short")
	}
	n := binary.LittleEndian.Uint64(data)
	if n != uint64(len(b.perm)) || uint64(len(data)) < 8+8*n {
		return fmt.Errorf("sgmcmc: Minibatch.UnmarshalBinary: checkpoint of a permutation of length %d, minibatch has %d", n, len(b.perm))
	}
	perm := make([]int, n)
	seen := make([]bool, n)
	for i := range perm {
		p := binary.LittleEndian.Uint64(data[8+8*i:])
		if p >= n || seen[p] {
			return errors.New("sgmcmc: Minibatch.UnmarshalBinary: checkpoint holds no valid permutation")
		}
		seen[p] = true
		perm[i] = int(p)
	}
	if err := u.UnmarshalBinary(data[8+8*n:]); err != nil {
		return fmt.Errorf("sgmcmc: Minibatch.UnmarshalBinary: random source: %w", err)
	}
	copy(b.perm, perm)
	return nil
}
