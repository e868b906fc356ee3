// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Scale runs sample.Run, with its defaults, on Bayesian logistic
// regressions of growing size, to show how the cost per effective draw
// behaves as the number of data N grows: with control variates it should
// not grow with N, while plain minibatches and full-batch MCMC cost more
// and more.
//
//	go run ./examples/scale              # the default run, < 10 minutes on 2 cores
//	go run ./examples/scale -json        # {"rows": [...]}, one object per row
//	go run ./examples/scale -full -huge  # also N = 10⁷ and the comparisons at 10⁶, 10⁷
//
// # Data and models
//
// Simulated: x_ij ~ N(0, 1) dense, y_i ~ Bernoulli(σ(x_iᵀβ*)), the true
// coefficients β*_j = 1.5·z_j/√d with z_j ~ N(0, 1), so that x_iᵀβ* has an
// sd of about 1.5; the prior is β ~ N(0, 10² I), with no intercept, as in
// ../shared/bench/stan_logreg.R. Everything follows from a fixed data seed
// (dataSeed = 1, logreg.Simulate), and the data of a smaller N are the
// first rows of a larger one's. The data are stored as float64: 160 MB at
// N = 10⁶, d = 20, 1.6 GB at 10⁷. The cases are d = 20 at N = 10⁴, 10⁵,
// 10⁶ (and 10⁷ with -huge), d = 100 at N = 10⁵, and a9a (32,561 rows, 123
// binary features and an intercept, prior N(0, I) as in the quickstart
// demo). The model is internal/logreg's DenseModel (sparse Model for a9a),
// whose minibatch gradient runs on every core with the same bits for any
// GOMAXPROCS.
//
// # Rows
//
// Sample: sample.Run with the defaults (SGHMC, 4 chains × 1,000 draws,
// seed -seed) from β = 0. Sample-noCV: the same with PlainMinibatch, plain
// minibatch gradients, at N = 10⁴ and 10⁵ (and 10⁶ with -full), with 250
// draws per chain unless -draws is given (its cost per effective draw is a
// rate, and 4×1,000 draws at N = 10⁵ would take most of the time budget). reference:
// the exact full-batch sampler (below), 4 chains × 1,000 draws, at the same
// N. Each row has
//
//	n, d, data, method
//	draws           draws per chain
//	batch           largest minibatch size of the chains (N for reference)
//	setup_passes    largest number of full-data passes a chain's own warmup made
//	                for its control-variate centre, beyond the run's shared search
//	                (0 when every chain took the shared centre as it was; Newton
//	                passes for reference)
//	grad_evals      per-datum gradient evaluations, warmup included, setup passes
//	                excluded; for reference N per full-data log-density evaluation
//	                (one datum's log density counts as one evaluation)
//	min_ess_bulk    smallest bulk ESS over the coefficients
//	evals_per_ess   grad_evals / min_ess_bulk
//	cpu_s, seconds  process CPU seconds and wall seconds of the row
//	max_mean_err_sd max_j |mean_j − ref_j| / refsd_j against the cached reference
//	max_sd_rel_err  the signed sd_j/refsd_j − 1 of largest magnitude
//	max_rhat        largest R̂
//	warnings        Sample's warnings ([] when none)
//	acceptance      the reference sampler's acceptance rate (null for Sample)
//
// The accuracy fields are null where there is no reference (N = 10⁷
// unless one has been cached with -reference -huge).
//
// # The reference
//
// internal/refmcmc: an independence Metropolis–Hastings sampler whose
// proposal is a multivariate Student-t with ν = 100 degrees of freedom,
// centred at the posterior mode (full-data Newton with the exact Hessian)
// with the Laplace covariance. The proposal's tails are heavier than the
// posterior's, so the chain is uniformly ergodic, and the Metropolis–
// Hastings correction makes it exact; each draw costs one full-data
// log-density evaluation. The references are cached in testdata/scale as
// JSON (data, n, d, data seed, prior, sampler seed, ν, chains, draws,
// acceptance, smallest bulk ESS, largest R̂, Newton passes, time, and per
// coefficient the mean, sd, their MCSEs and bulk ESS) and are always used
// when present; -reference recomputes them (about an hour on two cores).
// A missing reference is computed on the fly, except at N = 10⁷.
//
// Cached references (4 chains, seed 1, ν = 100; CPU seconds on a shared
// 2-core machine, one core per regeneration). The reference should have ten
// times sample.Run's effective draws (≥ 40,000); the N = 10⁶, the d = 100 and the a9a
// ones were cut with -refdraws to fit the machine's time and fall short:
// their MCSE is still at most 0.02 sd, a fifth of the 0.1 sd goal, and
// `-reference` without -refdraws makes the full-length ones.
//
//	case            draws      acceptance  min bulk ESS  CPU s
//	N=10⁴  d=20     4×15,000   0.908       47,097         27
//	N=10⁵  d=20     4×15,000   0.937       51,319        269
//	N=10⁶  d=20     4×5,000    0.942       16,961        928
//	N=10⁵  d=100    4×5,000    0.751        9,879        287
//	a9a (d=124)     4×20,000   0.464        9,345        224
//
// # Flags
//
//	-json          print {"rows": [...]} instead of the table
//	-full          add Sample-noCV and reference rows at N = 10⁶ (and 10⁷ with -huge)
//	-huge          add N = 10⁷ at d = 20 (1.6 GB of data)
//	-reference     regenerate the cached references and exit
//	-stan DIR      write the simulated data of -n rows and -d columns as
//	               DIR/X.bin and DIR/y.bin (float64 little-endian, X row-major:
//	               ../shared/bench/stan_logreg.R's input) and exit
//	-cases LIST    run only these cases (n10000_d20, …, a9a)
//	-draws K       draws per chain of every row (0: 1,000)
//	-seed S        seed of sample.Run and the reference sampler (the data's is fixed)
//	-plot FILE     the figure (default scale.png in this directory)
//	-data DIR      the directory holding a9a (default testdata/a9a); with -stream
//	               the directory of its data files (default sgmcmc-scale in the
//	               system's temporary directory), written on first use and reused
//	-stream        data from disk: the rows below, each in a child process
//	-stream-cases  storage:N,… or sparse:1e7 instead of memory:1e7,
//	               binary:1e7, binary:1e8, parquet:1e8, sparse:1e7
//	-sparse-ref    write the sparse row's data and run its reference, split
//	               HMC (-sparse-ref-draws a chain, default 400; about 40
//	               minutes), kept in testdata only if it converges
//	-stan-bench    rstan's NUTS and Sample on the same data at N = 10⁴ and 10⁵
//	               (-stan-script, default ../shared/bench/stan_logreg.R): the
//	               table of doc/benchmarks.md against Stan, 15–20 minutes
//
// # Data on disk: -stream
//
// go run ./examples/scale -json -stream runs sample.Run on the d = 20
// logistic regression read from a dataset file: the rows of logreg.Simulate
// for the data seed (features as float32, then the label), written once to
// -data by WriteStreamData (chunks drawn in parallel, written in order:
// bounded memory, 52 s for 10⁸ rows). "memory" loads the file into a
// logreg.DenseModel (today's in-memory path, float64); "binary" is the
// dataset.File through dataset.NewModel, read into memory once when it fits
// dataset.DefaultBudget (1 GiB: N = 10⁷ is 840 MB) and otherwise read from
// disk, random rows one positioned read each, a full pass's parts in one
// read each. Each row runs in a child process (-stream-row), whose peak
// resident memory its parent reads from getrusage. The reference is the
// Laplace approximation at the full-data mode, by Newton passes over the
// file, cached beside it (StreamReference says why it is exact enough).
// Row keys: n, d, method, model, storage, setup_passes (the largest of a
// chain's own), setup_passes_total (the run's, the shared search's
// included), setup_seconds, bytes_read, read_mb_per_s, seconds and cpu_s (the
// Sample call), peak_rss_mb, batch, min_ess_bulk and max_rhat (over the
// kept_coords coordinates the summary covers: all of them),
// max_mean_err_sd and max_sd_rel_err (every coordinate), warnings.
//
// The sparse row (-stream-cases sparse:1e7, model "sparse") is a logistic
// regression on 10⁴ hashed features ±1, 20 a row, N = 10⁷ (sparse.go,
// doc/data.md), read through logreg.SignedRows from a float32 file of 840
// MB. Against its committed exact reference (testdata/scale/
// sparse_ref.json.gz, split HMC on the full data, checked against the data
// file's checksum) it is judged as examples/larged judges its d = 10⁴
// rows: max_abs_z_mean, frac_abs_z_over_3, median_sd_rel_err and
// p99_sd_rel_err (larged.Score); without it, its "reference" key says why
// it is not judged.
//
// # Figure
//
// scale.png: cost per effective draw against N on log–log axes for d = 20,
// per-datum gradient evaluations (left) and CPU milliseconds (right), one
// line each for Sample, Sample-noCV and the reference sampler.
//
// # Results
//
// The default run, 2026-11-27, 5 min 20 s wall on 2 cores shared with a
// Stan run (CPU ms per effective draw is process CPU time, setup passes
// included):
//
//	N, d        method        batch   setup  evals/ESS  CPU ms/ESS  mean err  sd err  R̂
//	10⁴, 20     Sample          100     5      2,909      0.45      0.045    +4.2 %  1.001
//	10⁴, 20     Sample-noCV   8,000     0     90,218     10         0.075    +5.1 %  1.006
//	10⁴, 20     reference    10,000    19     15,433      0.70      0.042    −2.7 %  1.005
//	10⁵, 20     Sample          100     7      3,112      0.85      0.038    +4.6 %  1.002
//	10⁵, 20     Sample-noCV  80,000     0    807,748    313         0.077    +5.0 %  1.006
//	10⁵, 20     reference   100,000    19    155,011      9.1       0.024    −2.5 %  1.002
//	10⁶, 20     Sample          200    10      3,381      2.1       0.040    +3.8 %  1.002
//	10⁵, 100    Sample          800     7     25,557     16         0.045    +5.5 %  1.002
//	a9a         Sample       26,048    12    464,283     33         0.058    +3.7 %  1.004
//
// With control variates the batch and the evaluations per effective draw
// stay flat in N (1.16× from 10⁴ to 10⁶); without them they grow as N.
// The CPU time still grows, through the setup passes, which are most of it
// at 10⁶. On a9a sample.Run keeps plain minibatches: its posterior is not
// concentrated enough for a control variate to pay its double cost.
package main
