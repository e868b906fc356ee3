// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/internal/refmcmc"
)

// The sparse row of -stream (-stream-cases sparse:1e7): a logistic
// regression on hashed features (the hashing trick with a sign hash, the
// common case of text and click data at this size), d = 10⁴ features, k =
// 20 nonzeros ±1 a row at distinct uniform columns, N = 10⁷ rows, β*_j ~
// N(0, 1.5²/k), prior N(0, 1) (logreg.SimulateSignedChunk, seed
// sparseSeed), stored as a float32 dataset file in logreg.SignedRows'
// layout (21 values, 84 bytes a row: 840 MB, inside
// dataset.DefaultBudget). It is judged against an exact reference
// committed in testdata/scale (ComputeSparseReference), checked against
// the data file's checksum.
const (
	sparseN    = 10_000_000
	sparseD    = 10_000
	sparseK    = 20
	sparseSeed = 3
)

// sparseFile returns the path of the sparse data file in dir.
func sparseFile(dir string) string {
	return filepath.Join(dir, fmt.Sprintf("signed_n%d_d%d_k%d.bin", sparseN, sparseD, sparseK))
}

// sparseRefName is the committed reference of the sparse row, in
// testdata/scale.
const sparseRefName = "sparse_ref.json.gz"

// sparseRefFile returns the path of the committed reference.
func sparseRefFile() (string, error) {
	dir, err := refDir()
	return filepath.Join(dir, sparseRefName), err
}

// SparseReference is the sparse row's reference: every coefficient's
// posterior mean and sd with their Monte Carlo standard errors, from
// Chains × Draws draws of an exact sampler, for the data whose file
// checksum is Checksum.
type SparseReference struct {
	N, D, K          int
	Seed             uint64
	Checksum         uint64
	Chains, Draws    int
	AcceptRate       float64
	MinESS, MaxRHat  float64
	Seconds          float64
	Mean, SD         []float64
	MCSEMean, MCSESD []float64
}

// WriteSparseData writes the sparse row's data file at path unless a file
// of its rows is there.
func WriteSparseData(path string, log interface{ Write([]byte) (int, error) }) error {
	names := make([]string, sparseK+1)
	for q := range sparseK {
		names[q] = fmt.Sprintf("code%d", q+1)
	}
	names[sparseK] = "y"
	beta := logreg.SimulateSignedBeta(sparseD, sparseK, sparseSeed)
	return writeChunks(path, names, sparseN, func(rows []float64, c int) error {
		return logreg.SimulateSignedChunk(rows, beta, sparseK, c, sparseSeed)
	}, log)
}

// ReadSparseReference reads the committed reference and checks that it is
// the reference of the data file at path.
func ReadSparseReference(path string) (*SparseReference, error) {
	r, name, err := readSparseRef()
	if err != nil {
		return nil, err
	}
	df, err := dataset.Open(path, false)
	if err != nil {
		return nil, err
	}
	defer df.Close()
	if r.N != sparseN || r.D != sparseD || r.K != sparseK || r.Seed != sparseSeed || r.Checksum != df.Checksum() || len(r.Mean) != sparseD {
		return nil, fmt.Errorf("scale: %s is the reference of other data (N %d, d %d, k %d, seed %d, checksum %x; the file %s has checksum %x): regenerate it with -sparse-ref",
			name, r.N, r.D, r.K, r.Seed, r.Checksum, path, df.Checksum())
	}
	return r, nil
}

// readSparseRef decodes the committed reference and returns it and its
// file's name.
func readSparseRef() (*SparseReference, string, error) {
	name, err := sparseRefFile()
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, name, fmt.Errorf("scale: the sparse row's reference: %w (none is committed yet: doc/data.md says why)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, name, fmt.Errorf("scale: %s: %w", name, err)
	}
	var r SparseReference
	if err := json.NewDecoder(zr).Decode(&r); err != nil {
		return nil, name, fmt.Errorf("scale: %s: %w", name, err)
	}
	return &r, name, nil
}

