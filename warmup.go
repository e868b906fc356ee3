// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// chainOut is one chain's share of a Result.
type chainOut struct {
	chain            *Chain
	adapted          Adapted
	evals, warmEvals int64
	warnings         []string
}

// countModel counts per-datum likelihood-gradient evaluations.
type countModel struct {
	Model
	n *int64
}

func (m countModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	*m.n++
	m.Model.LogLikGrad(dst, theta, i, scale)
}

// countBatchModel is countModel for a BatchModel.
type countBatchModel struct {
	countModel
	bm BatchModel
}

func (m countBatchModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	*m.n += int64(len(idx))
	m.bm.LogLikGradBatch(dst, theta, idx, scale)
}

// countGrad counts calls of a Gradient, forwarding SameBatchGradient.
type countGrad struct {
	g  Gradient
	sb SameBatchGradient
	n  *int64
}

func (c *countGrad) Grad(dst, theta []float64) { *c.n++; c.g.Grad(dst, theta) }
func (c *countGrad) NewBatch() {
	if c.sb != nil {
		c.sb.NewBatch()
	}
}
func (c *countGrad) GradSameBatch(dst, theta []float64) {
	if c.sb == nil {
		c.Grad(dst, theta)
		return
	}
	*c.n++
	c.sb.GradSameBatch(dst, theta)
}

// Warmup constants (doc/equations.md §13).
const (
	eigFloor      = 1e-12 // eigenvalue floor relative to the largest
	fdStep        = 1e-3  // finite-difference step in whitened units
	newtonIters   = 60
	windowEps     = 0.2 // warmup Langevin step, in units of 1/λ̂
	probeDraws    = 64  // gradients in the noise probe
	maxShrink     = 1e12
	firstOrderLow = 0.5 // assumed smallest whitened curvature, for thinning
)

// chainEnv is one chain's gradient sources.
type chainEnv struct {
	d, N     int      // N = 0 without a Model
	count    int64    // evaluations so far
	fixed    Gradient // θ-space gradient on a fixed batch
	sampling func(n int) (Gradient, error)
	n0       int
	rng      *rand.Rand
	mbSeed   [2]uint64
}

func newChainEnv(c int, p Problem, d int, src rand.Source) (*chainEnv, error) {
	e := &chainEnv{d: d, rng: rand.New(rand.NewPCG(src.Uint64(), src.Uint64()))}
	mbSeed := [2]uint64{src.Uint64(), src.Uint64()}
	e.mbSeed = mbSeed
	if p.Model != nil {
		var m Model = countModel{Model: p.Model, n: &e.count}
		if bm, ok := p.Model.(BatchModel); ok {
			m = countBatchModel{countModel: countModel{Model: p.Model, n: &e.count}, bm: bm}
		}
		e.N = p.Model.Len()
		nh := min(e.N, max(100*d, 2000))
		fixedMB, err := NewMinibatch(m, nh, false, rand.NewPCG(mbSeed[0]^0x9e3779b97f4a7c15, mbSeed[1]))
		if err != nil {
			return nil, err
		}
		idx := append([]int(nil), fixedMB.Draw()...)
		e.fixed = GradFunc(func(dst, theta []float64) { fixedMB.GradOn(dst, theta, idx) })
		e.n0 = min(e.N, max(100, e.N/10))
		e.sampling = func(n int) (Gradient, error) {
			return NewMinibatch(m, n, false, rand.NewPCG(mbSeed[0], mbSeed[1]))
		}
		return e, nil
	}
	g, err := p.Gradient(c, rand.NewPCG(mbSeed[0], mbSeed[1]))
	if err != nil {
		return nil, errorf(nil, "Sample: the Problem's Gradient for chain %d: %w", c, err)
	}
	if g == nil {
		return nil, errorf(ErrNil, "Sample: the Problem's Gradient returned nil for chain %d", c)
	}
	cg := &countGrad{g: g, n: &e.count}
	cg.sb, _ = g.(SameBatchGradient)
	if cg.sb != nil {
		cg.sb.NewBatch()
		e.fixed = GradFunc(cg.GradSameBatch)
	} else {
		e.fixed = cg
	}
	e.sampling = func(int) (Gradient, error) { return cg, nil }
	return e, nil
}

// whitening is θ = shift + L z with a dense lower-triangular or diagonal L.
type whitening struct {
	shift []float64
	lower *mat.TriDense // nil when diagonal
	diag  []float64
}

