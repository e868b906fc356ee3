// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// synthetic draws an LDA corpus from known topics: k topics over w words,
// φ_k ~ Dirichlet(0.2), each document's mixture ~ Dirichlet(alpha) and
// length tokens per document. It returns the training and test corpora and
// the true topics, word-major.
func synthetic(k, w, train, test, length int, alpha float64, seed uint64) (*Data, []float64) {
	rng := rand.New(rand.NewPCG(seed, 77))
	dir := func(a float64, n int) []float64 {
		g := distuv.Gamma{Alpha: a, Beta: 1, Src: rng}
		v := make([]float64, n)
		s := 0.0
		for i := range v {
			v[i] = g.Rand()
			s += v[i]
		}
		for i := range v {
			v[i] /= s
		}
		return v
	}
	phiT := make([]float64, w*k)
	for j := range k {
		for v, p := range dir(0.2, w) {
			phiT[v*k+j] = p
		}
	}
	draw := func(p []float64, stride, off int) int32 {
		u := rng.Float64()
		for i := range len(p) / stride {
			u -= p[i*stride+off]
			if u < 0 {
				return int32(i)
			}
		}
		return int32(len(p)/stride - 1)
	}
	corpus := func(n int) *Corpus {
		c := &Corpus{W: w, Start: []int32{0}}
		for range n {
			th := dir(alpha, k)
			for range length {
				z := draw(th, 1, 0)
				c.Words = append(c.Words, draw(phiT, k, int(z)))
			}
			c.Start = append(c.Start, int32(len(c.Words)))
		}
		return c
	}
	return &Data{Train: corpus(train), Test: corpus(test)}, phiT
}

// matchTV returns, for the best matching of fitted to true topics (by the
// sum of total variations, over all permutations), each true topic's total
// variation distance to its match.
func matchTV(fit, truth []float64, k, w int) []float64 {
	tv := make([][]float64, k)
	for a := range k {
		tv[a] = make([]float64, k)
		for b := range k {
			s := 0.0
			for v := range w {
				s += math.Abs(fit[v*k+b] - truth[v*k+a])
			}
			tv[a][b] = s / 2
		}
	}
	perm := make([]int, k)
	for i := range perm {
		perm[i] = i
	}
	best := math.Inf(1)
	var out []float64
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			s := 0.0
			for a, b := range perm {
				s += tv[a][b]
			}
			if s < best {
				best = s
				out = out[:0]
				for a, b := range perm {
					out = append(out, tv[a][b])
				}
			}
			return
		}
		for j := i; j < k; j++ {
			perm[i], perm[j] = perm[j], perm[i]
			rec(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
	}
	rec(0)
	return out
}

