// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
	"github.com/sgmcmc-go/sgmcmc/rng"
	"github.com/sgmcmc-go/sgmcmc/sample"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// Config is what one process runs.
type Config struct {
	// Method is "sample" (sample.Run, every setting adapted) or
	// "sghmc" (hand-tuned SGHMC, a chain of sgmcmc.RunChains).
	Method string
	// Chains is K, Chain the index k ∈ [0, K) of the chain to run.
	Chains, Chain int
	// Seed is the analysis' master seed: chain k draws from
	// rng.ChainSource(Seed, k).
	Seed uint64
	// Draws is the number of draws kept per chain.
	Draws int
}

// The data and the model are fixed: every process builds the same.
const (
	dataN    = 2000
	dataSeed = 20260501
	priorVar = 25.0 // N(0, 5²) prior on every coefficient
)

// names are the parameters' names: the intercept and two slopes.
var names = []string{"alpha", "beta.1", "beta.2"}

// logreg is Bayesian logistic regression, P(y_i = 1) = logit⁻¹(x_iᵀθ) with
// x_i = (1, z_i1, z_i2), on synthetic data with θ = (−0.5, 1, −2).
type logreg struct {
	x [][3]float64
	y []float64
}

// newModel draws the data from its fixed seed.
func newModel() *logreg {
	r := rand.New(rand.NewPCG(dataSeed, 1))
	m := &logreg{x: make([][3]float64, dataN), y: make([]float64, dataN)}
	truth := [3]float64{-0.5, 1, -2}
	for i := range m.x {
		m.x[i] = [3]float64{1, r.NormFloat64(), r.NormFloat64()}
		if r.Float64() < logistic(dot(m.x[i], truth[:])) {
			m.y[i] = 1
		}
	}
	return m
}

func (m *logreg) Dim() int { return 3 }
func (m *logreg) Len() int { return len(m.y) }

func (m *logreg) LogPriorGrad(dst, th []float64) {
	for j, v := range th {
		dst[j] -= v / priorVar
	}
}

func (m *logreg) LogLikGrad(dst, th []float64, i int, scale float64) {
	r := scale * (m.y[i] - logistic(dot(m.x[i], th)))
	for j, v := range m.x[i] {
		dst[j] += r * v
	}
}

func (m *logreg) LogPrior(th []float64) float64 {
	var s float64
	for _, v := range th {
		s -= v * v / (2 * priorVar)
	}
	return s
}

// LogLik is y log p + (1 − y) log(1 − p) = y·t − log(1 + eᵗ).
func (m *logreg) LogLik(th []float64, i int) float64 {
	t := dot(m.x[i], th)
	sp := math.Log1p(math.Exp(-math.Abs(t))) + math.Max(t, 0)
	return m.y[i]*t - sp
}

func dot(x [3]float64, th []float64) float64 { return x[0]*th[0] + x[1]*th[1] + x[2]*th[2] }

func logistic(t float64) float64 { return 1 / (1 + math.Exp(-t)) }

// SGHMC's hand-tuned settings: minibatches of 500, ε = 0.002, C = 10,
// no noise correction. Its sds come out about 10 % wider than the
// posterior's (sample.Run's adapted run matches them): gradient noise heats
// the chain. The point here is the bookkeeping of chains, not accuracy.
const (
	sghmcBatch    = 500
	sghmcEps      = 0.002
	sghmcFriction = 10
	sghmcBurnIn   = 2000
	sghmcThin     = 20
)

// newSGHMC is the newSampler of sgmcmc.RunChains for the "sghmc" method:
// chain c's minibatch indices and noise both come from src.
func newSGHMC(m sgmcmc.Model) func(c int, src rand.Source) (sgmcmc.Sampler, error) {
	return func(c int, src rand.Source) (sgmcmc.Sampler, error) {
		mb, err := sgmcmc.NewMinibatch(m, sghmcBatch, false, rand.NewPCG(src.Uint64(), src.Uint64()))
		if err != nil {
			return nil, err
		}
		return sgmcmc.NewSGHMC(mb, make([]float64, m.Dim()), src, &sgmcmc.SGHMCSettings{Friction: sghmcFriction})
	}
}

// sghmcOptions are the run options of every "sghmc" chain.
func sghmcOptions(draws int) sgmcmc.RunOptions {
	return sgmcmc.RunOptions{Draws: draws, BurnIn: sghmcBurnIn, Thin: sghmcThin, Schedule: sgmcmc.Constant(sghmcEps)}
}

// sampleSettings are sample.Run's settings for the whole analysis; ids, if not
// nil, selects the chains this process runs.
func sampleSettings(c Config, ids []int) *sample.Settings {
	return &sample.Settings{Chains: c.Chains, Draws: c.Draws, Seed: c.Seed, ChainIDs: ids}
}

