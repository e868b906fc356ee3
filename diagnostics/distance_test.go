// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ksCrit is the 0.999 quantile of the Kolmogorov distribution: √n·KS of n
// exact draws exceeds it with probability 0.001 (asymptotically).
const ksCrit = 1.95

func normals(rng *rand.Rand, n int, shift float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64() + shift
	}
	return x
}

func TestKSAgainstDirectCount(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(20, 1))
	x := normals(rng, 300, 0.1)
	for i := range 30 {
		x[i] = math.Round(x[i]*4) / 4 // ties
	}
	got, err := diagnostics.KS(x, distuv.UnitNormal.CDF)
	if err != nil {
		t.Fatal(err)
	}
	// sup |F̂ − F| is attained at a draw, from the left or the right.
	var want float64
	n := float64(len(x))
	for _, v := range x {
		var le, lt float64
		for _, u := range x {
			if u <= v {
				le++
			}
			if u < v {
				lt++
			}
		}
		f := distuv.UnitNormal.CDF(v)
		want = math.Max(want, math.Max(math.Abs(le/n-f), math.Abs(lt/n-f)))
	}
	if math.Abs(got-want) > 1e-15 {
		t.Errorf("KS = %v, direct %v", got, want)
	}

	y := normals(rng, 217, 0)
	for i := range 20 {
		y[i] = x[i] // ties across samples
	}
	got, err = diagnostics.KSTwoSample(x, y)
	if err != nil {
		t.Fatal(err)
	}
	a, b := slices.Clone(x), slices.Clone(y)
	slices.Sort(a)
	slices.Sort(b)
	if want := stat.KolmogorovSmirnov(a, nil, b, nil); math.Abs(got-want) > 1e-15 {
		t.Errorf("KSTwoSample = %v, gonum stat %v", got, want)
	}
}

// TestKSShift checks that KS is small for exact draws and grows with a
// known shift δ: by the triangle inequality KS of N(δ, 1) draws against Φ
// is within KS of exact draws (< 1.95/√n w.p. 0.999) of 2Φ(δ/2) − 1.
func TestKSShift(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 1))
	const n = 4000
	tol := ksCrit / math.Sqrt(n)
	x := normals(rng, n, 0)
	prev := -1.0
	for _, d := range []float64{0, 0.1, 0.2, 0.4, 0.8} {
		y := slices.Clone(x)
		for i := range y {
			y[i] += d
		}
		ks, err := diagnostics.KS(y, distuv.UnitNormal.CDF)
		if err != nil {
			t.Fatal(err)
		}
		want := 2*distuv.UnitNormal.CDF(d/2) - 1
		if math.Abs(ks-want) > tol {
			t.Errorf("shift %v: KS = %v, want %v ± %v", d, ks, want, tol)
		}
		if ks <= prev {
			t.Errorf("shift %v: KS = %v did not grow from %v", d, ks, prev)
		}
		prev = ks
		ks2, err := diagnostics.KSTwoSample(y, normals(rng, n, 0))
		if err != nil {
			t.Fatal(err)
		}
		// Two samples: the null distribution scales by √(2/n).
		if math.Abs(ks2-want) > ksCrit*math.Sqrt(2.0/n) {
			t.Errorf("shift %v: KSTwoSample = %v, want %v", d, ks2, want)
		}
	}
}

// normalW1 is the Wasserstein-1 distance between the empirical distribution
// of x and N(0, 1) by the quantile form ∫₀¹ |F̂⁻¹(u) − Φ⁻¹(u)| du, integrated
// in closed form on each [i/n, (i+1)/n] with ∫ Φ⁻¹ = −φ(Φ⁻¹).
func normalW1(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := float64(len(s))
	g := func(u float64) float64 { // ∫₀ᵘ Φ⁻¹
		if u <= 0 || u >= 1 {
			return 0
		}
		return -distuv.UnitNormal.Prob(distuv.UnitNormal.Quantile(u))
	}
	var w float64
	for i, v := range s {
		a, b := float64(i)/n, float64(i+1)/n
		c := math.Min(math.Max(distuv.UnitNormal.CDF(v), a), b)
		w += v*(c-a) - (g(c) - g(a))
		w += (g(b) - g(c)) - v*(b-c)
	}
	return w
}