func (w *whitening) affine(g Gradient) (*Affine, error) {
	if w.lower != nil {
		d := len(w.shift)
		raw := w.lower.RawTriangular()
		l := make([]float64, d*d)
		for i := range d {
			copy(l[i*d:i*d+i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
		}
		return NewAffine(g, w.shift, l, nil)
	}
	return NewAffine(g, w.shift, nil, w.diag)
}

// fromCov returns the whitening of covariance p (dense: its Cholesky
// factor; diagonal: square roots of its diagonal) centred at shift.
func fromCov(shift []float64, p *mat.SymDense, dense bool) (*whitening, error) {
	w := &whitening{shift: append([]float64(nil), shift...)}
	d := len(shift)
	if dense {
		var ch mat.Cholesky
		if !ch.Factorize(p) {
			return nil, fmt.Errorf("preconditioner not positive definite")
		}
		var l mat.TriDense
		ch.LTo(&l)
		w.lower = &l
		return w, nil
	}
	w.diag = make([]float64, d)
	for i := range d {
		w.diag[i] = math.Sqrt(p.At(i, i))
	}
	return w, nil
}

// toTheta maps z to θ.
func (w *whitening) toTheta(z []float64) []float64 {
	a, _ := w.affine(GradFunc(func([]float64, []float64) {}))
	th := make([]float64, len(z))
	a.ToTheta(th, z)
	return th
}

// cov returns L Lᵀ scaled by the whitened covariance a: L a Lᵀ.
func (w *whitening) thetaCov(a mat.Symmetric) *mat.SymDense {
	d := len(w.shift)
	l := mat.NewDense(d, d, nil)
	if w.lower != nil {
		l.Copy(w.lower)
	} else {
		for i, v := range w.diag {
			l.Set(i, i, v)
		}
	}
	var t mat.Dense
	t.Mul(l, a)
	var out mat.Dense
	out.Mul(&t, l.T())
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(out.At(i, j)+out.At(j, i)))
		}
	}
	return s
}

// whitenedHessian returns the Hessian of the fixed-batch gradient in the
// coordinates of w at z = 0, and that gradient.
func (e *chainEnv) whitenedHessian(w *whitening, dense bool) (*mat.SymDense, []float64, error) {
	a, err := w.affine(e.fixed)
	if err != nil {
		return nil, nil, err
	}
	z := make([]float64, e.d)
	g := make([]float64, e.d)
	a.Grad(g, z)
	if i := firstNonFinite(g); i >= 0 {
		return nil, nil, errorf(ErrNonFinite, "Sample: warmup: the gradient is %v at coordinate %d", g[i], i)
	}
	if dense {
		h := hessian(a, z, fdStep)
		if i := firstNonFinite(h.RawSymmetric().Data); i >= 0 {
			return nil, nil, errorf(ErrNonFinite, "Sample: warmup: non-finite curvature")
		}
		return h, g, nil
	}
	h := mat.NewSymDense(e.d, nil)
	col := make([]float64, e.d)
	v := make([]float64, e.d)
	buf := make([]float64, 2*e.d)
	for j := range e.d {
		clear(v)
		v[j] = 1
		hvp(col, a, z, v, fdStep, buf)
		h.SetSym(j, j, col[j])
	}
	if i := firstNonFinite(h.RawSymmetric().Data); i >= 0 {
		return nil, nil, errorf(ErrNonFinite, "Sample: warmup: non-finite curvature")
	}
	return h, g, nil
}