// check validates a Config for running chains.
func (c Config) check() error {
	if c.Method != "sample" && c.Method != "sghmc" {
		return fmt.Errorf("method %q: want sample or sghmc", c.Method)
	}
	if c.Chains < 1 || c.Draws < 1 {
		return fmt.Errorf("chains = %d, draws = %d: want both ≥ 1", c.Chains, c.Draws)
	}
	return nil
}

// RunChain runs chain c.Chain of c.Chains, alone, and returns it as a CSV
// chain (with comments saying which chain of which analysis it is, and
// lp__) and any warnings of sample.Run about it.
func RunChain(ctx context.Context, c Config, m *logreg) (*stancsv.Chain, []string, error) {
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	if c.Chain < 0 || c.Chain >= c.Chains {
		return nil, nil, fmt.Errorf("chain %d of %d: want an index in [0, %d)", c.Chain, c.Chains, c.Chains)
	}
	if c.Method == "sghmc" {
		// What RunChains would run as chain k: Run of newSampler(k,
		// ChainSource(seed, k)).
		s, err := newSGHMC(m)(c.Chain, rng.ChainSource(c.Seed, c.Chain))
		if err != nil {
			return nil, nil, err
		}
		ch, err := sgmcmc.Run(ctx, s, sghmcOptions(c.Draws))
		if err != nil {
			return nil, nil, err
		}
		out, err := csvChain(c, c.Chain, ch, nil, m)
		return out, nil, err
	}
	res, err := sample.Run(ctx, sample.Problem{Model: m, Names: names}, make([]float64, m.Dim()), sampleSettings(c, []int{c.Chain}), nil)
	if err != nil {
		return nil, nil, err
	}
	out, err := csvChain(c, c.Chain, res.Chains[0], &res.Adapted[0], m)
	return out, res.Warnings.Messages(), err
}

// RunAll runs every chain in this process (sample.Run of all K chains,
// or sgmcmc.RunChains), the single-process reference, and returns them as
// CSV chains in chain order with the run's own summary table.
func RunAll(ctx context.Context, c Config, m *logreg) ([]*stancsv.Chain, diagnostics.Table, error) {
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	var chains []*sgmcmc.Chain
	var adapted []sample.Adapted
	var table diagnostics.Table
	if c.Method == "sghmc" {
		var err error
		chains, err = sgmcmc.RunChains(ctx, c.Chains, c.Seed, newSGHMC(m), sghmcOptions(c.Draws))
		if err != nil {
			return nil, nil, err
		}
		if table, err = diagnostics.NewTable(names, chains); err != nil {
			return nil, nil, err
		}
	} else {
		res, err := sample.Run(ctx, sample.Problem{Model: m, Names: names}, make([]float64, m.Dim()), sampleSettings(c, nil), nil)
		if err != nil {
			return nil, nil, err
		}
		chains, adapted = res.Chains, res.Adapted
		for _, p := range res.Summary {
			table = append(table, diagnostics.Row{Name: p.Name, Summary: p.Summary})
		}
	}
	out := make([]*stancsv.Chain, len(chains))
	for k, ch := range chains {
		var a *sample.Adapted
		if adapted != nil {
			a = &adapted[k]
		}
		var err error
		if out[k], err = csvChain(c, k, ch, a, m); err != nil {
			return nil, nil, err
		}
	}
	return out, table, nil
}

