// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/sgmcmc-go/sgmcmc/internal/larged"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// The sparse logistic regression of issue 24: N = 10⁴ rows with 10
// nonzero N(0, 1) entries each, β ~ N(0, 1), prior N(0, 1); its reference
// is Hamiltonian Monte Carlo, Metropolis-adjusted on the full data, with
// refChains × refDraws draws — ten times the 4 × 1,000 draws of sample.Run's
// default run, whose effective sizes are at most about that — cached in
// testdata/sparse_logreg_<d>.json.
const (
	sparseN    = 10000
	sparseNnz  = 10
	sparseSeed = 11
	refChains  = 4
	refDraws   = 10000
	refWarmup  = 1000
	refLeap    = 16 // leapfrog steps per draw, jittered over [refLeap/2, refLeap]
	refTarget  = 0.8
)

// reference is a cached reference's moments.
type reference struct {
	N, D, Nnz      int
	Seed           uint64
	Chains, Draws  int
	Accept         float64 // mean acceptance rate after warmup
	MinESS         float64 // smallest effective size over the coordinates
	Mean, SD, MCSE []float64
}

// sparseTarget returns the model at dimension d and its reference, from
// the cache in dir or computed (and then cached).
func sparseTarget(d int, dir string) (*logreg.Model, *reference, error) {
	x, _, err := larged.SparseLogReg(sparseN, d, sparseNnz, sparseSeed)
	if err != nil {
		return nil, nil, err
	}
	m, err := logreg.NewModel(x, 1)
	if err != nil {
		return nil, nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("sparse_logreg_%d.json", d))
	if b, err := os.ReadFile(path); err == nil {
		var ref reference
		if err := json.Unmarshal(b, &ref); err == nil && ref.N == sparseN && ref.D == d && ref.Nnz == sparseNnz && ref.Seed == sparseSeed && ref.Chains == refChains && ref.Draws == refDraws {
			return m, &ref, nil
		}
	}
	fmt.Fprintf(os.Stderr, "larged: computing the sparse_logreg reference at d = %d (%d × %d HMC draws; cached in %s)\n", d, refChains, refDraws, path)
	ref := hmcReference(m, x)
	ref.N, ref.D, ref.Nnz, ref.Seed = sparseN, d, sparseNnz, sparseSeed
	if b, err := json.Marshal(ref); err == nil {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = os.WriteFile(path, b, 0o644)
		}
	}
	return m, ref, nil
}

// hmcReference runs refChains chains of HMC with a diagonal mass matrix
// (the posterior precision's diagonal at β = 0, 1 + Σ_i x_ij²/4), its step
// adapted during refWarmup iterations to an acceptance rate of refTarget
// and then frozen, and returns every coordinate's mean, sd and MCSE (by
// 50 batch means per chain, pooled).
func hmcReference(m *logreg.Model, x *logreg.Data) *reference {
	d := m.Dim()
	prec := make([]float64, d)
	for j := range prec {
		prec[j] = 1
	}
	for k, j := range x.Idx {
		prec[j] += x.Val[k] * x.Val[k] / 4
	}
	type out struct {
		mean, m2 []float64
		batches  [][]float64
		acc      float64
	}
	outs := make([]out, refChains)
	var wg sync.WaitGroup
	for c := range refChains {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(sparseSeed, uint64(c)))
			th, p, g := make([]float64, d), make([]float64, d), make([]float64, d)
			th0, g0 := make([]float64, d), make([]float64, d)
			for j := range th {
				th[j] = r.Float64()*2 - 1
			}
			m.LogPosteriorGrad(g, th) // g = ∇log p
			lp := m.LogPosterior(th)
			logEps := math.Log(0.1)
			o := out{mean: make([]float64, d), m2: make([]float64, d)}
			bm := make([]float64, d)
			per := refDraws / 50
			var n int
			var accSum float64
			for it := range refWarmup + refDraws {
				eps := math.Exp(logEps)
				copy(th0, th)
				copy(g0, g)
				var k0 float64
				for j := range p {
					p[j] = r.NormFloat64() * math.Sqrt(prec[j])
					k0 += p[j] * p[j] / prec[j]
				}
				steps := refLeap/2 + r.IntN(refLeap/2+1)
				for range steps {
					for j := range p {
						p[j] += eps / 2 * g[j]
						th[j] += eps * p[j] / prec[j]
					}
					m.LogPosteriorGrad(g, th)
					for j := range p {
						p[j] += eps / 2 * g[j]
					}
				}
				var k1 float64
				for j := range p {
					k1 += p[j] * p[j] / prec[j]
				}
				lp1 := m.LogPosterior(th)
				logA := lp1 - lp - (k1-k0)/2
				a := 0.0
				if !math.IsNaN(logA) {
					a = math.Exp(math.Min(0, logA))
				}
				if r.Float64() < a {
					lp = lp1
				} else {
					copy(th, th0)
					copy(g, g0)
				}
				if it < refWarmup {
					logEps += 0.05 * (a - refTarget)
					continue
				}
				accSum += a
				n++
				for j, v := range th {
					dl := v - o.mean[j]
					o.mean[j] += dl / float64(n)
					o.m2[j] += dl * (v - o.mean[j])
					bm[j] += v / float64(per)
				}
				if n%per == 0 {
					o.batches = append(o.batches, bm)
					bm = make([]float64, d)
				}
			}
			o.acc = accSum / float64(n)
			outs[c] = o
		}()
	}
	wg.Wait()
	ref := &reference{Chains: refChains, Draws: refDraws, Mean: make([]float64, d), SD: make([]float64, d), MCSE: make([]float64, d), MinESS: math.Inf(1)}
	for _, o := range outs {
		ref.Accept += o.acc / refChains
	}
	n := float64(refChains * refDraws)
	for j := range d {
		var mean float64
		for _, o := range outs {
			mean += o.mean[j] / refChains
		}
		var ss, bs float64
		var nb int
		for _, o := range outs {
			dm := o.mean[j] - mean
			ss += o.m2[j] + refDraws*dm*dm
			for _, b := range o.batches {
				bs += (b[j] - mean) * (b[j] - mean)
				nb++
			}
		}
		ref.Mean[j] = mean
		ref.SD[j] = math.Sqrt(ss / (n - 1))
		ref.MCSE[j] = math.Sqrt(bs/float64(nb)) / math.Sqrt(float64(nb))
		ref.MinESS = math.Min(ref.MinESS, math.Pow(ref.SD[j]/ref.MCSE[j], 2))
	}
	return ref
}