// sampleChain runs chain c: warmup, then the frozen sampler.
func sampleChain(ctx context.Context, c int, p Problem, theta0 []float64, s *SampleSettings, ms methodSpec) (chainOut, error) {
	var out chainOut
	d := len(theta0)
	dense := d <= s.DenseMax
	src := ChainSource(s.Seed, c)
	e, err := newChainEnv(c, p, d, src)
	if err != nil {
		return out, err
	}
	out.adapted.Method = ms.name
	out.adapted.SamplerSeed = [2]uint64{src.Uint64(), src.Uint64()}
	out.adapted.MinibatchSeed = e.mbSeed
	// Dispersed start.
	start := make([]float64, d)
	for i, v := range theta0 {
		start[i] = v + s.StartScale*(2*e.rng.Float64()-1)
	}
	w, hs, err := e.newton(start, dense)
	if err != nil {
		return out, err
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	w, hs, err = e.windows(w, hs, dense)
	if err != nil {
		return out, err
	}
	a := &out.adapted
	a.Shift = w.shift
	if w.lower != nil {
		raw := w.lower.RawTriangular()
		a.Lower = make([]float64, d*d)
		for i := range d {
			copy(a.Lower[i*d:i*d+i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
		}
	} else {
		a.Diag = w.diag
	}
	// λ̂ and the curvature spread over the warmup points, by power
	// iteration on the whitened Hessians.
	lamMax, lamMin := 0.0, math.Inf(1)
	for _, h := range hs {
		hm := h
		lamMax = math.Max(lamMax, powerIteration(func(dst, v []float64) { mulSym(dst, hm, v) }, d, 50, e.rng))
		if vals, _, ok := symEigen(h); ok {
			lamMin = math.Min(lamMin, math.Max(vals[0], eigFloor*vals[len(vals)-1]))
			lamMax = math.Max(lamMax, vals[len(vals)-1])
		}
	}
	if !(lamMax > 0) || math.IsInf(lamMax, 0) {
		return out, errorf(ErrNonFinite, "Sample: warmup: no positive curvature found (λ̂ = %v)", lamMax)
	}
	a.LambdaMax = lamMax
	a.CurvatureSpread = lamMax / lamMin
	if ms.momentum {
		a.Eps = ms.c / math.Sqrt(lamMax)
	} else {
		a.Eps = ms.c / lamMax
	}
	if err := e.chooseNoise(a, w, ms, s); err != nil {
		return out, err
	}
	out.warmEvals = e.count
	// The frozen sampler.
	g, err := e.sampling(max(a.BatchSize, 1))
	if err != nil {
		return out, err
	}
	smp, err := a.newSampler(g, ms)
	if err != nil {
		return out, err
	}
	thin := s.Thin
	tau := a.autocorrTime(ms)
	if thin == 0 {
		thin = max(1, int(math.Round(tau/4)))
	}
	a.Thin = thin
	a.BurnIn = max(100, int(3*tau))
	zc, runErr := Run(ctx, smp, RunOptions{Draws: s.Draws, Thin: thin, BurnIn: a.BurnIn, Schedule: Constant(a.Eps), Callback: s.Callback})
	out.evals = e.count
	if zc != nil {
		out.chain = a.toTheta(zc)
	}
	return out, runErr
}

// mulSym writes a·v into dst.
func mulSym(dst []float64, a *mat.SymDense, v []float64) {
	dv := mat.NewVecDense(len(dst), dst)
	dv.MulVec(a, mat.NewVecDense(len(v), v))
}

// newton moves from start to the typical set by trust-region Newton steps
// on the fixed batch, and returns the whitening of the last Hessian and
// that Hessian (identity in its own coordinates).
func (e *chainEnv) newton(start []float64, dense bool) (*whitening, []*mat.SymDense, error) {
	d := e.d
	w := &whitening{shift: append([]float64(nil), start...)}
	if dense {
		w.lower = mat.NewTriDense(d, mat.Lower, nil)
		for i := range d {
			w.lower.SetTri(i, i, 1)
		}
	} else {
		w.diag = make([]float64, d)
		for i := range w.diag {
			w.diag[i] = 1
		}
	}
	radius := 3*math.Sqrt(float64(d)) + 3
	var h *mat.SymDense
	var g []float64
	for it := 0; it < newtonIters; it++ {
		var err error
		h, g, err = e.whitenedHessian(w, dense)
		if err != nil {
			return nil, nil, err
		}
		inv, _, ok := regularisedInverse(h, eigFloor)
		if !ok {
			return nil, nil, errorf(ErrNonFinite, "Sample: warmup: the curvature at the start is degenerate")
		}
		// Re-whiten at this point by the regularised curvature.
		nw, err := fromCov(w.shift, w.thetaCov(inv), dense)
		if err != nil {
			return nil, nil, errorf(nil, "Sample: warmup: %w", err)
		}
		// The Newton step in the old coordinates: δz = −A⁻¹g.
		dz := make([]float64, d)
		mulSym(dz, inv, g)
		q := floats.Dot(dz, g) // Newton decrement², ≈ d in the typical set
		if q <= 2*float64(d) {
			return nw, []*mat.SymDense{reexpress(h, transition(w, nw))}, nil
		}
		scale := math.Min(1, radius/math.Sqrt(q))
		floats.Scale(-scale, dz)
		next := w.toTheta(dz)
		// Judge the step by the decrement at the new point in the old
		// metric: a good step shrinks it as the quadratic model predicts.
		ag, err := w.affine(e.fixed)
		if err != nil {
			return nil, nil, err
		}
		gn := make([]float64, d)
		ag.Grad(gn, dz)
		tmp := make([]float64, d)
		mulSym(tmp, inv, gn)
		qn := floats.Dot(tmp, gn)
		if firstNonFinite(gn) < 0 && qn < q {
			nw.shift = next
			w = nw
			if math.Sqrt(qn) < math.Sqrt(q)-0.5*scale*math.Sqrt(q) {
				radius *= 4
			}
		} else {
			radius /= 4
			if radius < 1e-12 {
				return nil, nil, errorf(ErrRange, "Sample: warmup: no Newton step from the start reduces the gradient (trust radius below 1e-12)")
			}
			w = nw
		}
	}
	h, _, err := e.whitenedHessian(w, dense)
	if err != nil {
		return nil, nil, err
	}
	return w, []*mat.SymDense{h}, nil
}

// reexpress returns Tᵀ A T, a whitened Hessian A in the coordinates
// reached by T = L_old⁻¹ L_new.
func reexpress(h *mat.SymDense, t *mat.Dense) *mat.SymDense {
	d := h.SymmetricDim()
	var m1, m2 mat.Dense
	m1.Mul(t.T(), h)
	m2.Mul(&m1, t)
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(m2.At(i, j)+m2.At(j, i)))
		}
	}
	return s
}