func TestWasserstein(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 1))
	for _, n := range []int{1, 2, 10, 1000} {
		x := normals(rng, n, 0.3)
		got, err := diagnostics.Wasserstein(x, distuv.UnitNormal.CDF)
		if err != nil {
			t.Fatal(err)
		}
		if want := normalW1(x); math.Abs(got-want) > 1e-9 {
			t.Errorf("n=%d: Wasserstein = %.12g, quantile form %.12g", n, got, want)
		}
	}
	// Known shift: |W1(x + δ) − δ| ≤ W1(x) by the triangle inequality.
	x := normals(rng, 2000, 0)
	w0, _ := diagnostics.Wasserstein(x, distuv.UnitNormal.CDF)
	for _, d := range []float64{0.2, 0.5, 1} {
		y := slices.Clone(x)
		for i := range y {
			y[i] += d
		}
		w, _ := diagnostics.Wasserstein(y, distuv.UnitNormal.CDF)
		if math.Abs(w-d) > w0 {
			t.Errorf("shift %v: W1 = %v, want %v ± %v", d, w, d, w0)
		}
		// Two samples: the exact answer for a pure shift is δ.
		w2, err := diagnostics.WassersteinTwoSample(y, x)
		if err != nil || math.Abs(w2-d) > 1e-12 {
			t.Errorf("shift %v: WassersteinTwoSample = %v, %v; want %v", d, w2, err, d)
		}
	}
	y := normals(rng, 333, 0.2)
	for i := range 10 {
		y[i] = x[i]
	}
	got, _ := diagnostics.WassersteinTwoSample(x, y)
	if want := stat.WassersteinDistance(x, y, nil, nil); math.Abs(got-want) > 1e-12 {
		t.Errorf("WassersteinTwoSample = %v, gonum stat %v", got, want)
	}
	if _, err := diagnostics.Wasserstein([]float64{0}, func(float64) float64 { return 0.5 }); err == nil {
		t.Error("Wasserstein with a function that is not a CDF: no error")
	}
}

// TestKL checks the histogram KL against the same estimate with the bin
// masses of N(0, 1) from Φ, and its χ² behaviour for exact draws.
func TestKL(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 1))
	const n, bins = 10000, 40
	g := diagnostics.Grid{Min: -5, Max: 5, Bins: bins}
	unnorm := func(x float64) float64 { return 7 * math.Exp(-x*x/2) }
	crit := distuv.ChiSquared{K: bins - 1}.Quantile(0.999) / (2 * n)
	prev := -1.0
	for _, d := range []float64{0, 0.25, 0.5} {
		x := normals(rng, n, d)
		got, err := diagnostics.KL(x, unnorm, g)
		if err != nil {
			t.Fatal(err)
		}
		// Independent: p̂ by counting, q from Φ, both normalised over the grid.
		var p [bins]float64
		var inside float64
		for _, v := range x {
			if v >= g.Min && v <= g.Max {
				p[min(int((v-g.Min)/(g.Max-g.Min)*bins), bins-1)]++
				inside++
			}
		}
		z := distuv.UnitNormal.CDF(g.Max) - distuv.UnitNormal.CDF(g.Min)
		var want float64
		for i, c := range p {
			if c == 0 {
				continue
			}
			a := g.Min + float64(i)*(g.Max-g.Min)/bins
			b := a + (g.Max-g.Min)/bins
			q := (distuv.UnitNormal.CDF(b) - distuv.UnitNormal.CDF(a)) / z
			want += c / inside * math.Log(c/inside/q)
		}
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("shift %v: KL = %.12g, with exact bin masses %.12g", d, got, want)
		}
		if d == 0 && got > crit {
			t.Errorf("exact draws: KL = %v, above the χ² 0.999 level %v", got, crit)
		}
		// KL(N(δ,1) ‖ N(0,1)) = δ²/2; binning into bins of width 0.25
		// lowers it by a negligible O(δ²w²).
		// The estimate's error is its linear term Σ (p̂_i − p_i) log(p_i/q_i),
		// of standard deviation ≈ √(Var[log(p/q)]/n) = δ/√n, plus the χ² term.
		if d > 0 && (got <= prev || math.Abs(got-d*d/2) > 4*d/math.Sqrt(n)+crit) {
			t.Errorf("shift %v: KL = %v, previous %v, exact %v", d, got, prev, d*d/2)
		}
		prev = got
	}
}

