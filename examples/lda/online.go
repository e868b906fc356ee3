// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
)

// The methods, in the order of the table.
const (
	SGLD    = "SGLD"
	SGHMC   = "SGHMC"
	SGRLD   = "SGRLD"
	GSGRHMC = "gSGRHMC"
	SCIR    = "SCIR"
	Gibbs   = "Gibbs"
	Unigram = "unigram"
)

// sgMethods are the stochastic-gradient methods.
var sgMethods = []string{SGLD, SGHMC, SGRLD, GSGRHMC, SCIR}

// Setting is one point of a method's tuning grid: the step sizes
// h_m = H (1 + m/Tau)^(−Kappa) at minibatch m, and C, SGHMC's friction or
// gSGRHMC's metric scale c in G = diag(1/(cθ)) (zero means 1).
type Setting struct {
	H, Tau, Kappa float64
	C             float64
}

func (s Setting) String() string {
	str := fmt.Sprintf("h = %g, τ = %g, κ = %g", s.H, s.Tau, s.Kappa)
	if s.C != 0 {
		str += fmt.Sprintf(", C = %g", s.C)
	}
	return str
}

// Online configures one online run.
type Online struct {
	Model Model
	// Batch is the number of documents per minibatch.
	Batch int
	// Local is the local Gibbs sampler's schedule per document.
	Local Local
	// Batches is the number of minibatches, and Every the number of
	// minibatches between evaluations.
	Batches, Every int
	// Window is the number of steps before each evaluation whose topics
	// are averaged for it; zero means Every.
	Window int
	// EuclidMean runs SGLD and SGHMC on the expanded mean θ itself
	// (reflected at 0) instead of on x = log θ. See doc.go: they diverge.
	EuclidMean bool
}

// Point is one checkpoint of a run.
type Point struct {
	Docs       int
	Perplexity float64
	Seconds    float64 // training time so far, evaluations excluded
}

// Stats are a run's counters.
type Stats struct {
	Seconds      float64 // training time, evaluations excluded
	Reflections  int     // coordinates reflected at 0 (Recipe samplers)
	LocalSeconds float64 // time in the local Gibbs sampler
}

// globalStep advances the topics by one step given the shape estimate
// â = β + (D/n) n̄ (K×W, topic-major) of the current minibatch.
type globalStep interface {
	step(h float64, ahat []float64) error
	// theta returns the current expanded-mean parameters, or the topics
	// themselves, topic-major (each row is normalised by the caller).
	theta() []float64
	reflections() int
}

// shapeStep wraps SCIR and SGRLDSimplex, driven by StepShape. Their
// Position is ω, each topic already normalised (by log-sum-exp for SCIR, so
// that it stays valid when θ underflows).
type shapeStep struct {
	s interface {
		StepShape(h float64, ahat []float64) error
		Position() []float64
	}
}

func (g shapeStep) step(h float64, ahat []float64) error { return g.s.StepShape(h, ahat) }
func (g shapeStep) theta() []float64                     { return g.s.Position() }
func (shapeStep) reflections() int                       { return 0 }

// emGradient is the stochastic gradient of the potential of the expanded-mean
// parameters θ_kw given the minibatch's shape estimate â:
//
//	Ũ(θ) = Σ_kw [|θ_kw| − (â_kw − 1) log|θ_kw|],   ∂Ũ/∂θ_kw = sign θ_kw − (â_kw − 1)/θ_kw,
//
// the mirrored-gamma target whose normalised rows ω_k = θ_k/Σ_w θ_kw are
// the Dirichlet(β + n̂_k) conditional posterior of the topics (the target of
// SGRLDSimplex and SCIR as well). With natural set the parameters are
// x = log θ, whose density e^(âx − e^x) has the potential gradient
// e^x − â. The shape is set by the runner before each step; Grad must be
// called exactly once per step.
type emGradient struct {
	natural bool
	ahat    []float64
	fresh   bool
	err     error
}

func (g *emGradient) Grad(dst, theta []float64) {
	if !g.fresh && g.err == nil {
		g.err = fmt.Errorf("gradient evaluated twice on one minibatch")
	}
	g.fresh = false
	if g.natural {
		for i, x := range theta {
			dst[i] = math.Exp(x) - g.ahat[i]
		}
		return
	}
	for i, t := range theta {
		dst[i] = math.Copysign(1, t) - (g.ahat[i]-1)/t
	}
}

// recipeStep wraps the Recipe samplers (SGLD, SGHMC, gSGRHMC) and reflects
// θ at 0 after each step, flipping the momentum of a reflected coordinate.
type recipeStep struct {
	r     *sgmcmc.Recipe
	grad  *emGradient
	d, w  int
	nrefl int
	buf   []float64
}