// windows runs three windows of whitened Langevin steps on the fixed
// batch, measures the curvature at the end of each, and blends the
// windows' covariance into the averaged curvature.
func (e *chainEnv) windows(w *whitening, hs []*mat.SymDense, dense bool) (*whitening, []*mat.SymDense, error) {
	d := e.d
	eps := windowEps
	lens := []int{50, 150, 300}
	cv := newCovariance(d)
	var shrunk float64 = 1
	var z []float64
	for k, n := range lens {
		a, err := w.affine(e.fixed)
		if err != nil {
			return nil, nil, err
		}
		smp, err := NewSGLD(a, make([]float64, d), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), nil)
		if err != nil {
			return nil, nil, err
		}
		for t := 0; t < n; t++ {
			before, _ := smp.Divergences()
			serr := smp.Step(eps)
			after, last := smp.Divergences()
			if serr != nil || after > before {
				// Divergence: shrink and restart the window from z = 0.
				eps /= 2
				shrunk *= 2
				if shrunk > maxShrink {
					why := fmt.Sprintf("a transition changed the potential by %.3g", last.DeltaU)
					if serr != nil {
						why = serr.Error()
					}
					return nil, nil, errorf(ErrDivergence, "Sample: warmup: tried Langevin steps from %g down to %.3g (in units of the curvature measured at the start) and every one diverged (%s): the curvature at the start does not describe the posterior nearby", windowEps, eps, why)
				}
				smp, err = NewSGLD(a, make([]float64, d), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), nil)
				if err != nil {
					return nil, nil, err
				}
				t = -1
				continue
			}
			if k > 0 {
				cv.add(w.toTheta(smp.Position()))
			}
		}
		z = smp.Position()
		// Re-centre at the window's end and measure the curvature there, in
		// the first window's coordinates.
		w = &whitening{shift: w.toTheta(z), lower: w.lower, diag: w.diag}
		h, _, err := e.whitenedHessian(w, dense)
		if err != nil {
			return nil, nil, err
		}
		hs = append(hs, h)
	}
	// Average the curvature (all Hessians are in the same coordinates),
	// invert, and blend the windows' covariance with a weight that grows
	// with their effective size (about n·ε/2 draws).
	avg := mat.NewSymDense(d, nil)
	for _, h := range hs {
		avg.AddSym(avg, h)
	}
	avg.ScaleSym(1/float64(len(hs)), avg)
	inv, _, ok := regularisedInverse(avg, eigFloor)
	if !ok {
		return nil, nil, errorf(ErrNonFinite, "Sample: warmup: degenerate curvature")
	}
	pc := w.thetaCov(inv)
	neff := float64(cv.n) * eps / 2
	wt := neff / (neff + 5*float64(d))
	sc := cv.cov()
	if !dense {
		for i := range d {
			for j := i + 1; j < d; j++ {
				sc.SetSym(i, j, 0)
			}
		}
	}
	blend := mat.NewSymDense(d, nil)
	blend.ScaleSym(1-wt, pc)
	sc.ScaleSym(wt, sc)
	blend.AddSym(blend, sc)
	nw, err := fromCov(w.shift, blend, dense)
	if err != nil {
		nw, err = fromCov(w.shift, pc, dense)
		if err != nil {
			return nil, nil, errorf(nil, "Sample: warmup: %w", err)
		}
	}
	// Express the warmup Hessians in the new coordinates: A' = Tᵀ A T with
	// T = L_old⁻¹ L_new.
	t := transition(w, nw)
	out := make([]*mat.SymDense, len(hs))
	for k, h := range hs {
		out[k] = reexpress(h, t)
	}
	return nw, out, nil
}