func TestKL2D(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(24, 1))
	const n, bins = 20000, 12
	g := diagnostics.Grid{Min: -4, Max: 4, Bins: bins}
	x, y := normals(rng, n, 0), normals(rng, n, 0)
	dens := func(u, v float64) float64 { return math.Exp(-(u*u + v*v) / 2) }
	got, err := diagnostics.KL2D(x, y, dens, g, g)
	if err != nil {
		t.Fatal(err)
	}
	var p [bins][bins]float64
	var inside float64
	bin := func(v float64) int { return min(int((v-g.Min)/(g.Max-g.Min)*bins), bins-1) }
	for i := range x {
		if x[i] >= g.Min && x[i] <= g.Max && y[i] >= g.Min && y[i] <= g.Max {
			p[bin(x[i])][bin(y[i])]++
			inside++
		}
	}
	mass := func(i int) float64 {
		a := g.Min + float64(i)*(g.Max-g.Min)/bins
		return distuv.UnitNormal.CDF(a+(g.Max-g.Min)/bins) - distuv.UnitNormal.CDF(a)
	}
	z := distuv.UnitNormal.CDF(g.Max) - distuv.UnitNormal.CDF(g.Min)
	var want float64
	for i := range bins {
		for j := range bins {
			if c := p[i][j]; c > 0 {
				want += c / inside * math.Log(c/inside/(mass(i)*mass(j)/(z*z)))
			}
		}
	}
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("KL2D = %.12g, with exact cell masses %.12g", got, want)
	}
	if crit := (distuv.ChiSquared{K: bins*bins - 1}).Quantile(0.999) / (2 * n); got > crit {
		t.Errorf("exact draws: KL2D = %v, above the χ² 0.999 level %v", got, crit)
	}
	if _, err := diagnostics.KL2D(x, y[:10], dens, g, g); err == nil {
		t.Error("KL2D with unequal lengths: no error")
	}
	if _, err := diagnostics.KL(x, dens1(-1), g); err == nil {
		t.Error("KL with a negative density: no error")
	}
}

func dens1(c float64) func(float64) float64 { return func(float64) float64 { return c } }

// imqStein is k₀(x, y) of the IMQ kernel with every derivative of k taken by
// central finite differences, independently of the closed form in KSD.
func imqStein(x, y, sx, sy []float64, c, beta float64) float64 {
	d := len(x)
	k := func(x, y []float64) float64 {
		var r2 float64
		for i := range x {
			r2 += (x[i] - y[i]) * (x[i] - y[i])
		}
		return math.Pow(c*c+r2, beta)
	}
	const h = 1e-4
	xp, xm := slices.Clone(x), slices.Clone(x)
	yp, ym := slices.Clone(y), slices.Clone(y)
	var sdot float64
	for i := range d {
		sdot += sx[i] * sy[i]
	}
	out := sdot * k(x, y)
	for i := range d {
		xp[i], xm[i] = x[i]+h, x[i]-h
		yp[i], ym[i] = y[i]+h, y[i]-h
		dkx := (k(xp, y) - k(xm, y)) / (2 * h)
		dky := (k(x, yp) - k(x, ym)) / (2 * h)
		dxy := (k(xp, yp) - k(xp, ym) - k(xm, yp) + k(xm, ym)) / (4 * h * h)
		out += sx[i]*dky + sy[i]*dkx + dxy
		xp[i], xm[i], yp[i], ym[i] = x[i], x[i], y[i], y[i]
	}
	return out
}

