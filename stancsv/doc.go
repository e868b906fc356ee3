// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package stancsv writes chains of draws as CmdStan-style CSV files and
// reads them back, so that R's posterior, bayesplot and rstan
// (read_stan_csv), Python's cmdstanpy and ArviZ (from_cmdstan), and this
// library's own diagnostics can analyse one run.
//
// A file holds one chain:
//
//	# sampler = SGHMC
//	# seed = 1
//	# step_size = 0.001
//	lp__,stepsize__,divergent__,beta.1,beta.2
//	-1234.5678901234567,0.001,0,0.12345678901234568,-1.5
//	…
//
// First come "# key = value" comment lines with what the caller records
// (the sampler, its settings, adapted ones included, the seed); then the
// header: lp__ when the log density is known, stepsize__ when the step sizes
// are, divergent__ always, then the parameters, named in CmdStan's style
// (beta.1 for Stan's beta[1]; diagnostics.IndexedNames makes such names);
// then one line per draw. Values are written with strconv's shortest
// round-trip form ('g', −1), so a file read back gives the very same
// float64 values (CmdStan writes 6 significant digits, enough to move an
// ESS in its third digit).
//
// Read and ReadFile accept CmdStan's own files too: comments anywhere,
// indented "key = value" lines, and sampler columns such as accept_stat__
// or treedepth__, kept in Chain.Extra. They refuse what is not a whole file,
// with a *ParseError naming the line: a missing header (a draw whose
// numbers would become names), a file cut inside its comments or header,
// ragged rows, values that are not numbers, lines over MaxLineLen, and,
// for CmdStan's files, fewer draws or sampler columns than their comments
// claim. A UTF-8 byte-order mark is dropped. ReadFiles reads the K files of one
// run (K processes, or K machines, each running one chain) and checks that
// they describe the same parameters; the chains it returns satisfy
// diagnostics.Draws:
//
//	chains, err := stancsv.ReadFiles(files...)
//	…
//	table, err := diagnostics.NewTable(chains[0].Names, chains)
package stancsv