// sparseSampler is the sparse row's reference sampler: HMC split around
// the Laplace approximation, two steps of 0.85 rad a trajectory (1.7 rad:
// past a quarter turn, so that successive draws of the Gaussian part are
// slightly anticorrelated). The independence sampler (refmcmc.Run with a
// Gaussian proposal) accepted 17 % here and stuck; one step of 1.6 rad
// accepted 60 % (doc/data.md).
var sparseSampler = refmcmc.SplitHMC{Eps: 0.85, Steps: 2}

// sparseRefSeed seeds the reference chains' streams, PCG(sparseRefSeed,
// c). It must not be sparseSeed: the data's β* are the normals of the
// stream PCG(sparseSeed, 0), and a chain started from mode + U⁻¹z with
// those normals as z starts along β* itself, the one direction in which a
// logistic regression's departures from Gaussian add up over all d
// coordinates (the third derivative along θ ∝ β* sums x_iᵀβ* cubed over
// every row): 150 nats below the typical residual, from which every split
// HMC proposal was refused (measured; the chain never moved).
const sparseRefSeed = 4

// sparseRefMaxRHat is the largest R̂ a written reference may have over
// its 10⁴ coordinates. Not 1.01: that is a bound for one coordinate, and
// the largest of 10⁴ split-R̂s of converged chains sits near it by noise
// alone — with 8 half-chains of effective size n, R̂² − 1 ≈ (F − 1)/n, F
// a χ²₇/7, whose 1 − 10⁻⁴ quantile 4.3 gives R̂ ≈ 1.010 at n = 170 (an
// ESS of 1,400). A chain that has not converged gives far more (a stuck
// chain made 1.54); the reference's precision is held by its ESS.
const sparseRefMaxRHat = 1.02

// sparseBurnIn is the draws a reference chain discards: it starts from a
// draw of the Laplace approximation, close to the posterior.
const sparseBurnIn = 20