// TestSyntheticRecovery fits the methods to a corpus drawn from four known
// topics over 40 words and checks that, for collapsed Gibbs, SGRLD and SCIR,
// after matching each recovered topic is within total variation 0.1 of the
// truth, and the held-out perplexity within 3 % of the true model's. With
// 6,000 tokens per topic the estimation error alone is a total variation of
// about 0.03. SGLD, SGHMC and gSGRHMC do not recover the topics (doc.go
// explains why); their numbers are logged, and the test checks only that
// they run.
func TestSyntheticRecovery(t *testing.T) {
	const k, w = 4, 40
	m := Model{K: k, Alpha: 0.3, Beta: 0.05}
	data, truth := synthetic(k, w, 600, 200, 40, m.Alpha, 1)
	ev := NewEvaluator(m, data.Test, Local{Burn: 10, Keep: 20}, 3)
	trueP := ev.Perplexity(truth)
	uni := ev.UnigramPerplexity(data.Train, m.Beta)
	t.Logf("perplexity: true topics %.2f, unigram %.2f", trueP, uni)
	if !(trueP < 0.8*uni) {
		t.Fatalf("the synthetic topics are not distinguishable: true %.2f, unigram %.2f", trueP, uni)
	}
	check := func(name string, phi []float64, p float64, strict bool) {
		t.Helper()
		tv := matchTV(phi, truth, k, w)
		t.Logf("%-8s perplexity %.2f (%+.1f%%), total variations %.3f", name, p, 100*(p/trueP-1), tv)
		if !strict {
			return
		}
		for j, d := range tv {
			if d > 0.1 {
				t.Errorf("%s: topic %d recovered at total variation %.3f > 0.1", name, j, d)
			}
		}
		if math.Abs(p/trueP-1) > 0.03 {
			t.Errorf("%s: perplexity %.2f not within 3%% of the true model's %.2f", name, p, trueP)
		}
	}
	cfg := Config{Online: Online{Model: m}, GibbsSweeps: 200, GibbsEvery: 50}
	if testing.Short() {
		cfg.GibbsSweeps, cfg.GibbsEvery = 60, 20
	}
	g, err := runGibbs(context.Background(), cfg, data.Train, ev, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	check(Gibbs, g.Phi, g.Points[len(g.Points)-1].Perplexity, true)

	passes := 30
	methods := sgMethods
	if testing.Short() {
		passes = 15
		methods = []string{SGRLD, SCIR}
	}
	on := Online{Model: m, Batch: 50, Local: Local{Burn: 5, Keep: 5}, Batches: passes * 600 / 50, Every: 600 / 50}
	for _, method := range methods {
		phi := make([]float64, k*w)
		pts, _, err := RunOnline(context.Background(), on, method, winners[method], data.Train, ev, 1, phi)
		if err != nil {
			t.Fatal(err)
		}
		check(method, phi, pts[len(pts)-1].Perplexity, method == SGRLD || method == SCIR)
	}
}

// TestBrownReduced guards the experiment's findings on a reduced run on the
// Brown corpus (K = 20, six passes, one seed, the default settings): every
// SG method beats the unigram model, SGRLD and SCIR by a wide margin, and
// collapsed Gibbs after 20 sweeps is below 0.85 times the unigram model;
// and the papers' claims come out as doc.go reports them.
func TestBrownReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("reduced Brown runs take about 15 s")
	}
	data, err := LoadData(filepath.Join("..", "..", "testdata", "brown"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Model.K = 20
	cfg.Batches = 432
	cfg.Every = 216
	cfg.GibbsSweeps = 20
	ev := NewEvaluator(cfg.Model, data.Test, cfg.Eval, evalSeed)
	uni := ev.UnigramPerplexity(data.Train, cfg.Model.Beta)
	g, err := runGibbs(context.Background(), cfg, data.Train, ev, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	gp := g.Points[len(g.Points)-1].Perplexity
	t.Logf("unigram %.0f, Gibbs after %d sweeps %.0f", uni, cfg.GibbsSweeps, gp)
	if !(gp < 0.85*uni) {
		t.Errorf("collapsed Gibbs %.0f not below 0.85 × unigram %.0f", gp, uni)
	}
	final := map[string]float64{}
	for _, method := range sgMethods {
		pts, _, err := RunOnline(context.Background(), cfg.Online, method, cfg.Settings[method], data.Train, ev, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := pts[len(pts)-1].Perplexity
		final[method] = p
		t.Logf("%-8s %.0f after %d documents", method, p, pts[len(pts)-1].Docs)
		limit := uni
		if method == SGRLD || method == SCIR {
			limit = 0.9 * uni
		}
		if !(p < limit) {
			t.Errorf("%s: perplexity %.0f not below %.0f (the unigram model's %.0f)", method, p, limit, uni)
		}
	}
	// The claims as doc.go reports them: SCIR and SGRLD within a few
	// percent of each other; gSGRHMC behind SGRLD; the best SG method
	// within 10 % of collapsed Gibbs.
	if r := final[SCIR] / final[SGRLD]; math.Abs(r-1) > 0.03 {
		t.Errorf("SCIR %.0f and SGRLD %.0f differ by %.1f %%, doc.go says they are close", final[SCIR], final[SGRLD], 100*(r-1))
	}
	if !(final[GSGRHMC] > final[SGRLD]) {
		t.Errorf("gSGRHMC %.0f not behind SGRLD %.0f, as doc.go says", final[GSGRHMC], final[SGRLD])
	}
	if best := min(final[SCIR], final[SGRLD]); !(best < 1.1*gp) {
		t.Errorf("best SG method %.0f not within 10 %% of collapsed Gibbs %.0f", best, gp)
	}
}

// TestNoAllocs checks that the local Gibbs sampler with the count updates
// of a minibatch, a collapsed Gibbs sweep and an evaluation allocate
// nothing.
func TestNoAllocs(t *testing.T) {
	const k, w = 4, 40
	m := Model{K: k, Alpha: 0.3, Beta: 0.05}
	data, truth := synthetic(k, w, 200, 50, 40, m.Alpha, 2)
	o := newOnlineRunner(Online{Model: m, Batch: 50, Local: Local{Burn: 2, Keep: 2}}, data.Train, rand.New(rand.NewPCG(1, 1)))
	th := initTheta(m, data.Train, 1)
	if a := testing.AllocsPerRun(20, func() { o.setPhi(th); o.shape() }); a != 0 {
		t.Errorf("local Gibbs on a minibatch: %v allocations", a)
	}
	g, err := NewCollapsed(m, data.Train, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(5, g.Sweep); a != 0 {
		t.Errorf("collapsed Gibbs sweep: %v allocations", a)
	}
	ev := NewEvaluator(m, data.Test, Local{Burn: 2, Keep: 2}, 1)
	if a := testing.AllocsPerRun(5, func() { ev.Perplexity(truth) }); a != 0 {
		t.Errorf("evaluation: %v allocations", a)
	}
}

// writeDocword writes c in the UCI bag-of-words format, gzipped.
func writeDocword(t *testing.T, dir, name string, c *Corpus) {
	t.Helper()
	var b strings.Builder
	type key struct{ d, w int }
	counts := map[key]int{}
	var keys []key
	for d := range c.Len() {
		for _, w := range c.Doc(d) {
			k := key{d, int(w)}
			if counts[k] == 0 {
				keys = append(keys, k)
			}
			counts[k]++
		}
	}
	fmt.Fprintf(&b, "%d\n%d\n%d\n", c.Len(), c.W, len(keys))
	for _, k := range keys {
		fmt.Fprintf(&b, "%d %d %d\n", k.d+1, k.w+1, counts[k])
	}
	writeGz(t, dir, name, b.String())
}

// TestRunJSON runs the whole program on a small synthetic corpus written to
// disk and checks the JSON object: every method, every seed, the unigram
// row, and the claims and topics on the notes stream.
func TestRunJSON(t *testing.T) {
	const k, w = 4, 40
	data, _ := synthetic(k, w, 200, 50, 40, 0.3, 5)
	dir := t.TempDir()
	writeDocword(t, dir, "docword.train.txt.gz", data.Train)
	writeDocword(t, dir, "docword.test.txt.gz", data.Test)
	var vocab strings.Builder
	for v := range w {
		fmt.Fprintf(&vocab, "word%d\n", v)
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(vocab.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Model = Model{K: k, Alpha: 0.3, Beta: 0.05}
	cfg.Every = 4
	cfg.Seeds = 2
	cfg.GibbsSweeps = 10
	var out, notes bytes.Buffer
	if err := run(context.Background(), &out, &notes, cfg, dir, 2, true, ""); err != nil {
		t.Fatal(err)
	}
	var obj struct{ Rows []Row }
	if err := json.Unmarshal(out.Bytes(), &obj); err != nil {
		t.Fatalf("stdout is not one JSON object: %v", err)
	}
	seeds := map[string]map[uint64]bool{}
	maxDocs := map[string]int{}
	for _, r := range obj.Rows {
		if seeds[r.Method] == nil {
			seeds[r.Method] = map[uint64]bool{}
		}
		seeds[r.Method][r.Seed] = true
		maxDocs[r.Method] = max(maxDocs[r.Method], r.DocsSeen)
		if math.IsNaN(r.Perplexity) || math.IsInf(r.Perplexity, 0) {
			t.Errorf("row %+v: perplexity not finite", r)
		}
	}
	for _, m := range append(sgMethods, Gibbs) {
		if len(seeds[m]) != 2 {
			t.Errorf("%s: %d seeds, want 2", m, len(seeds[m]))
		}
	}
	for _, m := range sgMethods {
		if maxDocs[m] != 400 {
			t.Errorf("%s: %d documents, want 2 passes = 400 (8 minibatches of 50)", m, maxDocs[m])
		}
	}
	if maxDocs[Gibbs] != 10*200 {
		t.Errorf("Gibbs: docs_seen %d, want 10 sweeps × 200", maxDocs[Gibbs])
	}
	if len(seeds[Unigram]) != 1 || maxDocs[Unigram] != 0 {
		t.Errorf("want one unigram row at docs_seen 0")
	}
	if !strings.Contains(notes.String(), "Claims at 400 documents") || !strings.Contains(notes.String(), "Top ten words") {
		t.Errorf("notes lack the claims or the topics:\n%s", notes.String())
	}
}

// TestGSGRHMCShapeBelowHalf guards the reason the experiment's β is ½:
// gSGRHMC with the Fisher metric G = diag(1/θ), reflected at 0, on
// independent Gamma(â, 1) coordinates (the expanded-mean target given the
// counts) inflates the mean of a coordinate with â < ½ several-fold, at
// any step size (the drift of y = 2√θ, the coordinate in which the metric
// is constant, is (2â − 1)/y: singular at 0 for â < ½), while â = ½ and
// above come out right.
func TestGSGRHMCShapeBelowHalf(t *testing.T) {
	const n = 500 // coordinates of each shape
	steps := 40000
	if testing.Short() {
		steps = 10000
	}
	shapes := []float64{0.1, 0.5, 5}
	ahat := make([]float64, n*len(shapes))
	theta0 := make([]float64, len(ahat))
	for i := range ahat {
		ahat[i] = shapes[i/n]
		theta0[i] = ahat[i]
	}
	for _, h := range []float64{0.01, 0.003} {
		g, err := newGlobal(GSGRHMC, Setting{H: h, C: 1}, false, len(ahat), theta0, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		sum := make([]float64, len(shapes))
		var m int
		for s := range steps {
			if err := g.step(h, ahat); err != nil {
				t.Fatal(err)
			}
			if s >= steps/2 {
				for i, x := range g.theta() {
					sum[i/n] += x
				}
				m++
			}
		}
		for k, a := range shapes {
			mean := sum[k] / float64(m*n)
			t.Logf("h = %g: Gamma(%g) coordinates: mean %.3g (truth %g)", h, a, mean, a)
			switch {
			case a < 0.5 && !(mean > 3*a):
				t.Errorf("h = %g: Gamma(%g) mean %.3g not inflated (> %g), as doc.go says it is", h, a, mean, 3*a)
			case a >= 0.5 && math.Abs(mean-a) > 0.1*a:
				t.Errorf("h = %g: Gamma(%g) mean %.3g, want within 10%% of %g", h, a, mean, a)
			}
		}
	}
}
