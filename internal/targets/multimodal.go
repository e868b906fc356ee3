// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgmcmc-go/sgmcmc"
)

// The targets of the modes issue (multimodal posteriors, heavy tails and
// posteriors that are not proper), each as an sgmcmc.Model with
// sgmcmc.LogDensity so that sample.Run — and its replica-exchange method, which
// needs the potential's values — can run them. A density without data is a
// Model of one item whose log likelihood is the log density, under a flat
// prior (DensityModel).

// DensityModel is an sgmcmc.Model of one item whose log likelihood is
// t's log density, under a flat prior: the sample.Problem for a target
// without data. Its minibatch of one is the exact gradient.
type DensityModel struct{ T Target }

var (
	_ sgmcmc.Model      = DensityModel{}
	_ sgmcmc.LogDensity = DensityModel{}
)

// Dim returns t's dimension.
func (m DensityModel) Dim() int { return m.T.Dim() }

// Len returns 1.
func (DensityModel) Len() int { return 1 }

// LogPriorGrad adds nothing: the prior is flat.
func (DensityModel) LogPriorGrad(dst, theta []float64) {}

// LogLikGrad adds scale·∇log p(θ) to dst.
func (m DensityModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	var buf [16]float64
	var g []float64
	if len(theta) <= len(buf) {
		g = buf[:len(theta)]
	} else {
		g = make([]float64, len(theta))
	}
	m.T.Grad(g, theta)
	for j, v := range g {
		dst[j] -= scale * v
	}
}

// LogPrior returns 0.
func (DensityModel) LogPrior(theta []float64) float64 { return 0 }

// LogLik returns log p(θ).
func (m DensityModel) LogLik(theta []float64, i int) float64 { return m.T.LogProb(theta) }

// Bimodal is the mixture (1 − W)·N(−μ, I) + W·N(μ, I) in D dimensions,
// μ = (10/√D)(1, …, 1): two modes 20 standard deviations apart, with a
// barrier of 50 in the potential between them, in any D. W = 0 means the
// equal mixture, W = ½.
type Bimodal struct {
	D int
	W float64
}

var _ Target = Bimodal{}

// Dim returns D.
func (b Bimodal) Dim() int { return b.D }

// Offset returns 10/√D, each coordinate of μ.
func (b Bimodal) Offset() float64 { return 10 / math.Sqrt(float64(b.D)) }

// Mode returns 0 for the mode at −μ (x·μ < 0) and 1 for that at μ.
func (b Bimodal) Mode(x []float64) int {
	s := 0.0
	for _, v := range x {
		s += v
	}
	if s < 0 {
		return 0
	}
	return 1
}

// terms returns the log densities of the two weighted components at x.
func (b Bimodal) terms(x []float64) (l0, l1 float64) {
	m := b.Offset()
	for _, v := range x {
		l0 -= (v + m) * (v + m) / 2
		l1 -= (v - m) * (v - m) / 2
	}
	w := b.weight()
	c := -float64(b.D) / 2 * math.Log(2*math.Pi)
	return l0 + c + math.Log1p(-w), l1 + c + math.Log(w)
}

// weight returns W, ½ for zero.
func (b Bimodal) weight() float64 {
	if b.W == 0 {
		return 0.5
	}
	return b.W
}

// LogProb returns the log density at x.
func (b Bimodal) LogProb(x []float64) float64 {
	l0, l1 := b.terms(x)
	return logAddExp(l0, l1)
}

// Grad writes ∇U(x) = x − (r₁ − r₀)μ, r_k the responsibilities at x.
func (b Bimodal) Grad(dst, x []float64) {
	l0, l1 := b.terms(x)
	r1 := math.Exp(l1 - logAddExp(l0, l1))
	m := b.Offset()
	for i, v := range x {
		dst[i] = v - (2*r1-1)*m
	}
}

// Draw writes an exact draw into dst.
func (b Bimodal) Draw(dst []float64, rng *rand.Rand) {
	m := b.Offset()
	if rng.Float64() < 1-b.weight() {
		m = -m
	}
	for i := range dst {
		dst[i] = m + rng.NormFloat64()
	}
}

// Var returns each coordinate's variance, 1 + 4W(1 − W)μ_i² (1 + 100/D
// for the equal mixture, whose mean is 0).
func (b Bimodal) Var() float64 { m, w := b.Offset(), b.weight(); return 1 + 4*w*(1-w)*m*m }