func (g *recipeStep) step(h float64, ahat []float64) error {
	g.grad.ahat = ahat
	g.grad.fresh = true
	if err := g.r.Step(h); err != nil {
		return err
	}
	if g.grad.err != nil {
		return g.grad.err
	}
	if g.grad.natural {
		return nil
	}
	z := g.r.State()
	th := z[:g.d]
	mom := z[g.d:]
	for i, t := range th {
		if t < 0 {
			th[i] = -t
			if len(mom) > 0 {
				mom[i] = -mom[i]
			}
			g.nrefl++
		}
	}
	return nil
}

func (g *recipeStep) theta() []float64 {
	if !g.grad.natural {
		return g.r.Position()
	}
	// exp(x − max) within each row, so that it cannot overflow.
	x := g.r.Position()
	for lo := 0; lo < len(x); lo += g.w {
		row := x[lo : lo+g.w]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		for i, v := range row {
			g.buf[lo+i] = math.Exp(v - m)
		}
	}
	return g.buf
}
func (g *recipeStep) reflections() int { return g.nrefl }

// newGlobal builds method's sampler over θ0 (copied by the sampler).
func newGlobal(method string, s Setting, euclidMean bool, w int, theta0 []float64, src rand.Source) (globalStep, error) {
	switch method {
	case SCIR:
		sc, err := sgmcmc.NewSCIR(nil, theta0, src, &sgmcmc.SCIRSettings{Simplex: w})
		if err != nil {
			return nil, err
		}
		return shapeStep{sc}, nil
	case SGRLD:
		sg, err := sgmcmc.NewSGRLDSimplex(nil, theta0, src, &sgmcmc.SGRLDSimplexSettings{Simplex: w})
		if err != nil {
			return nil, err
		}
		return shapeStep{sg}, nil
	}
	natural := (method == SGLD || method == SGHMC) && !euclidMean
	grad := &emGradient{natural: natural}
	if natural {
		x0 := make([]float64, len(theta0))
		for i, t := range theta0 {
			x0[i] = math.Log(t)
		}
		theta0 = x0
	}
	var (
		r   *sgmcmc.Recipe
		err error
	)
	switch method {
	case SGLD:
		r, err = sgmcmc.NewSGLD(grad, theta0, src, nil)
	case SGHMC:
		r, err = sgmcmc.NewSGHMC(grad, theta0, src, &sgmcmc.SGHMCSettings{Friction: s.C})
	case GSGRHMC:
		c := s.C
		if c == 0 {
			c = 1
		}
		met := func(g, dg, theta []float64) {
			for i, t := range theta {
				a := math.Abs(t)
				g[i] = 1 / (c * a)
				dg[i] = -1 / (c * t * a)
			}
		}
		r, err = sgmcmc.NewSGRHMC(grad, theta0, sgmcmc.DiagMetricFunc(met), src, nil)
	default:
		return nil, fmt.Errorf("unknown method %q", method)
	}
	if err != nil {
		return nil, err
	}
	return &recipeStep{r: r, grad: grad, d: len(theta0), w: w, buf: make([]float64, len(theta0))}, nil
}

// onlineRunner holds the buffers of one online run; after construction a
// minibatch allocates nothing.
type onlineRunner struct {
	cfg    Online
	train  *Corpus
	k, w   int
	lg     *localGibbs
	rng    *rand.Rand
	perm   []int
	pos    int
	phiT   []float64 // current topics, word-major
	phiSum []float64 // sum of phiT since the last checkpoint
	nsum   int
	ahat   []float64
	scale  float64
}

func newOnlineRunner(cfg Online, train *Corpus, rng *rand.Rand) *onlineRunner {
	k, w := cfg.Model.K, train.W
	maxLen := 0
	for d := range train.Len() {
		maxLen = max(maxLen, len(train.Doc(d)))
	}
	o := &onlineRunner{cfg: cfg, train: train, k: k, w: w, lg: newLocalGibbs(k, cfg.Model.Alpha, maxLen, rng), rng: rng,
		perm: make([]int, train.Len()), phiT: make([]float64, k*w), phiSum: make([]float64, k*w), ahat: make([]float64, k*w),
		scale: float64(train.Len()) / float64(cfg.Batch)}
	o.pos = len(o.perm)
	for i := range o.perm {
		o.perm[i] = i
	}
	return o
}

// setPhi normalises each topic of the topic-major θ into phiT (word-major).
func (o *onlineRunner) setPhi(theta []float64) {
	k, w := o.k, o.w
	for j := range k {
		row := theta[j*w : (j+1)*w]
		s := 0.0
		for _, t := range row {
			s += t
		}
		inv := 1 / s
		for v, t := range row {
			o.phiT[v*k+j] = t * inv
		}
	}
}

// addPhi adds phiT to phiSum.
func (o *onlineRunner) addPhi() {
	for i, p := range o.phiT {
		o.phiSum[i] += p
	}
	o.nsum++
}

