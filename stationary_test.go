// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// chainStats are the moments of one coordinate of a chain with their Monte
// Carlo standard errors (batch means), and the KS distance of thinned draws
// to the exact CDF.
type chainStats struct {
	mean, meanSE float64
	m2, m2SE     float64 // E θ²
	ks           float64
	ess          float64
}

// batchSE returns the batch-means standard error of the mean of x.
func batchSE(x []float64) float64 {
	nb := int(math.Sqrt(float64(len(x))))
	bs := len(x) / nb
	means := make([]float64, nb)
	var all float64
	for b := range nb {
		var s float64
		for _, v := range x[b*bs : (b+1)*bs] {
			s += v
		}
		means[b] = s / float64(bs)
		all += means[b]
	}
	all /= float64(nb)
	var ss float64
	for _, m := range means {
		ss += (m - all) * (m - all)
	}
	return math.Sqrt(ss / float64(nb-1) / float64(nb))
}

// ksDist returns the Kolmogorov–Smirnov distance of x to cdf (x is sorted in place).
func ksDist(x []float64, cdf func(float64) float64) float64 {
	slices.Sort(x)
	n := float64(len(x))
	var d float64
	for i, v := range x {
		f := cdf(v)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	return d
}

// runStats runs s for burn + n steps of size eps and summarises coordinate j.
func runStats(t *testing.T, s Sampler, eps float64, burn, n, j int, cdf func(float64) float64) chainStats {
	t.Helper()
	for k := range burn {
		if err := s.Step(eps); err != nil {
			t.Fatalf("burn-in step %d: %v", k+1, err)
		}
	}
	const thin = 10
	xs := make([]float64, n/thin)
	// Per-thin-block averages keep the batch-means series short.
	m1 := make([]float64, n/thin)
	m2 := make([]float64, n/thin)
	for k := range n / thin {
		var a1, a2 float64
		for range thin {
			if err := s.Step(eps); err != nil {
				t.Fatalf("step: %v", err)
			}
			x := s.Position()[j]
			a1 += x
			a2 += x * x
		}
		xs[k] = s.Position()[j]
		m1[k], m2[k] = a1/thin, a2/thin
	}
	var st chainStats
	for k := range m1 {
		st.mean += m1[k]
		st.m2 += m2[k]
	}
	st.mean /= float64(len(m1))
	st.m2 /= float64(len(m2))
	st.meanSE, st.m2SE = batchSE(m1), batchSE(m2)
	v := st.m2 - st.mean*st.mean
	st.ess = math.Min(v/(st.meanSE*st.meanSE), float64(len(xs)))
	st.ks = ksDist(xs, cdf)
	return st
}

// target is an exact 1- or 2-D test target for the stationary tests.
type target struct {
	name   string
	dim    int
	grad   func(dst, th []float64)
	mean   float64 // of coordinate 0
	m2     float64 // E θ₀²
	cdf    func(float64) float64
	theta0 []float64
}

func gaussian2D() target {
	// Precision P = [[2, 1.6], [1.6, 2]]: correlation −0.8, var = 2/(4 − 2.56).
	v := 2 / (4 - 1.6*1.6)
	return target{
		name: "correlated Gaussian", dim: 2,
		grad: func(dst, th []float64) { dst[0], dst[1] = 2*th[0]+1.6*th[1], 1.6*th[0]+2*th[1] },
		mean: 0, m2: v,
		cdf:    func(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt(2*v))) },
		theta0: []float64{0.5, -0.5},
	}
}

func doubleWell() target {
	// U = θ⁴ − 2θ²: exact CDF and E θ² by quadrature on [−3, 3].
	const lo, hi, n = -3.0, 3.0, 60001
	h := (hi - lo) / (n - 1)
	xs := make([]float64, n)
	cum := make([]float64, n)
	var z, m2 float64
	prev := 0.0
	for i := range n {
		x := lo + float64(i)*h
		xs[i] = x
		p := math.Exp(-(x*x*x*x - 2*x*x))
		if i > 0 {
			z += (p + prev) * h / 2
			m2 += (p*x*x + prev*(x-h)*(x-h)) * h / 2
		}
		cum[i] = z
		prev = p
	}
	for i := range cum {
		cum[i] /= z
	}
	return target{
		name: "double well", dim: 1,
		grad: func(dst, th []float64) { dst[0] = 4*th[0]*th[0]*th[0] - 4*th[0] },
		mean: 0, m2: m2 / z,
		cdf: func(x float64) float64 {
			if x <= lo {
				return 0
			}
			if x >= hi {
				return 1
			}
			k := int((x - lo) / h)
			f := (x - xs[k]) / h
			return cum[k]*(1-f) + cum[k+1]*f
		},
		theta0: []float64{1},
	}
}