// transition returns L_old⁻¹ L_new.
func transition(old, nw *whitening) *mat.Dense {
	d := len(old.shift)
	ln := mat.NewDense(d, d, nil)
	lo := mat.NewDense(d, d, nil)
	if nw.lower != nil {
		ln.Copy(nw.lower)
		lo.Copy(old.lower)
	} else {
		for i := range d {
			ln.Set(i, i, nw.diag[i])
			lo.Set(i, i, old.diag[i])
		}
	}
	var t mat.Dense
	if err := t.Solve(lo, ln); err != nil {
		t.Copy(ln)
	}
	return &t
}

// chooseNoise probes the gradient noise at the end of warmup and sets
// the batch size, B̂, the friction and the heat estimate.
func (e *chainEnv) chooseNoise(a *Adapted, w *whitening, ms methodSpec, s *SampleSettings) error {
	d := e.d
	n0 := e.n0
	if s.BatchSize > 0 {
		n0 = s.BatchSize
	}
	g, err := e.sampling(max(n0, 1))
	if err != nil {
		return err
	}
	aff, err := w.affine(g)
	if err != nil {
		return err
	}
	z := make([]float64, d)
	cv := newCovariance(d)
	buf := make([]float64, d)
	for range probeDraws {
		aff.Grad(buf, z)
		cv.add(buf)
	}
	v0 := cv.cov()
	vals, _, ok := symEigen(v0)
	if !ok {
		return errorf(ErrNonFinite, "Sample: warmup: the gradient-noise estimate is not finite")
	}
	lamV0 := math.Max(vals[len(vals)-1], 0)
	diag0 := make([]float64, d)
	var maxDiag0 float64
	for i := range d {
		diag0[i] = v0.At(i, i)
		maxDiag0 = math.Max(maxDiag0, diag0[i])
	}
	// Residual after a diagonal B̂: off-diagonal noise and the estimate's
	// own error (relative sd √(2/R)).
	off := mat.NewSymDense(d, nil)
	off.CopySym(v0)
	for i := range d {
		off.SetSym(i, i, 0)
	}
	offVals, _, _ := symEigen(off)
	resid0 := lamV0
	if ms.bhat {
		resid0 = math.Max(0, offVals[len(offVals)-1]) + maxDiag0*math.Sqrt(2.0/probeDraws)
	}
	// V(n) = V(n₀)·(n₀/n)·(1 − n/N)/(1 − n₀/N), without replacement.
	scale := func(n int) float64 {
		if e.N == 0 {
			return 1
		}
		if n >= e.N {
			return 0
		}
		if n0 >= e.N {
			return 0
		}
		return float64(n0) / float64(n) * (1 - float64(n)/float64(e.N)) / (1 - float64(n0)/float64(e.N))
	}
	heat := func(n int) (h, fric float64) {
		f := scale(n)
		fric = 1
		switch ms.name {
		case "SGNHT":
			fric = 0.5
		}
		if ms.momentum && ms.bhat {
			// 2C − εB̂ ≥ C: the friction absorbs the correction.
			fric = math.Max(fric, a.Eps*f*maxDiag0)
		}
		if !ms.momentum && ms.bhat && a.Eps*f*maxDiag0 > 1 {
			return math.Inf(1), fric // SGLD's 2 − εB̂ would lose more than half the noise
		}
		c := fric
		if !ms.momentum {
			c = 1
		}
		return a.Eps * f * resid0 / (2 * c), fric
	}
	n := n0
	if e.N > 0 && s.BatchSize == 0 {
		for h, _ := heat(n); h > s.MaxHeat && n < e.N; h, _ = heat(n) {
			n = min(2*n, e.N)
		}
	}
	if e.N > 0 {
		a.BatchSize = n
	}
	a.Heat, a.Friction = heat(n)
	if !ms.momentum {
		a.Friction = 0
	}
	f := scale(n)
	a.NoiseScale = 0
	for _, v := range diag0 {
		a.NoiseScale += f * v / float64(d)
	}
	if ms.bhat && f > 0 {
		a.NoiseVar = make([]float64, d)
		for i, v := range diag0 {
			a.NoiseVar[i] = f * v
		}
	}
	if ms.name == "pSGLD" {
		return e.adaptPSGLD(a, w, n)
	}
	return nil
}