func stdNormalScore(dst, x []float64) {
	for i, v := range x {
		dst[i] = -v
	}
}

func TestKSDAgainstFiniteDifferences(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(25, 1))
	const n, d = 15, 3
	draws := make([][]float64, n)
	for i := range draws {
		draws[i] = normals(rng, d, 0.5)
	}
	for _, kern := range []*diagnostics.IMQ{nil, {C: 2, Beta: -0.3}} {
		c, beta := 1.0, -0.5
		if kern != nil {
			c, beta = kern.C, kern.Beta
		}
		got, err := diagnostics.KSD(draws, stdNormalScore, kern)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		sx, sy := make([]float64, d), make([]float64, d)
		for _, x := range draws {
			for _, y := range draws {
				stdNormalScore(sx, x)
				stdNormalScore(sy, y)
				sum += imqStein(x, y, sx, sy, c, beta)
			}
		}
		want := math.Sqrt(sum) / n
		if relErr(got, want) > 1e-6 {
			t.Errorf("kernel %+v: KSD = %.10g, finite differences %.10g", kern, got, want)
		}
	}
}

// TestKSDExactAndShift: for independent draws from p the Stein identity
// gives E[k₀(x, y)] = 0 for x ≠ y, so E[n·KSD²] = E[k₀(x, x)] = d(1 + 1) = 2d
// for N(0, I) with the default kernel. The mean over replicates must match
// within four standard errors, and KSD must grow with a shift.
func TestKSDExactAndShift(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(26, 1))
	const reps, n, d = 20, 300, 3
	sample := func(shift float64) [][]float64 {
		x := make([][]float64, n)
		for i := range x {
			x[i] = normals(rng, d, shift)
		}
		return x
	}
	var sum, sum2 float64
	for range reps {
		k, err := diagnostics.KSD(sample(0), stdNormalScore, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := n * k * k
		sum += v
		sum2 += v * v
	}
	mean := sum / reps
	se := math.Sqrt((sum2-reps*mean*mean)/(reps-1)) / math.Sqrt(reps)
	if math.Abs(mean-2*d) > 4*se {
		t.Errorf("exact draws: mean n·KSD² = %v ± %v, want %v", mean, se, 2*d)
	}
	prev := math.Sqrt(2 * d / float64(n))
	for _, s := range []float64{0.3, 0.6, 1.2} {
		k, _ := diagnostics.KSD(sample(s), stdNormalScore, nil)
		if k <= prev {
			t.Errorf("shift %v: KSD = %v, not above %v", s, k, prev)
		}
		prev = k
	}
}

func dirichletDraws(rng *rand.Rand, alpha []float64, n int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		x := make([]float64, len(alpha))
		var s float64
		for j, a := range alpha {
			x[j] = distuv.Gamma{Alpha: a, Beta: 1, Src: rng}.Rand()
			s += x[j]
		}
		for j := range x {
			x[j] /= s
		}
		out[i] = x
	}
	return out
}