// Mixture4Moments returns FourModes's moments: the mean Σ w_k μ_k and
// the variances 1 + Σ w_k μ_k² − mean².
func Mixture4Moments() (mean, variance [2]float64) {
	for k, mu := range FourModesMeans {
		w := FourModesWeights[k]
		for j := range 2 {
			mean[j] += w * mu[j]
			variance[j] += w * (1 + mu[j]*mu[j])
		}
	}
	for j := range 2 {
		variance[j] -= mean[j] * mean[j]
	}
	return mean, variance
}

// HeavyTail is the standard Student t with Nu degrees of freedom in 1-D
// (Nu = 1: Cauchy): one mode, tails so heavy that the Cauchy has no mean
// and the t₃ no finite fourth moment; judged by its quartiles.
type HeavyTail struct{ Nu float64 }

var _ Target = HeavyTail{}

// Dim returns 1.
func (HeavyTail) Dim() int { return 1 }

func (h HeavyTail) dist() distuv.StudentsT { return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: h.Nu} }

// LogProb returns the log density at x.
func (h HeavyTail) LogProb(x []float64) float64 { return h.dist().LogProb(x[0]) }

// Grad writes ∇U(x) = (ν + 1)x/(ν + x²).
func (h HeavyTail) Grad(dst, x []float64) { dst[0] = (h.Nu + 1) * x[0] / (h.Nu + x[0]*x[0]) }

// Draw writes an exact draw into dst.
func (h HeavyTail) Draw(dst []float64, rng *rand.Rand) {
	d := h.dist()
	d.Src = rng
	dst[0] = d.Rand()
}

// Quantile returns the p-quantile.
func (h HeavyTail) Quantile(p float64) float64 { return h.dist().Quantile(p) }

// GMMLabels is the posterior of the means (μ₁, μ₂) of an equal two-
// component Gaussian mixture with unit variances, y_i ~ ½N(μ₁, 1) +
// ½N(μ₂, 1), under independent N(0, 10²) priors, given 40 points drawn
// (seeded) from the mixture at means ∓2: two modes, one the other with
// its labels swapped, near (−2, 2) and (2, −2), each about 20 posterior
// standard deviations from the other. Judged modulo the labels, by the
// moments of the sorted pair (min, max) (SortedMoments).
type GMMLabels struct{ Y []float64 }

// gmmPriorSD is GMMLabels's prior standard deviation of each mean.
const gmmPriorSD = 10

var (
	_ sgmcmc.Model      = (*GMMLabels)(nil)
	_ sgmcmc.LogDensity = (*GMMLabels)(nil)
)

// NewGMMLabels returns the posterior with its 40 seeded data points.
func NewGMMLabels() *GMMLabels {
	rng := rand.New(rand.NewPCG(25, 2))
	y := make([]float64, 40)
	for i := range y {
		m := -2.0
		if i%2 == 1 {
			m = 2
		}
		y[i] = m + rng.NormFloat64()
	}
	return &GMMLabels{Y: y}
}

// Dim returns 2.
func (g *GMMLabels) Dim() int { return 2 }

// Len returns the number of data points.
func (g *GMMLabels) Len() int { return len(g.Y) }

// LogPrior returns log N(μ₁; 0, 10²) + log N(μ₂; 0, 10²) up to a constant.
func (g *GMMLabels) LogPrior(theta []float64) float64 {
	return -(theta[0]*theta[0] + theta[1]*theta[1]) / (2 * gmmPriorSD * gmmPriorSD)
}

// LogPriorGrad adds ∇log p(μ) to dst.
func (g *GMMLabels) LogPriorGrad(dst, theta []float64) {
	dst[0] -= theta[0] / (gmmPriorSD * gmmPriorSD)
	dst[1] -= theta[1] / (gmmPriorSD * gmmPriorSD)
}

// resp returns the log of datum i's likelihood and its responsibility for
// component 2.
func (g *GMMLabels) resp(theta []float64, i int) (ll, r2 float64) {
	a, b := g.Y[i]-theta[0], g.Y[i]-theta[1]
	l1, l2 := -a*a/2, -b*b/2
	ll = logAddExp(l1, l2) + math.Log(0.5) - 0.5*math.Log(2*math.Pi)
	return ll, math.Exp(l2 - logAddExp(l1, l2))
}

// LogLik returns log p(y_i | μ).
func (g *GMMLabels) LogLik(theta []float64, i int) float64 {
	ll, _ := g.resp(theta, i)
	return ll
}

// LogLikGrad adds scale·∇log p(y_i | μ) to dst.
func (g *GMMLabels) LogLikGrad(dst, theta []float64, i int, scale float64) {
	_, r2 := g.resp(theta, i)
	dst[0] += scale * (1 - r2) * (g.Y[i] - theta[0])
	dst[1] += scale * r2 * (g.Y[i] - theta[1])
}