// csvChain is chain k as a CSV chain: its settings as comments, lp__ from
// the model's exact log posterior, step sizes and divergences.
func csvChain(c Config, k int, ch *sgmcmc.Chain, a *sample.Adapted, m *logreg) (*stancsv.Chain, error) {
	cm := []stancsv.Comment{
		{Key: "method", Value: c.Method},
		{Key: "seed", Value: strconv.FormatUint(c.Seed, 10)},
		{Key: "chains", Value: strconv.Itoa(c.Chains)},
		{Key: "chain", Value: strconv.Itoa(k)},
		{Key: "draws", Value: strconv.Itoa(c.Draws)},
		{Key: "data", Value: fmt.Sprintf("synthetic logistic regression, N = %d, seed %d", dataN, dataSeed)},
	}
	if a != nil {
		cm = append(cm,
			stancsv.Comment{Key: "sampler", Value: a.Method.Name()},
			stancsv.Comment{Key: "step_size", Value: fmtFloat(a.Eps) + " (whitened)"},
			stancsv.Comment{Key: "friction", Value: fmtFloat(a.Friction)},
			stancsv.Comment{Key: "batch_size", Value: strconv.Itoa(a.BatchSize)},
			stancsv.Comment{Key: "thin", Value: strconv.Itoa(a.Thin)},
			stancsv.Comment{Key: "burn_in", Value: strconv.Itoa(a.BurnIn)},
		)
	} else {
		cm = append(cm,
			stancsv.Comment{Key: "sampler", Value: "SGHMC"},
			stancsv.Comment{Key: "step_size", Value: fmtFloat(sghmcEps)},
			stancsv.Comment{Key: "friction", Value: fmtFloat(sghmcFriction)},
			stancsv.Comment{Key: "batch_size", Value: strconv.Itoa(sghmcBatch)},
			stancsv.Comment{Key: "thin", Value: strconv.Itoa(sghmcThin)},
			stancsv.Comment{Key: "burn_in", Value: strconv.Itoa(sghmcBurnIn)},
		)
	}
	lp := make([]float64, ch.Len())
	for i := range lp {
		lp[i] = -fullpass.Potential(m, ch.At(i))
	}
	return &stancsv.Chain{Comments: cm, Names: names, Draws: ch.Draws[:ch.Len()*ch.Dim], LogDensity: lp, StepSize: ch.Eps, Divergent: ch.Divergent}, nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// chainFile is the file of chain k in dir.
func chainFile(dir string, k int) string { return filepath.Join(dir, fmt.Sprintf("chain-%d.csv", k)) }

// ChainIndex returns the chain this process runs: the flag's value if it
// is set (≥ 0), else the index a batch scheduler puts in the environment —
// JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, or SLURM_ARRAY_TASK_ID
// of a Slurm job array — and where it came from.
func ChainIndex(flagValue int, getenv func(string) string) (int, string, error) {
	if flagValue >= 0 {
		return flagValue, "-chain", nil
	}
	for _, env := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
		v := getenv(env)
		if v == "" {
			continue
		}
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || k < 0 {
			return 0, env, fmt.Errorf("%s = %q is not a chain index (a non-negative integer)", env, v)
		}
		return k, env, nil
	}
	return 0, "", errors.New("no chain index: pass -chain k, or run under a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX); -all runs every chain here, -merge merges their files")
}

// Merge reads the CSV files of the K chains of one analysis, in any order,
// checks that they are one analysis (same method, seed, chains and draws;
// every chain 0 … K−1 exactly once), and returns the chains in chain order
// with their summary table across chains.
func Merge(files []string) ([]*stancsv.Chain, diagnostics.Table, error) {
	if len(files) == 0 {
		return nil, nil, errors.New("merge: no chain files")
	}
	chains, err := stancsv.ReadFiles(files...)
	if err != nil {
		return nil, nil, err
	}
	type tagged struct {
		k    int
		file string
		ch   *stancsv.Chain
	}
	var ts []tagged
	var first map[string]string
	for i, ch := range chains {
		got := make(map[string]string)
		for _, key := range []string{"method", "seed", "chains", "chain", "draws"} {
			v, ok := ch.Lookup(key)
			if !ok {
				return nil, nil, fmt.Errorf("merge: %s: no %q comment; not a file of this program", files[i], key)
			}
			got[key] = v
		}
		if first == nil {
			first = got
		}
		for _, key := range []string{"method", "seed", "chains", "draws"} {
			if got[key] != first[key] {
				return nil, nil, fmt.Errorf("merge: %s has %s = %s, %s has %s: not one analysis", files[i], key, got[key], files[0], first[key])
			}
		}
		k, err := strconv.Atoi(got["chain"])
		if err != nil {
			return nil, nil, fmt.Errorf("merge: %s: chain = %q", files[i], got["chain"])
		}
		ts = append(ts, tagged{k, files[i], ch})
	}
	K, err := strconv.Atoi(first["chains"])
	if err != nil || K < 1 {
		return nil, nil, fmt.Errorf("merge: %s: chains = %q", files[0], first["chains"])
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].k < ts[j].k })
	seen := make(map[int]string)
	for _, t := range ts {
		if t.k < 0 || t.k >= K {
			return nil, nil, fmt.Errorf("merge: %s is chain %d, want in [0, %d)", t.file, t.k, K)
		}
		if f, dup := seen[t.k]; dup {
			return nil, nil, fmt.Errorf("merge: %s and %s are both chain %d", f, t.file, t.k)
		}
		seen[t.k] = t.file
	}
	var missing []int
	for k := range K {
		if _, ok := seen[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("merge: chains %v of %d are missing (have %d files); a process may have failed or not finished", missing, K, len(ts))
	}
	out := make([]*stancsv.Chain, K)
	for i, t := range ts {
		out[i] = t.ch
	}
	table, err := diagnostics.NewTable(out[0].Names, out)
	if err != nil {
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	return out, table, nil
}

// chainFiles lists dir's chain-*.csv files.
func chainFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "chain-*.csv"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("merge: no chain-*.csv files in %s", dir)
	}
	slices.Sort(files)
	return files, nil
}

// writeChain writes ch as dir/chain-k.csv, atomically (a temporary file
// renamed), so that a merge never sees half a file.
func writeChain(dir string, k int, ch *stancsv.Chain) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := chainFile(dir, k)
	tmp := name + ".tmp"
	if err := stancsv.WriteFile(tmp, ch); err != nil {
		return "", err
	}
	return name, os.Rename(tmp, name)
}