// TestDirichletConditionalCDF checks the conditional CDFs against numerical
// integration of the Dirichlet(α) density of three components.
func TestDirichletConditionalCDF(t *testing.T) {
	t.Parallel()
	alpha := []float64{2.5, 1.5, 3}
	cond := diagnostics.DirichletConditionalCDF(alpha)
	logB := mathext.Lbeta(alpha[0], alpha[1]+alpha[2]) + mathext.Lbeta(alpha[1], alpha[2])
	dens := func(x0, x1 float64) float64 {
		x2 := 1 - x0 - x1
		if x0 <= 0 || x1 <= 0 || x2 <= 0 {
			return 0
		}
		return math.Exp((alpha[0]-1)*math.Log(x0) + (alpha[1]-1)*math.Log(x1) + (alpha[2]-1)*math.Log(x2) - logB)
	}
	// Substituting s = v², t = u² makes the integrands polynomials in u and
	// v (α₀ − ½ and α₁ − ½ are integers), which Gauss–Legendre integrates
	// exactly.
	inner := func(s, upper float64) float64 {
		return quad.Fixed(func(u float64) float64 { return 2 * u * dens(s, u*u) }, 0, math.Sqrt(upper), 20, nil, 0)
	}
	for _, x := range [][]float64{{0.2, 0.3, 0.5}, {0.5, 0.1, 0.4}, {0.05, 0.9, 0.05}} {
		// F(x0) = ∫₀^{x0} ∫₀^{1−s} p(s, t) dt ds.
		f0 := quad.Fixed(func(v float64) float64 { return 2 * v * inner(v*v, 1-v*v) }, 0, math.Sqrt(x[0]), 20, nil, 0)
		// F(x1 | x0) = ∫₀^{x1} p(x0, t) dt / ∫₀^{1−x0} p(x0, t) dt.
		num := inner(x[0], x[1])
		den := inner(x[0], 1-x[0])
		if got := cond(0, x); math.Abs(got-f0) > 1e-9 {
			t.Errorf("x=%v: F(x0) = %v, numerical %v", x, got, f0)
		}
		if got := cond(1, x); math.Abs(got-num/den) > 1e-9 {
			t.Errorf("x=%v: F(x1 | x0) = %v, numerical %v", x, got, num/den)
		}
		if got := cond(2, x); !math.IsNaN(got) {
			t.Errorf("last component: %v, want NaN", got)
		}
	}
	if v := diagnostics.DirichletConditionalCDF([]float64{1, -1})(0, []float64{0.5, 0.5}); !math.IsNaN(v) {
		t.Errorf("invalid alpha: %v, want NaN", v)
	}
}