// noisy adds N(0, σ²) to every coordinate of g, from its own stream.
func noisy(g func(dst, th []float64), sigma float64, seed uint64) Gradient {
	rng := rand.New(rand.NewPCG(seed, 99))
	return GradFunc(func(dst, th []float64) {
		g(dst, th)
		for i := range dst {
			dst[i] += sigma * rng.NormFloat64()
		}
	})
}

// unitMetric g_i = 1 + θ_i²: state-dependent, so that Γ matters.
var unitMetric = DiagMetricFunc(func(g, dg, th []float64) {
	for i, x := range th {
		g[i] = 1 + x*x
		dg[i] = 2 * x
	}
})

type samplerCase struct {
	name string
	eps  float64 // the larger of the two step sizes tried
	make func(g Gradient, th0 []float64, v []float64, src rand.Source) (Sampler, error)
}

func correctSamplers() []samplerCase {
	return []samplerCase{
		{"SGLD", 0.02, func(g Gradient, th0, v []float64, src rand.Source) (Sampler, error) {
			return NewSGLD(g, th0, src, &SGLDSettings{NoiseVar: v})
		}},
		{"SGHMC", 0.1, func(g Gradient, th0, v []float64, src rand.Source) (Sampler, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{NoiseVar: v})
		}},
		{"SGNHT", 0.1, func(g Gradient, th0, v []float64, src rand.Source) (Sampler, error) {
			return NewSGNHT(g, th0, src, &SGNHTSettings{NoiseVar: v})
		}},
		{"SGRLD", 0.02, func(g Gradient, th0, v []float64, src rand.Source) (Sampler, error) {
			return NewSGRLD(g, th0, unitMetric, src, &SGRLDSettings{NoiseVar: v})
		}},
		{"gSGRHMC", 0.1, func(g Gradient, th0, v []float64, src rand.Source) (Sampler, error) {
			return NewSGRHMC(g, th0, unitMetric, src, &SGRHMCSettings{NoiseVar: v})
		}},
	}
}

