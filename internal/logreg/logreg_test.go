// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/cputime"

	"github.com/sgmcmc-go/sgmcmc"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

const a9aTrain = "../../testdata/a9a/a9a"

func loadTrain(tb testing.TB) *Data {
	tb.Helper()
	d, err := LoadLIBSVM(a9aTrain, 123)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// synthetic returns n rows of d−1 real-valued features (about half zero)
// plus the bias, with labels from a logistic model: the CSR path.
func synthetic(rng *rand.Rand, n, d int) *Data {
	x := &Data{Cols: d, Ptr: []int32{0}}
	for range n {
		var z float64
		for j := range d - 1 {
			if rng.IntN(2) == 0 {
				continue
			}
			v := rng.NormFloat64()
			x.Idx = append(x.Idx, int32(j))
			x.Val = append(x.Val, v)
			z += v * 0.5
		}
		x.Idx = append(x.Idx, int32(d-1))
		x.Val = append(x.Val, 1)
		x.Ptr = append(x.Ptr, int32(len(x.Idx)))
		y := 0.0
		if rng.Float64() < Sigmoid(z) {
			y = 1
		}
		x.Y = append(x.Y, y)
	}
	return x
}

func TestReadLIBSVM(t *testing.T) {
	t.Parallel()
	const text = `+1 1:1 3:0.5
# a comment

-1 2:2.5 4:1
0 4:-1
1 3:0
`
	d, err := ReadLIBSVM(strings.NewReader(text), 5)
	if err != nil {
		t.Fatal(err)
	}
	want := &Data{
		Cols: 6,
		Ptr:  []int32{0, 3, 6, 8, 9},
		Idx:  []int32{0, 2, 5, 1, 3, 5, 3, 5, 5},
		Val:  []float64{1, 0.5, 1, 2.5, 1, 1, -1, 1, 1},
		Y:    []float64{1, 0, 0, 1},
	}
	if d.Cols != want.Cols || !eqInt32(d.Ptr, want.Ptr) || !eqInt32(d.Idx, want.Idx) || !eqF(d.Val, want.Val) || !eqF(d.Y, want.Y) {
		t.Errorf("got %+v\nwant %+v", d, want)
	}
	for _, bad := range []string{
		"1 6:1",     // index above features
		"1 0:1",     // indices are 1-based
		"2 1:1",     // label
		"1 3:1 2:1", // not increasing
		"1 1:x",     // value
		"1 1:NaN",   // value
		"1 1",       // no colon
		"",          // no rows
		"# only a comment",
	} {
		if _, err := ReadLIBSVM(strings.NewReader(bad), 5); err == nil {
			t.Errorf("ReadLIBSVM(%q): no error", bad)
		}
	}
}

func eqInt32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func eqF(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestA9A(t *testing.T) {
	t.Parallel()
	train := loadTrain(t)
	test, err := LoadLIBSVM("../../testdata/a9a/a9a.t", 123)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d    *Data
		rows int
		pos  int
	}{{train, 32561, 7841}, {test, 16281, 3846}} {
		if c.d.Rows() != c.rows || c.d.Cols != 124 {
			t.Errorf("%d rows, %d columns; want %d, 124", c.d.Rows(), c.d.Cols, c.rows)
		}
		var pos int
		for _, y := range c.d.Y {
			pos += int(y)
		}
		if pos != c.pos {
			t.Errorf("%d positive labels, want %d", pos, c.pos)
		}
	}
	m, err := NewModel(train, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.packed == nil || m.stride != 16 {
		t.Errorf("a9a not packed (stride %d)", m.stride)
	}
}

// TestCheckModel compares the gradients with finite differences of the log
// densities, on a9a (the packed path) and on real-valued data (CSR).
func TestCheckModel(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		name string
		x    *Data
		v    float64
	}{
		{"a9a", loadTrain(t), 1},
		{"synthetic", synthetic(rng, 200, 8), 2.5},
	} {
		m, err := NewModel(c.x, c.v)
		if err != nil {
			t.Fatal(err)
		}
		items := make([]int, 50)
		for k := range items {
			items[k] = rng.IntN(m.Len())
		}
		for _, scale := range []float64{0.3, 1, 3} { // logits from mild to saturated
			theta := make([]float64, m.Dim())
			for j := range theta {
				theta[j] = scale * rng.NormFloat64()
			}
			res, err := sgmcmc.CheckModel(m, theta, items)
			if err != nil {
				t.Fatal(err)
			}
			if res.RelErr > 1e-7 {
				t.Errorf("%s, θ scale %g: %v", c.name, scale, res)
			}
		}
	}
}

// TestPackedMatchesCSR checks the packed gradient of a9a against the CSR
// path on the same rows.
func TestPackedMatchesCSR(t *testing.T) {
	t.Parallel()
	m, err := NewModel(loadTrain(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	csr := *m
	csr.packed = nil
	rng := rand.New(rand.NewPCG(2, 2))
	theta := make([]float64, m.Dim())
	for j := range theta {
		theta[j] = rng.NormFloat64()
	}
	a := make([]float64, m.Dim())
	b := make([]float64, m.Dim())
	for i := range m.Len() {
		m.LogLikGrad(a, theta, i, 65.1)
		csr.LogLikGrad(b, theta, i, 65.1)
	}
	for j := range a {
		if math.Abs(a[j]-b[j]) > 1e-9*math.Max(1, math.Abs(b[j])) {
			t.Errorf("coordinate %d: packed %v, CSR %v", j, a[j], b[j])
		}
	}
}

func TestNewModelErrors(t *testing.T) {
	t.Parallel()
	good := func() *Data {
		return &Data{Cols: 2, Ptr: []int32{0, 2}, Idx: []int32{0, 1}, Val: []float64{1, 1}, Y: []float64{1}}
	}
	for name, c := range map[string]struct {
		x *Data
		v float64
	}{
		"nil":          {nil, 1},
		"prior 0":      {good(), 0},
		"prior inf":    {good(), math.Inf(1)},
		"prior NaN":    {good(), math.NaN()},
		"label":        {func() *Data { d := good(); d.Y[0] = -1; return d }(), 1},
		"column":       {func() *Data { d := good(); d.Idx[1] = 2; return d }(), 1},
		"ptr":          {func() *Data { d := good(); d.Ptr[1] = 1; return d }(), 1},
		"val length":   {func() *Data { d := good(); d.Val = d.Val[:1]; return d }(), 1},
		"ptr decrease": {&Data{Cols: 2, Ptr: []int32{0, 2, 1, 2}, Idx: []int32{0, 1}, Val: []float64{1, 1}, Y: []float64{1, 0, 1}}, 1},
	} {
		if _, err := NewModel(c.x, c.v); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := NewModel(good(), 1); err != nil {
		t.Error(err)
	}
}

// TestMAP checks the mode (∇U = 0 there) and the Hessian against finite
// differences of the gradient.
func TestMAP(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 3))
	m, err := NewModel(synthetic(rng, 300, 6), 2)
	if err != nil {
		t.Fatal(err)
	}
	theta, h, err := m.MAP(nil)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, m.Dim())
	m.grad(g, theta)
	for j, v := range g {
		if math.Abs(v) > 1e-9 {
			t.Errorf("∇U at the mode: coordinate %d is %v", j, v)
		}
	}
	num := mat.NewDense(m.Dim(), m.Dim(), nil)
	fd.Jacobian(num, func(y, x []float64) { m.grad(y, x) }, theta, &fd.JacobianSettings{Formula: fd.Central})
	for i := range m.Dim() {
		for j := range m.Dim() {
			if e := math.Abs(h.At(i, j) - num.At(i, j)); e > 1e-5*math.Max(1, math.Abs(num.At(i, j))) {
				t.Errorf("Hessian (%d,%d) = %v, finite differences %v", i, j, h.At(i, j), num.At(i, j))
			}
		}
	}
	// From far away, where undamped Newton steps overshoot.
	far := make([]float64, m.Dim())
	for j := range far {
		far[j] = 30 * rng.NormFloat64()
	}
	theta2, _, err := m.MAP(far)
	if err != nil {
		t.Fatal(err)
	}
	for j := range theta {
		if math.Abs(theta2[j]-theta[j]) > 1e-8 {
			t.Errorf("MAP from far away: coordinate %d is %v, want %v", j, theta2[j], theta[j])
		}
	}
	if _, _, err := m.MAP(make([]float64, 3)); err == nil {
		t.Error("MAP with a wrong-length start: no error")
	}
}

func TestPredictive(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 4))
	x := synthetic(rng, 100, 5)
	m, err := NewModel(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	a := []float64{0.5, -1, 2, 0, 0.3}
	b := []float64{-0.2, 0.4, 1, 1, -2}
	p := NewPredictive(x)
	p.Add(a, 1)
	p.Add(b, 3)
	var acc, ll, mll float64
	for i, y := range x.Y {
		p1 := (Sigmoid(x.Dot(i, a)) + 3*Sigmoid(x.Dot(i, b))) / 4
		if got := p.Prob(i); math.Abs(got-p1) > 1e-15 {
			t.Errorf("Prob(%d) = %v, want %v", i, got, p1)
		}
		if (p1 > 0.5) == (y == 1) {
			acc++
		}
		if y == 1 {
			ll += math.Log(p1)
		} else {
			ll += math.Log(1 - p1)
		}
		mll += (m.LogLik(a, i) + 3*m.LogLik(b, i)) / 4
	}
	n := float64(x.Rows())
	if got := p.Accuracy(); got != acc/n {
		t.Errorf("Accuracy = %v, want %v", got, acc/n)
	}
	if got := p.LogLik(); math.Abs(got-ll/n) > 1e-13 {
		t.Errorf("LogLik = %v, want %v", got, ll/n)
	}
	if got := p.MeanLogLik(); math.Abs(got-mll/n) > 1e-13 {
		t.Errorf("MeanLogLik = %v, want %v", got, mll/n)
	}
	// A confident, wrong prediction keeps its log density finite: 1 − σ(60)
	// would round to 0.
	far := NewPredictive(&Data{Cols: 1, Ptr: []int32{0, 1}, Idx: []int32{0}, Val: []float64{1}, Y: []float64{0}})
	far.Add([]float64{60}, 1)
	if got := far.LogLik(); math.Abs(got+60) > 1e-12 {
		t.Errorf("LogLik of y = 0 at σ(60) = %v, want −60", got)
	}
}

