// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/cputime"
	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/internal/refmcmc"
)

// dataSeed seeds every simulated data set (logreg.Simulate): the cached
// references are for these data.
const dataSeed = 1

// Prior variances: N(0, 10²) on the simulated data, as stan_logreg.R;
// N(0, 1) on a9a, as the quickstart demo.
const (
	simPriorVar = 100
	a9aPriorVar = 1
)

// Case is one posterior: simulated data of N rows in D dimensions, or a9a.
type Case struct {
	N, D int
	A9A  bool
}

// Name names the case in file names and logs.
func (c Case) Name() string {
	if c.A9A {
		return "a9a"
	}
	return fmt.Sprintf("n%d_d%d", c.N, c.D)
}

// Posterior is a case's model: what sample.Run needs and what the reference
// sampler needs.
type Posterior interface {
	sgmcmc.Model
	refmcmc.Target
}

// Load returns the case's model; dataDir holds a9a (empty: the
// repository's testdata/a9a). For a9a, c.N and c.D are set from the data.
func Load(c *Case, dataDir string) (Posterior, error) {
	if !c.A9A {
		x, _, err := logreg.Simulate(c.N, c.D, dataSeed)
		if err != nil {
			return nil, err
		}
		return logreg.NewDenseModel(x, simPriorVar)
	}
	dir := dataDir
	if dir == "" {
		var err error
		dir, err = datadir.Find("testdata/a9a", func(d string) bool {
			_, err := os.Stat(filepath.Join(d, "a9a"))
			return err == nil
		})
		if err != nil {
			return nil, err
		}
	}
	x, err := logreg.LoadLIBSVM(filepath.Join(dir, "a9a"), 123)
	if err != nil {
		return nil, err
	}
	m, err := logreg.NewModel(x, a9aPriorVar)
	if err != nil {
		return nil, err
	}
	c.N, c.D = m.Len(), m.Dim()
	return m, nil
}

// Reference is a cached reference posterior: the moments of a long run of
// the exact full-batch sampler (internal/refmcmc), with their Monte Carlo
// standard errors, and how they were made.
type Reference struct {
	Data       string    `json:"data"` // "simulated" or "a9a"
	N          int       `json:"n"`
	D          int       `json:"d"`
	DataSeed   uint64    `json:"data_seed"`
	PriorVar   float64   `json:"prior_var"`
	Seed       uint64    `json:"seed"` // the reference sampler's
	Nu         int       `json:"nu"`
	Chains     int       `json:"chains"`
	Draws      int       `json:"draws"` // per chain, after burn-in
	BurnIn     int       `json:"burn_in"`
	Acceptance float64   `json:"acceptance"`
	MinESS     float64   `json:"min_ess_bulk"`
	MaxRHat    float64   `json:"max_rhat"`
	Passes     int       `json:"newton_passes"`
	Seconds    float64   `json:"seconds"`
	CPUSeconds float64   `json:"cpu_s"`
	Mean       []float64 `json:"mean"`
	SD         []float64 `json:"sd"`
	MCSEMean   []float64 `json:"mcse_mean"`
	MCSESD     []float64 `json:"mcse_sd"`
	ESSBulk    []float64 `json:"ess_bulk"`
}

// refChains is the number of chains of a reference run.
const refChains = 4

// refDraws is the number of draws per chain of a cached reference: at the
// pilot runs' acceptance rates (ESS about 0.8 of the draws at d = 20, 0.4
// at d = 100) a smallest bulk ESS of 40,000 or more — ten times that of
// sample.Run's 4,000 draws — at N ≤ 10⁵, d = 20, and on a9a; at N = 10⁶ and
// at d = 100, where a draw costs 40 and 15 ms, fewer, to keep the
// regeneration within the hour on two cores (the ESS reached is in the
// cached file and in doc.go).
func refDraws(c Case) int {
	switch {
	case c.A9A:
		return 25000
	case c.D >= 100:
		return 15000
	case c.N >= 1000000:
		return 10000
	}
	return 15000
}

// ComputeReference runs the reference sampler on m: FindMode, then
// refChains chains of draws each from seed.
func ComputeReference(ctx context.Context, c Case, m Posterior, draws int, seed uint64) (*Reference, *refmcmc.Result, error) {
	start := time.Now()
	cpu0, _ := cputime.Process()
	lap, err := refmcmc.FindMode(m, nil)
	if err != nil {
		return nil, nil, err
	}
	s := &refmcmc.Settings{Chains: refChains, Draws: draws, Seed: seed}
	res, err := refmcmc.Run(ctx, m, lap, s)
	if err != nil {
		return nil, nil, err
	}
	mo, err := refmcmc.NewMoments(res.Chains)
	if err != nil {
		return nil, nil, err
	}
	cpu1, _ := cputime.Process()
	r := &Reference{
		Data: "simulated", N: m.Len(), D: m.Dim(), DataSeed: dataSeed, PriorVar: simPriorVar,
		Seed: seed, Nu: 100, Chains: refChains, Draws: draws, BurnIn: 100,
		Acceptance: res.AcceptRate(), MinESS: mo.MinESS(), MaxRHat: mo.MaxRHat(), Passes: lap.Passes,
		Seconds: time.Since(start).Seconds(), CPUSeconds: (cpu1 - cpu0).Seconds(),
		Mean: mo.Mean, SD: mo.SD, MCSEMean: mo.MCSEMean, MCSESD: mo.MCSESD, ESSBulk: mo.ESSBulk,
	}
	if c.A9A {
		r.Data, r.DataSeed, r.PriorVar = "a9a", 0, a9aPriorVar
	}
	return r, res, nil
}

// refFile is the cached reference's file in dir.
func refFile(dir string, c Case) string { return filepath.Join(dir, "ref_"+c.Name()+".json") }

// refDir returns testdata/scale, made if it does not exist.
func refDir() (string, error) {
	if d, err := datadir.Find("testdata/scale", nil); err == nil {
		return d, nil
	}
	td, err := datadir.Find("testdata", nil)
	if err != nil {
		return "", err
	}
	d := filepath.Join(td, "scale")
	return d, os.MkdirAll(d, 0o755)
}

// ReadReference returns the cached reference of c in dir, or nil and no
// error if there is none.
func ReadReference(dir string, c Case) (*Reference, error) {
	b, err := os.ReadFile(refFile(dir, c))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Reference
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", refFile(dir, c), err)
	}
	if (!c.A9A && (r.N != c.N || r.D != c.D || r.DataSeed != dataSeed)) || len(r.Mean) != r.D || len(r.SD) != r.D {
		return nil, fmt.Errorf("%s: reference of n = %d, d = %d, data seed %d does not fit %s", refFile(dir, c), r.N, r.D, r.DataSeed, c.Name())
	}
	return &r, nil
}

// WriteReference writes r as c's cached reference in dir.
func WriteReference(dir string, c Case, r *Reference) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(refFile(dir, c), append(b, '\n'), 0o644)
}

// Compare returns max_j |mean_j − ref_j| / refSD_j and the signed
// sd_j/refSD_j − 1 of largest magnitude.
func Compare(r *Reference, mean, sd []float64) (meanErr, sdErr float64) {
	for j := range r.Mean {
		meanErr = math.Max(meanErr, math.Abs(mean[j]-r.Mean[j])/r.SD[j])
		if e := sd[j]/r.SD[j] - 1; math.Abs(e) > math.Abs(sdErr) {
			sdErr = e
		}
	}
	return meanErr, sdErr
}