// adaptPSGLD runs pSGLD's RMSprop accumulator over warmup steps at the
// chosen batch and freezes it; ε is rescaled to the preconditioned
// curvature.
func (e *chainEnv) adaptPSGLD(a *Adapted, w *whitening, n int) error {
	g, err := e.sampling(max(n, 1))
	if err != nil {
		return err
	}
	aff, err := w.affine(g)
	if err != nil {
		return err
	}
	N := float64(max(e.N, 1))
	p, err := NewPSGLD(aff, make([]float64, e.d), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), &PSGLDSettings{DropGamma: true, N: N, Lambda: psgldLambda})
	if err != nil {
		return err
	}
	for range 200 {
		// Only v matters here: a tiny step keeps θ near the adapted point.
		if err := p.Step(1e-12); err != nil {
			return err
		}
	}
	a.Accumulator = make([]float64, e.d)
	p.Accumulator(a.Accumulator)
	var gmax float64
	for _, v := range a.Accumulator {
		gmax = math.Max(gmax, 1/(psgldLambda+math.Sqrt(v)))
	}
	a.Eps /= gmax
	return nil
}

// psgldLambda is pSGLD's λ for Sample: in whitened coordinates the mean
// per-datum gradient is of order 1/N, so λ must be smaller than that.
const psgldLambda = 1e-12

// autocorrTime is the predicted integrated autocorrelation time, in
// steps, of the slowest whitened direction.
func (a *Adapted) autocorrTime(ms methodSpec) float64 {
	lo := firstOrderLow
	if !ms.momentum {
		eps := a.Eps
		if a.Accumulator != nil {
			// pSGLD: the effective step is ε·G, smallest G sets the pace.
			gmin := math.Inf(1)
			for _, v := range a.Accumulator {
				gmin = math.Min(gmin, 1/(psgldLambda+math.Sqrt(v)))
			}
			eps *= gmin
		}
		return 2 / (eps * lo)
	}
	c := math.Max(a.Friction, 0.5)
	return 2 * math.Max(c/lo, 1/c) / a.Eps
}

// newSampler builds the frozen sampler on the whitened gradient.
func (a *Adapted) newSampler(g Gradient, ms methodSpec) (Sampler, error) {
	aff, err := NewAffine(g, a.Shift, a.Lower, a.Diag)
	if err != nil {
		return nil, err
	}
	src := rand.NewPCG(a.SamplerSeed[0], a.SamplerSeed[1])
	z0 := make([]float64, len(a.Shift))
	switch ms.name {
	case "SGLD":
		return NewSGLD(aff, z0, src, &SGLDSettings{NoiseVar: a.NoiseVar})
	case "SGHMC":
		return NewSGHMC(aff, z0, src, &SGHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar})
	case "SGNHT":
		return NewSGNHT(aff, z0, src, &SGNHTSettings{A: a.Friction, NoiseVar: a.NoiseVar})
	case "gSGRHMC":
		one := DiagMetricFunc(func(g, dg, _ []float64) {
			for i := range g {
				g[i], dg[i] = 1, 0
			}
		})
		return NewSGRHMC(aff, z0, one, src, &SGRHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar})
	case "HAMCMC":
		return NewHAMCMC(aff, z0, src, &HAMCMCSettings{M: 3, Gamma: 1, MinPairCurvature: 0.2})
	case "pSGLD":
		return NewPSGLD(aff, z0, src, &PSGLDSettings{V0: a.Accumulator, Freeze: true, Lambda: psgldLambda, N: 1})
	}
	return nil, errorf(ErrUnsupported, "Sample: unknown method %q", ms.name)
}

// toTheta maps a chain of z draws to θ.
func (a *Adapted) toTheta(zc *Chain) *Chain {
	aff, _ := NewAffine(GradFunc(func([]float64, []float64) {}), a.Shift, a.Lower, a.Diag)
	c := &Chain{Dim: zc.Dim, Draws: make([]float64, len(zc.Draws)), Eps: zc.Eps, Steps: zc.Steps, Divergent: zc.Divergent, Divergences: zc.Divergences}
	for i := range zc.Len() {
		aff.ToTheta(c.At(i), zc.At(i))
	}
	return c
}