// BenchmarkMinibatchGrad is one minibatch gradient of a9a, n = 500:
// sgmcmc.Minibatch's Grad (a new batch drawn, then LogLikGradBatch, its
// parts on every core), and on one fixed batch, LogLikGradBatch alone and
// the rows one at a time (LogLikGrad). cpu-ns/op is the
// process's CPU time per gradient: on a shared machine wall time also counts
// the time other processes hold the cores.
func BenchmarkMinibatchGrad(b *testing.B) {
	m, err := NewModel(loadTrain(b), 1)
	if err != nil {
		b.Fatal(err)
	}
	theta, _, err := m.MAP(nil) // a typical θ: the signs of xᵀθ vary
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, m.Dim())
	run := func(b *testing.B, f func()) {
		b.ReportAllocs()
		c0, ok := cputime.Process()
		for b.Loop() {
			f()
		}
		if c1, _ := cputime.Process(); ok {
			b.ReportMetric(float64((c1-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
	b.Run("minibatch", func(b *testing.B) {
		mb, err := sgmcmc.NewMinibatch(m, 500, false, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		run(b, func() { mb.Grad(dst, theta) })
	})
	b.Run("batch", func(b *testing.B) {
		mb, err := sgmcmc.NewMinibatch(m, 500, false, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		idx := mb.Draw()
		run(b, func() {
			clear(dst)
			m.LogLikGradBatch(dst, theta, idx, 65.1)
		})
	})
	b.Run("rows", func(b *testing.B) {
		mb, err := sgmcmc.NewMinibatch(m, 500, false, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		idx := mb.Draw()
		run(b, func() {
			clear(dst)
			for _, i := range idx {
				m.LogLikGrad(dst, theta, i, 65.1)
			}
		})
	})
}

// TestLogPosterior checks LogPosterior against the log prior plus the sum
// of y log σ(z) + (1 − y) log(1 − σ(z)) written out directly.
func TestLogPosterior(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 5))
	x := synthetic(rng, 300, 6)
	m, err := NewModel(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	theta := make([]float64, m.Dim())
	for j := range theta {
		theta[j] = 0.5 * rng.NormFloat64()
	}
	want := m.LogPrior(theta)
	for i := range x.Rows() {
		p := 1 / (1 + math.Exp(-x.Dot(i, theta)))
		want += x.Y[i]*math.Log(p) + (1-x.Y[i])*math.Log(1-p)
	}
	if got := m.LogPosterior(theta); math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("LogPosterior = %v, want %v", got, want)
	}
}

// TestSparseRows: the fixed-width row layout of a sparse design gives the
// CSR model's gradients and log likelihoods, padded rows included.
func TestSparseRows(t *testing.T) {
	x := &Data{Cols: 6, Ptr: []int32{0, 2, 5, 6}, Idx: []int32{0, 4, 1, 2, 5, 3}, Val: []float64{1, -2, 0.5, 1, 3, -1}, Y: []float64{1, 0, 1}}
	m, err := NewModel(x, 4)
	if err != nil {
		t.Fatal(err)
	}
	rows, k := SparseRowsOf(x, 0)
	sr := SparseRows{D: 6, K: k, Prec: 0.25}
	theta := []float64{0.3, -0.2, 0.1, 0.7, -0.4, 0.25}
	want, got := make([]float64, 6), make([]float64, 6)
	for i := range 3 {
		m.LogLikGrad(want, theta, i, 2)
	}
	sr.LogLikGradRows(got, theta, rows, 2)
	var ll float64
	for i := range 3 {
		ll += m.LogLik(theta, i)
	}
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-14 {
			t.Fatalf("gradient %v, want %v", got, want)
		}
	}
	if v := sr.LogLikRows(theta, rows); math.Abs(v-ll) > 1e-14 {
		t.Errorf("log likelihood %v, want %v", v, ll)
	}
}