// nextDoc streams the training documents in a fresh random order each pass.
func (o *onlineRunner) nextDoc() int {
	if o.pos == len(o.perm) {
		o.rng.Shuffle(len(o.perm), func(i, j int) { o.perm[i], o.perm[j] = o.perm[j], o.perm[i] })
		o.pos = 0
	}
	d := o.perm[o.pos]
	o.pos++
	return d
}

// shape runs the local Gibbs sampler on the next minibatch given phiT and
// writes â = β + (D/n) n̄ into ahat, n̄ the topic–word counts averaged over
// the kept sweeps.
func (o *onlineRunner) shape() {
	w := o.w
	for i := range o.ahat {
		o.ahat[i] = o.cfg.Model.Beta
	}
	inc := o.scale / float64(o.cfg.Local.Keep)
	for range o.cfg.Batch {
		doc := o.train.Doc(o.nextDoc())
		o.lg.init(doc, o.phiT)
		for range o.cfg.Local.Burn {
			o.lg.sweep(doc, o.phiT)
		}
		for range o.cfg.Local.Keep {
			o.lg.sweep(doc, o.phiT)
			for i, v := range doc {
				o.ahat[int(o.lg.z[i])*w+int(v)] += inc
			}
		}
	}
}

// initTheta draws the common starting point of seed, θ0_kw = β·E_kw with
// E_kw ~ Exp(1): the prior mean, times a random factor that breaks the
// symmetry between the topics.
func initTheta(m Model, c *Corpus, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x7e7a))
	th := make([]float64, m.K*c.W)
	for i := range th {
		th[i] = m.Beta * rng.ExpFloat64()
	}
	return th
}

// RunOnline runs one method for cfg.Batches minibatches from the common
// start of seed, evaluating the perplexity with ev every cfg.Every
// minibatches on the topics averaged over the states after the last
// cfg.Window steps. If phi is not nil, the last evaluated topics (word-major) are
// copied into it.
func RunOnline(ctx context.Context, cfg Online, method string, s Setting, train *Corpus, ev *Evaluator, seed uint64, phi []float64) ([]Point, Stats, error) {
	var st Stats
	if err := cfg.Model.validate(); err != nil {
		return nil, st, err
	}
	if cfg.Batch < 1 || cfg.Batch > train.Len() || cfg.Batches < 1 || cfg.Every < 1 || cfg.Local.Keep < 1 || cfg.Local.Burn < 0 {
		return nil, st, fmt.Errorf("batch %d of %d documents, %d batches, evaluation every %d, local sweeps %d+%d: out of range",
			cfg.Batch, train.Len(), cfg.Batches, cfg.Every, cfg.Local.Burn, cfg.Local.Keep)
	}
	theta0 := initTheta(cfg.Model, train, seed)
	src := rand.NewPCG(seed, methodStream(method))
	g, err := newGlobal(method, s, cfg.EuclidMean, train.W, theta0, src)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", method, err)
	}
	o := newOnlineRunner(cfg, train, rand.New(rand.NewPCG(seed, 0x10ca1)))
	window := cfg.Window
	if window <= 0 {
		window = cfg.Every
	}
	o.setPhi(g.theta())
	pts := []Point{{Docs: 0, Perplexity: ev.Perplexity(o.phiT)}}
	fresh := true // phiT holds the current state's topics
	var train0 time.Duration
	for m := 1; m <= cfg.Batches; m++ {
		if err := ctx.Err(); err != nil {
			return pts, st, err
		}
		t0 := time.Now()
		if !fresh {
			o.setPhi(g.theta())
		}
		tl := time.Now()
		o.shape()
		st.LocalSeconds += time.Since(tl).Seconds()
		h := s.H * math.Pow(1+float64(m)/s.Tau, -s.Kappa)
		if err := g.step(h, o.ahat); err != nil {
			return pts, st, fmt.Errorf("%s (%v), minibatch %d: %w", method, s, m, err)
		}
		train0 += time.Since(t0)
		fresh = false
		if next := min((m+cfg.Every-1)/cfg.Every*cfg.Every, cfg.Batches); next-m < window {
			// The state after this step is in the averaging window.
			o.setPhi(g.theta())
			o.addPhi()
			fresh = true
		}
		if m%cfg.Every == 0 || m == cfg.Batches {
			for i := range o.phiSum {
				o.phiSum[i] /= float64(o.nsum)
			}
			pts = append(pts, Point{Docs: m * cfg.Batch, Perplexity: ev.Perplexity(o.phiSum), Seconds: train0.Seconds()})
			if m == cfg.Batches && phi != nil {
				copy(phi, o.phiSum)
			}
			clear(o.phiSum)
			o.nsum = 0
		}
	}
	st.Seconds = train0.Seconds()
	st.Reflections = g.reflections()
	return pts, st, nil
}

// methodStream separates the samplers' random streams.
func methodStream(m string) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte(m) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