// ComputeSparseReference runs the exact reference of the sparse row on the
// data file at path and writes it to testdata if it has converged (R̂ ≤
// sparseRefMaxRHat, bulk ESS ≥ 1,000 in every coordinate; beside the data
// file if not): the rows into memory as signed codes (signedTarget:
// full-data log density and gradient in one read, and the Hessian), the
// mode and Hessian by Newton's method (from the mode a previous run saved
// beside the data, when there is one), then 4 chains of sparseSampler after sparseBurnIn draws: exact whatever the
// Laplace approximation's error, which sets only the acceptance rate.
func ComputeSparseReference(ctx context.Context, path string, draws int, log interface{ Write([]byte) (int, error) }) (*SparseReference, error) {
	start := time.Now()
	f, err := dataset.Open(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := newSignedTarget(sparseD, sparseK, 1)
	if err := f.Pass(1<<16, func(_ int, v []float64) error { return m.add(v) }); err != nil {
		return nil, err
	}
	modeFile := path + ".mode.json"
	lap, err := refmcmc.FindMode(m, readMode(modeFile, f.Checksum()))
	if err != nil {
		return nil, err
	}
	if err := writeMode(modeFile, f.Checksum(), lap.Mode); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "scale: sparse reference: mode in %d passes, %.0f s\n", lap.Passes, time.Since(start).Seconds())
	fmt.Fprintf(log, "scale: sparse reference: %d chains × %d draws of split HMC\n", 4, draws)
	res, err := sparseSampler.Run(ctx, m, lap, 4, sparseBurnIn, draws, sparseRefSeed)
	if err != nil {
		return nil, err
	}
	mo, err := refmcmc.NewMoments(res.Chains)
	if err != nil {
		return nil, err
	}
	logWorst(log, mo, res.Chains, lap, m)
	r := &SparseReference{N: sparseN, D: sparseD, K: sparseK, Seed: sparseSeed, Checksum: f.Checksum(),
		Chains: len(res.Chains), Draws: draws, AcceptRate: res.AcceptRate(), MinESS: mo.MinESS(), MaxRHat: mo.MaxRHat(),
		Seconds: time.Since(start).Seconds(), Mean: mo.Mean, SD: mo.SD, MCSEMean: mo.MCSEMean, MCSESD: mo.MCSESD}
	for j := range r.Mean {
		if math.IsNaN(r.Mean[j]) || math.IsNaN(r.SD[j]) {
			return nil, fmt.Errorf("scale: sparse reference: coordinate %d is NaN", j)
		}
	}
	fmt.Fprintf(log, "scale: sparse reference: acceptance %.3f, min ESS %.0f, max R̂ %.4f, %.0f s\n", r.AcceptRate, r.MinESS, r.MaxRHat, r.Seconds)
	converged := r.MaxRHat <= sparseRefMaxRHat && r.MinESS >= 1000
	name := path + ".ref.json.gz" // beside the data unless it converged
	if converged {
		if name, err = sparseRefFile(); err != nil {
			return nil, err
		}
	}
	out, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	zw := gzip.NewWriter(out)
	if err := json.NewEncoder(zw).Encode(r); err != nil {
		out.Close()
		return nil, err
	}
	if err := zw.Close(); err != nil {
		out.Close()
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	if !converged {
		// A reference that has not converged judges nothing: it is kept
		// beside the data for a look, not in testdata.
		return nil, fmt.Errorf("scale: sparse reference: not converged (R̂ %.3f, least ESS %.0f, acceptance %.3f); written to %s, not to testdata", r.MaxRHat, r.MinESS, r.AcceptRate, name)
	}
	return r, nil
}

// savedMode is the sparse posterior's mode kept beside the data file, so
// that a second reference run's Newton's method starts there.
type savedMode struct {
	Checksum uint64
	Mode     []float64
}

// readMode returns the mode saved in name for the data of checksum sum,
// or nil.
func readMode(name string, sum uint64) []float64 {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var s savedMode
	if json.Unmarshal(b, &s) != nil || s.Checksum != sum || len(s.Mode) != sparseD {
		return nil
	}
	return s.Mode
}

// writeMode saves the mode of the data of checksum sum in name.
func writeMode(name string, sum uint64, mode []float64) error {
	b, err := json.Marshal(savedMode{Checksum: sum, Mode: mode})
	if err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o644)
}

// logWorst writes to log the five coordinates of least bulk ESS: their
// ESS and R̂, pooled mean and sd, each chain's mean and sd, the mode, the
// conditional sd 1/√H_jj of the Laplace approximation, and the rows that
// hold the feature.
func logWorst(log interface{ Write([]byte) (int, error) }, mo *refmcmc.Moments, chains [][][]float64, lap *refmcmc.Laplace, t *signedTarget) {
	idx := make([]int, len(mo.ESSBulk))
	for j := range idx {
		idx[j] = j
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(mo.ESSBulk[a], mo.ESSBulk[b]) })
	count := make([]int, t.d)
	for _, c := range t.codes {
		if c != 0 {
			count[max(c, -c)-1]++
		}
	}
	for _, j := range idx[:min(5, len(idx))] {
		fmt.Fprintf(log, "scale: sparse reference: β%d: ESS %.0f, R̂ %.3f, mean %.4f, sd %.4f, mode %.4f, 1/√H_jj %.4f, %d rows; chains:",
			j, mo.ESSBulk[j], mo.RHat[j], mo.Mean[j], mo.SD[j], lap.Mode[j], 1/math.Sqrt(lap.Hessian.At(j, j)), count[j])
		for _, ch := range chains {
			var s, ss float64
			for _, th := range ch {
				s += th[j]
				ss += th[j] * th[j]
			}
			n := float64(len(ch))
			fmt.Fprintf(log, " %.4f±%.4f", s/n, math.Sqrt(max(0, ss/n-(s/n)*(s/n))))
		}
		fmt.Fprintln(log)
	}
}