// TestRosenblattKS uses the two Dirichlet targets of Baker et al. (2018):
// exact draws give a mean KS below the 0.999 level of each dimension, draws
// from a different Dirichlet a much larger one.
func TestRosenblattKS(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(27, 1))
	sparse := []float64{800.1, 100.1, 100.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	dense := []float64{112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1}
	const n = 2000
	tol := ksCrit / math.Sqrt(n)
	for _, alpha := range [][]float64{sparse, dense} {
		cond := diagnostics.DirichletConditionalCDF(alpha)
		ks, err := diagnostics.RosenblattKS(dirichletDraws(rng, alpha, n), cond, len(alpha)-1)
		if err != nil {
			t.Fatal(err)
		}
		if ks > tol {
			t.Errorf("alpha %v: exact draws, RosenblattKS = %v > %v", alpha, ks, tol)
		}
		// Draws from Dirichlet with α₀ scaled by 1.2 and 1.5: coordinate 0
		// alone has KS sup_x |F_wrong(x) − F(x)| between two Beta CDFs
		// (within the null level tol), and the mean over coordinates grows.
		prev := ks
		for _, f := range []float64{1.2, 1.5} {
			wrong := slices.Clone(alpha)
			wrong[0] *= f
			draws := dirichletDraws(rng, wrong, n)
			ks, _ = diagnostics.RosenblattKS(draws, cond, len(alpha)-1)
			if ks <= math.Max(prev, tol) {
				t.Errorf("alpha %v: draws with α₀ × %v, RosenblattKS = %v, want > %v", alpha, f, ks, math.Max(prev, tol))
			}
			prev = ks
			var sum float64
			for _, a := range alpha {
				sum += a
			}
			right := distuv.Beta{Alpha: alpha[0], Beta: sum - alpha[0]}
			bad := distuv.Beta{Alpha: wrong[0], Beta: sum - alpha[0]}
			var exact float64
			for i := 1; i < 100000; i++ {
				x := float64(i) / 100000
				exact = math.Max(exact, math.Abs(bad.CDF(x)-right.CDF(x)))
			}
			ks0, _ := diagnostics.RosenblattKS(draws, cond, 1)
			if math.Abs(ks0-exact) > tol {
				t.Errorf("alpha %v × %v: coordinate 0 KS = %v, want %v ± %v", alpha, f, ks0, exact, tol)
			}
		}
	}
	// Independent coordinates: the mean of the per-coordinate KS distances.
	draws := make([][]float64, 500)
	cols := make([][]float64, 2)
	for i := range draws {
		draws[i] = normals(rng, 2, 0.1)
		cols[0] = append(cols[0], draws[i][0])
		cols[1] = append(cols[1], draws[i][1])
	}
	got, err := diagnostics.RosenblattKS(draws, func(j int, x []float64) float64 { return distuv.UnitNormal.CDF(x[j]) }, 2)
	if err != nil {
		t.Fatal(err)
	}
	k0, _ := diagnostics.KS(cols[0], distuv.UnitNormal.CDF)
	k1, _ := diagnostics.KS(cols[1], distuv.UnitNormal.CDF)
	if math.Abs(got-(k0+k1)/2) > 1e-15 {
		t.Errorf("RosenblattKS = %v, mean of KS %v", got, (k0+k1)/2)
	}
	// A NaN from the conditional CDF names the draw and coordinate.
	_, err = diagnostics.RosenblattKS([][]float64{{0.2, 0.3, 0.5}, {0.1, 0.1, 0.8}}, diagnostics.DirichletConditionalCDF([]float64{1, 1, 1}), 3)
	var ie *diagnostics.InputError
	if !errors.As(err, &ie) || ie.Index != 0 || ie.Coord != 2 {
		t.Errorf("dims = K: err = %v, want an InputError at draw 0 coordinate 2", err)
	}
	_, err = diagnostics.RosenblattKS([][]float64{{0.2, 0.8}, {math.NaN(), 0.8}}, diagnostics.DirichletConditionalCDF([]float64{1, 1}), 1)
	if !errors.As(err, &ie) || ie.Index != 1 || ie.Coord != 0 {
		t.Errorf("NaN draw: err = %v, want an InputError at draw 1 coordinate 0", err)
	}
}

func TestDistanceBadInput(t *testing.T) {
	t.Parallel()
	nan := []float64{1, math.NaN()}
	for name, err := range map[string]error{
		"KS empty":           second(diagnostics.KS(nil, distuv.UnitNormal.CDF)),
		"KS NaN":             second(diagnostics.KS(nan, distuv.UnitNormal.CDF)),
		"KS bad CDF":         second(diagnostics.KS([]float64{1}, dens1(2))),
		"KSTwoSample NaN":    second(diagnostics.KSTwoSample([]float64{1}, nan)),
		"Wasserstein empty":  second(diagnostics.Wasserstein(nil, distuv.UnitNormal.CDF)),
		"WassersteinTwo NaN": second(diagnostics.WassersteinTwoSample(nan, []float64{1})),
		"KL bad grid":        second(diagnostics.KL([]float64{1}, dens1(1), diagnostics.Grid{Min: 1, Max: 0, Bins: 3})),
		"KL outside":         second(diagnostics.KL([]float64{9}, dens1(1), diagnostics.Grid{Min: 0, Max: 1, Bins: 3})),
		"KSD empty":          second(diagnostics.KSD(nil, stdNormalScore, nil)),
		"KSD ragged":         second(diagnostics.KSD([][]float64{{1, 2}, {1}}, stdNormalScore, nil)),
		"KSD NaN":            second(diagnostics.KSD([][]float64{{1, 2}, nan}, stdNormalScore, nil)),
		"KSD bad kernel":     second(diagnostics.KSD([][]float64{{1}}, stdNormalScore, &diagnostics.IMQ{Beta: -1})),
		"RosenblattKS empty": second(diagnostics.RosenblattKS(nil, nil, 1)),
	} {
		var ie *diagnostics.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want *InputError", name, err)
		}
	}
}

func second(_ float64, err error) error { return err }