// SortedMoments returns the exact means and standard deviations of
// (min(μ₁, μ₂), max(μ₁, μ₂)) under the posterior, by quadrature on a grid
// of spacing h over the region μ₁ < μ₂ (the posterior is symmetric in the
// labels), wide enough to hold all but a negligible mass.
func (g *GMMLabels) SortedMoments() (mean, sd [2]float64) {
	const lo, hi, h = -6.0, 6.0, 0.01
	n := int((hi-lo)/h) + 1
	// First the log density on the grid, for its maximum.
	lp := make([]float64, 0, n*n/2)
	theta := make([]float64, 2)
	mx := math.Inf(-1)
	for i := range n {
		theta[0] = lo + float64(i)*h
		for j := i + 1; j < n; j++ {
			theta[1] = lo + float64(j)*h
			v := g.LogPrior(theta)
			for k := range g.Y {
				v += g.LogLik(theta, k)
			}
			lp = append(lp, v)
			mx = math.Max(mx, v)
		}
	}
	var w, s1, s2, q1, q2 float64
	p := 0
	for i := range n {
		a := lo + float64(i)*h
		for j := i + 1; j < n; j++ {
			b := lo + float64(j)*h
			e := math.Exp(lp[p] - mx)
			p++
			w += e
			s1 += e * a
			s2 += e * b
			q1 += e * a * a
			q2 += e * b * b
		}
	}
	mean = [2]float64{s1 / w, s2 / w}
	sd = [2]float64{math.Sqrt(q1/w - mean[0]*mean[0]), math.Sqrt(q2/w - mean[1]*mean[1])}
	return mean, sd
}

// Improper is a 2-D posterior with a flat direction: θ₁ ~ N(0, 1) and θ₂
// under a flat prior that no datum informs, exp(−θ₁²/2) on R², which has
// no normalising constant. sample.Run must say what is wrong with it.
type Improper struct{}

var (
	_ sgmcmc.Model      = Improper{}
	_ sgmcmc.LogDensity = Improper{}
)

// Dim returns 2.
func (Improper) Dim() int { return 2 }

// Len returns 1.
func (Improper) Len() int { return 1 }

// LogPriorGrad adds nothing: the prior is flat.
func (Improper) LogPriorGrad(dst, theta []float64) {}

// LogLikGrad adds scale·(−θ₁, 0).
func (Improper) LogLikGrad(dst, theta []float64, i int, scale float64) { dst[0] -= scale * theta[0] }

// LogPrior returns 0.
func (Improper) LogPrior(theta []float64) float64 { return 0 }

// LogLik returns −θ₁²/2.
func (Improper) LogLik(theta []float64, i int) float64 { return -theta[0] * theta[0] / 2 }

// Nonidentified is y_i ~ N(a + b, 1), i = 1…20, under flat priors on a
// and b: the data determine a + b and nothing determines a − b, so the
// posterior is flat along (1, −1) and improper.
type Nonidentified struct{ Y []float64 }

var (
	_ sgmcmc.Model      = (*Nonidentified)(nil)
	_ sgmcmc.LogDensity = (*Nonidentified)(nil)
)

// NewNonidentified returns the model with 20 seeded data points from
// N(1, 1).
func NewNonidentified() *Nonidentified {
	rng := rand.New(rand.NewPCG(25, 3))
	y := make([]float64, 20)
	for i := range y {
		y[i] = 1 + rng.NormFloat64()
	}
	return &Nonidentified{Y: y}
}

// Dim returns 2.
func (n *Nonidentified) Dim() int { return 2 }

// Len returns 20.
func (n *Nonidentified) Len() int { return len(n.Y) }

// LogPriorGrad adds nothing: the priors are flat.
func (n *Nonidentified) LogPriorGrad(dst, theta []float64) {}

// LogLikGrad adds scale·(r, r), r = y_i − a − b.
func (n *Nonidentified) LogLikGrad(dst, theta []float64, i int, scale float64) {
	r := n.Y[i] - theta[0] - theta[1]
	dst[0] += scale * r
	dst[1] += scale * r
}

// LogPrior returns 0.
func (n *Nonidentified) LogPrior(theta []float64) float64 { return 0 }

// LogLik returns log N(y_i; a + b, 1) up to a constant.
func (n *Nonidentified) LogLik(theta []float64, i int) float64 {
	r := n.Y[i] - theta[0] - theta[1]
	return -r * r / 2
}

// logAddExp returns log(e^a + e^b) without overflow.
func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}