// stationaryErrors runs one sampler on one target at step eps and returns
// the stats and their absolute errors against the truth.
func stationaryRun(t *testing.T, sc samplerCase, tg target, eps float64, steps int, seed uint64) chainStats {
	t.Helper()
	const sigma = 1.0
	v := make([]float64, tg.dim)
	for i := range v {
		v[i] = sigma * sigma
	}
	s, err := sc.make(noisy(tg.grad, sigma, seed), tg.theta0, v, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	return runStats(t, s, eps, steps/10, steps, 0, tg.cdf)
}

// TestStationaryDistributions runs every correct sampler on a correlated
// Gaussian and the double well with injected gradient noise N(0, 1) at ε
// and ε/2. Tolerances: 4 Monte Carlo standard errors (batch means) plus the
// O(ε) bias, estimated from the data as the change between ε and ε/2
// (Richardson: bias(ε/2) ≈ bias(ε) − bias(ε/2) for a first-order
// integrator). The KS distance is held to its α = 0.001 critical value at
// the chain's effective sample size plus the same bias allowance. Halving ε
// must not increase the error beyond noise.
func TestStationaryDistributions(t *testing.T) {
	t.Parallel()
	steps := 2_000_000
	if testing.Short() {
		steps = 600_000
	}
	for _, tg := range []target{gaussian2D(), doubleWell()} {
		for k, sc := range correctSamplers() {
			t.Run(tg.name+"/"+sc.name, func(t *testing.T) {
				t.Parallel()
				a := stationaryRun(t, sc, tg, sc.eps, steps, uint64(10+k))
				b := stationaryRun(t, sc, tg, sc.eps/2, 2*steps, uint64(20+k))
				check := func(what string, ea, eb, sea, seb float64) {
					bias := math.Abs(ea - eb)
					tol := 4*seb + bias
					if math.Abs(eb) > tol {
						t.Errorf("%s at ε/2: error %.4g > tolerance %.4g (4·SE %.3g + bias %.3g)", what, eb, tol, 4*seb, bias)
					}
					if math.Abs(eb) > math.Abs(ea)+3*math.Hypot(sea, seb) {
						t.Errorf("%s: halving ε raised the error from %.4g to %.4g (noise %.3g)", what, ea, eb, math.Hypot(sea, seb))
					}
				}
				check("mean", a.mean-tg.mean, b.mean-tg.mean, a.meanSE, b.meanSE)
				check("E θ²", a.m2-tg.m2, b.m2-tg.m2, a.m2SE, b.m2SE)
				ksCrit := 1.95 / math.Sqrt(b.ess)
				if b.ks > ksCrit+math.Abs(a.ks-b.ks) {
					t.Errorf("KS at ε/2 = %.4f > critical %.4f (ESS %.0f) + bias %.4f", b.ks, ksCrit, b.ess, math.Abs(a.ks-b.ks))
				}
				t.Logf("ε=%g: mean %+.4f±%.4f E θ² %.4f±%.4f (truth %.4f) KS %.4f ESS %.0f; ε/2: mean %+.4f±%.4f E θ² %.4f±%.4f KS %.4f ESS %.0f",
					sc.eps, a.mean, a.meanSE, a.m2, a.m2SE, tg.m2, a.ks, a.ess, b.mean, b.meanSE, b.m2, b.m2SE, b.ks, b.ess)
			})
		}
	}
}

// TestNaiveSamplersAreBiased: the papers' foils fail the same test
// measurably, and Check says they are not of the recipe's form.
func TestNaiveSamplersAreBiased(t *testing.T) {
	t.Parallel()
	steps := 1_000_000
	if testing.Short() {
		steps = 400_000
	}
	tg := doubleWell()
	naiveRHMC := samplerCase{"naive SGRHMC", 0.1, func(g Gradient, th0, v []float64, src rand.Source) (Sampler, error) {
		return NewNaiveSGRHMC(g, th0, unitMetric, src, &SGRHMCSettings{NoiseVar: v})
	}}
	a := stationaryRun(t, naiveRHMC, tg, naiveRHMC.eps, steps, 31)
	b := stationaryRun(t, naiveRHMC, tg, naiveRHMC.eps/2, 2*steps, 32)
	// Its error does not shrink with ε: at ε/2 it is still many standard
	// errors plus the Richardson bias allowance away from the truth.
	eb := b.m2 - tg.m2
	tol := 4*b.m2SE + math.Abs((a.m2-tg.m2)-eb)
	if math.Abs(eb) < 3*tol {
		t.Errorf("naive SGRHMC: E θ² error %.4g at ε/2 is within 3× the tolerance %.4g a correct sampler meets", eb, tol)
	}
	ksCrit := 1.95 / math.Sqrt(b.ess)
	if b.ks <= ksCrit+math.Abs(a.ks-b.ks) {
		t.Errorf("naive SGRHMC: KS %.4f passes the test a correct sampler must pass (critical %.4f + bias %.4f)", b.ks, ksCrit, math.Abs(a.ks-b.ks))
	}
	t.Logf("naive SGRHMC: E θ² %.4f (truth %.4f) at ε, %.4f at ε/2; KS %.4f (critical %.4f)", a.m2, tg.m2, b.m2, b.ks, ksCrit)

	// Naive SGHMC on the Gaussian: without friction the gradient noise heats
	// the chain: its variance is far above the truth (or it diverges).
	g := gaussian2D()
	s, err := NewNaiveSGHMC(noisy(g.grad, 1, 41), g.theta0, rand.NewPCG(41, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	var m2 float64
	n := 0
	for k := range 200_000 {
		if err := s.Step(0.05); err != nil {
			t.Logf("naive SGHMC stopped at step %d: %v", k+1, err)
			break
		}
		x := s.Position()[0]
		m2 += x * x
		n++
	}
	if n > 0 && !(m2/float64(n) > 3*g.m2) {
		t.Errorf("naive SGHMC: E θ² = %.4g, want far above the truth %.4g", m2/float64(n), g.m2)
	}
	t.Logf("naive SGHMC: E θ² = %.4g over %d steps (truth %.4g)", m2/float64(max(n, 1)), n, g.m2)
}

// lyapunov2 returns the stationary covariance of z' = A z + w, w ~ N(0, W),
// by fixed-point iteration (A stable).
func lyapunov2(a, w [2][2]float64) [2][2]float64 {
	var s [2][2]float64
	for range 200_000 {
		var n [2][2]float64
		for i := range 2 {
			for j := range 2 {
				v := w[i][j]
				for k := range 2 {
					for l := range 2 {
						v += a[i][k] * s[k][l] * a[j][l]
					}
				}
				n[i][j] = v
			}
		}
		s = n
	}
	return s
}

// TestSGHMCStiffGaussian documents why the sequential sweep is the default:
// on a Gaussian with precision λ = 10, ε = 0.05 (ελ = 0.5) and C = 1, the
// sequential SGHMC's stationary variance is within 2 % of the truth, while
// Eq. 9 read literally (explicit Euler) gives about twice the truth
// (EQUATIONS §1). Both agree with the exact discrete Lyapunov solution
// within Monte Carlo error.
func TestSGHMCStiffGaussian(t *testing.T) {
	t.Parallel()
	const lam, eps, C, d = 10.0, 0.05, 1.0, 20
	steps := 400_000
	if testing.Short() {
		steps = 100_000
	}
	grad := GradFunc(func(dst, th []float64) {
		for i, x := range th {
			dst[i] = lam * x
		}
	})
	seqA := [2][2]float64{{1 - eps*eps*lam, eps * (1 - eps*C)}, {-eps * lam, 1 - eps*C}}
	seqW := [2][2]float64{{eps * eps * 2 * C * eps, eps * 2 * C * eps}, {eps * 2 * C * eps, 2 * C * eps}}
	simA := [2][2]float64{{1, eps}, {-eps * lam, 1 - eps*C}}
	simW := [2][2]float64{{0, 0}, {0, 2 * C * eps}}
	for _, sim := range []bool{false, true} {
		exact := lyapunov2(seqA, seqW)[0][0] * lam
		if sim {
			exact = lyapunov2(simA, simW)[0][0] * lam
		}
		s, err := NewSGHMC(grad, make([]float64, d), rand.NewPCG(5, 5), &SGHMCSettings{Friction: C, Simultaneous: sim})
		if err != nil {
			t.Fatal(err)
		}
		for range 2000 {
			_ = s.Step(eps)
		}
		y := make([]float64, steps)
		for k := range y {
			if err := s.Step(eps); err != nil {
				t.Fatal(err)
			}
			var a float64
			for _, x := range s.Position() {
				a += x * x
			}
			y[k] = a / d * lam // variance relative to the truth 1/λ
		}
		var ratio float64
		for _, v := range y {
			ratio += v
		}
		ratio /= float64(len(y))
		se := batchSE(y)
		name := map[bool]string{false: "sequential", true: "simultaneous"}[sim]
		t.Logf("%s: variance/truth = %.4f ± %.4f (exact discrete value %.4f)", name, ratio, se, exact)
		if math.Abs(ratio-exact) > 4*se {
			t.Errorf("%s: variance/truth %.4f differs from the exact discrete value %.4f by more than 4 SE (%.4f)", name, ratio, exact, 4*se)
		}
		if !sim && math.Abs(ratio-1) > 0.02 {
			t.Errorf("sequential SGHMC variance/truth = %.4f, want within 2%% of 1", ratio)
		}
		if sim && math.Abs(ratio-2) > 0.15 {
			t.Errorf("simultaneous SGHMC variance/truth = %.4f, want about 2", ratio)
		}
	}
}
