// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// Run runs K chains of a sampler on p from dispersed starts around
// theta0, each adapting its own step size, preconditioner, friction, noise
// correction and batch size during a warmup (doc/adaptation.md §2) that is
// then frozen, and returns the draws after warmup with a summary and
// warnings. It is the package's one-call entry point, in the spirit of
// gonum's optimize.Minimize: settings may be nil, method nil means
// SGHMC{}. A method whose Rules are invalid is an ErrRange before any
// work.
//
// Each chain c draws everything from rng.ChainSource(s.Seed, c), so the result
// is the same for any GOMAXPROCS. At most GOMAXPROCS chains run at once.
//
// A chain that fails — a divergence, a non-finite gradient, a panic in
// user code (Model, Gradient, Method), which Run recovers into a
// *PanicError naming the function, the phase and the step — stops alone:
// the others run to the end, Result.Errors keeps its *ChainError, the
// summary leaves it out and a Failed warning names it; Run returns an
// error only when no other chain has draws. A run that stops early — ctx
// cancelled (warmup looks at it every few hundred gradient evaluations)
// or the Callback returning ErrStop or an error — returns a partial
// *Result, with the draws each chain kept, their summary and warnings and
// first a Stopped warning saying why, together with an error wrapping the
// cause. stop.go states the contract in full. Before any chain starts, a run whose draws and
// warmup matrices would not fit in Settings.MemoryLimit is refused.
//
// Warmup (P0–P7, doc.go): (P1) from the start, trust-region Newton steps
// on a fixed batch (curvature from finite-difference Hessians,
// eigenvalues floored at 1e−12 of the largest, so condition numbers to
// 10¹² are handled) until the Newton decrement is that of a point of the
// typical set; (P2) a check of the gradient against the log density, when
// the Model has one; (P3) for a Model, the control variate's centre, the
// chain's full-data mode; (P4) three windows of preconditioned Langevin
// steps on the fixed batch, the curvature measured along them and
// averaged, and the windows' covariance blended in with a weight that
// grows with their effective size; (P5) the largest eigenvalue λ̂ of the
// whitened Hessians by power iteration, ε = c/λ̂ (c/√λ̂ with momentum, c
// the method's Rules.StepConstant); (P6) a probe of the gradient noise at
// the sampling batch size, B̂ = diag V̂, friction, batch size by the heat
// check; (P7) the method's own adaptation if it is a WarmupAdapter.
// Thinning and burn-in follow from the predicted autocorrelation time. A
// warmup that has to shrink the windows' step by 10¹² returns an error.
// constants.go names every constant.
//
// After sampling, on the dense path: a chain whose draws do not fit the
// preconditioner its warmup chose re-adapts from them and samples again
// (Settings.Rounds, doc/adaptation.md §5–§6), and a chain whose
// draws sit where the posterior has next to no mass, by their Laplace
// mass against another chain's, samples again in that chain's place
// (Adapted.Joined, doc/adaptation.md §7).
//
// Above Settings.DenseMax every matrix of warmup is a vector: the
// curvature's diagonal from random probes, λ̂ by the Lanczos process, a
// low-rank factor of the whitening from the curvature's extreme
// directions (Adapted.LowRankU), O(d) memory in all; and each chain keeps
// running moments of every coordinate (Result.Moments, with MCSE by
// batch means) and the draws that fit in Settings.DrawsMemory
// (doc/adaptation.md §4).
func Run(ctx context.Context, p Problem, theta0 []float64, settings *Settings, method Method) (*Result, error) {
	if ctx == nil {
		return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: nil context (use context.Background())")
	}
	s, err := sampleDefaults(p, theta0, settings)
	if err != nil {
		return nil, err
	}
	switch {
	case method == nil:
		method = SGHMC{}
	case valid.IsNil(method):
		return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: nil method (a nil %T)", method)
	}
	var rules Rules
	if err := protect("Method.Rules", func() (err error) { rules, err = checkRules(method, len(theta0)); return err }); err != nil {
		return nil, err
	}
	var name string
	if err := protect("Method.Name", func() error { name = method.Name(); return nil }); err != nil {
		return nil, err
	}
	if err := checkSampleMemory(len(theta0), s); err != nil {
		return nil, err
	}
	ids := s.ChainIDs
	if ids == nil {
		ids = make([]int, s.Chains)
		for c := range ids {
			ids[c] = c
		}
	}
	res := &Result{Method: name, Temperature: s.Temperature, Chains: make([]*sgmcmc.Chain, len(ids)), Adapted: make([]Adapted, len(ids)), Rounds: make([][]Round, len(ids))}
	var prog *sampleProgress
	if s.Progress != nil {
		prog = newSampleProgress(s.Progress, s.ProgressEvery, ids, runtime.GOMAXPROCS(0))
	}
	outs := make([]chainOut, len(ids))
	errs := make([]error, len(ids))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	rs, _ := p.Model.(interface{ ReadStats() (int64, float64) })
	var b0 int64
	var r0 float64
	if rs != nil {
		b0, r0 = rs.ReadStats()
	}
	share := searchShared(ctx, p, theta0, s, method, rules)
	eachBounded(len(ids), sem, func(i int) {
		outs[i], errs[i] = sampleChain(ctx, ids[i], p, theta0, s, method, rules, prog, i, &sharing{centre: share.use()})
	})
	join(ctx, outs, errs, p.Model, s, sem)
	progErr := prog.close()
	var firstErr error
	var moms []*chainMoments
	res.Errors = make([]error, len(ids))
	var failed []int
	for c, o := range outs {
		moms = append(moms, o.moments)
		if o.chain == nil {
			// A chain that ended before its first draw is an empty chain,
			// never nil.
			o.chain = &sgmcmc.Chain{Dim: len(theta0)}
		}
		res.Chains[c] = o.chain
		res.Adapted[c] = o.adapted
		res.Rounds[c] = o.rounds
		res.WarmupGradEvals += o.warmEvals
		res.SamplingGradEvals += o.evals - o.warmEvals
		res.SetupPasses += o.adapted.SetupPasses
		res.SetupSeconds += o.adapted.SetupSeconds
		if o.chain != nil {
			res.Divergences += o.chain.Divergences
		}
		res.Warnings = append(res.Warnings, o.warnings...)
		res.Warnings = append(res.Warnings, o.spread...)
		if errs[c] == nil {
			continue
		}
		res.Errors[c] = &sgmcmc.ChainError{Chain: ids[c], Err: errs[c]}
		switch {
		case ctx.Err() != nil:
			// The whole run was cancelled.
			if firstErr == nil {
				firstErr = valid.Errorf(nil, "Sample: %w", ctx.Err())
			}
		case o.stopped:
			// The user's callback stopped the chain: the run stops.
			if firstErr == nil {
				firstErr = res.Errors[c]
			}
		default:
			// The chain failed on its own; the others finish.
			failed = append(failed, c)
		}
	}
	if firstErr == nil && len(failed) > 0 {
		// Chains fail alone: the run is an error only when no chain has
		// draws; otherwise the failed chains leave the summary, and a
		// warning names them.
		drew := false
		for c, ch := range res.Chains {
			drew = drew || ch.Len() > 0 && !slices.Contains(failed, c)
		}
		if !drew {
			firstErr = res.Errors[failed[0]]
		} else {
			res.Warnings = append(res.Warnings, failedWarning(res, errs, failed, ids))
		}
	}
	if rs != nil {
		b1, r1 := rs.ReadStats()
		res.BytesRead, res.ReadSeconds = b1-b0, r1-r0
	}
	if share != nil {
		res.SetupPasses += share.passes
		res.SetupSeconds += share.secs
		res.WarmupGradEvals += share.evals
	}
	if p.Model != nil {
		res.SetupGradEvals = int64(res.SetupPasses) * int64(p.Model.Len())
	}
	res.GradEvals = res.SetupGradEvals + res.WarmupGradEvals + res.SamplingGradEvals
	res.Moments = mergeMoments(moms)
	err = res.summarise(p.Names, s, ids, firstErr, failed)
	res.Warnings = append(res.Warnings, centreWarnings(res, ids)...)
	res.Warnings = append(res.Warnings, warmupModeWarning(outs, ids, p.Model)...)
	res.Warnings = append(res.Warnings, modeWarning(res, ids, p.Model)...)
	if err == nil && progErr != nil {
		// The progress writer panicked: the run is complete, and the
		// error says so.
		err = progErr
	}
	return res, err
}

// eachBounded calls f(0), …, f(n−1), each on its own goroutine, at most
// cap(sem) at once, and returns when all have returned.
func eachBounded(n int, sem chan struct{}, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// sampleWarnings states what the summary says is wrong.
func sampleWarnings(r *Result, s *Settings, chains int) []Warning {
	var w []Warning
	worstR, worstE := 0, 0
	for j, p := range r.Summary {
		if p.RHat > r.Summary[worstR].RHat || math.IsNaN(p.RHat) {
			worstR = j
		}
		if p.ESSBulk < r.Summary[worstE].ESSBulk {
			worstE = j
		}
	}
	if p := r.Summary[worstR]; !(p.RHat <= rhatLimit) {
		w = append(w, runWarning(NotMixed, p.Name, "R̂ = %.3f for %s (above %.2f): the chains disagree; they have not converged or do not mix", p.RHat, p.Name, rhatLimit))
	}
	if p := r.Summary[worstE]; !(p.ESSBulk >= 100*float64(chains)) {
		w = append(w, runWarning(FewDraws, p.Name, "bulk ESS = %.0f for %s (below 100 per chain): too few effective draws for reliable estimates; run longer", p.ESSBulk, p.Name))
	}
	if r.Divergences > 0 {
		w = append(w, runWarning(Divergent, "", "%d divergent transitions while sampling: the step size is too large for part of the posterior, which may be undersampled", r.Divergences))
	}
	var heat, spread, noise float64
	for _, a := range r.Adapted {
		heat = math.Max(heat, a.Heat)
		spread = math.Max(spread, a.CurvatureSpread)
		noise = math.Max(noise, a.NoiseScale)
	}
	if heat > s.MaxHeat {
		w = append(w, runWarning(Heat, "", "excess temperature from gradient noise %.1f%% (above %.0f%%): variances are inflated by about that much; raise the batch size", 100*heat, 100*s.MaxHeat))
	}
	if noise > 1 {
		w = append(w, runWarning(Noise, "", "gradient noise dominates: it puts %.1f times as much variance into each step as the sampler's own diffusion, so the result rests on the noise correction B̂ being right; raise the batch size", noise))
	}
	switch {
	case math.IsInf(spread, 1):
		w = append(w, runWarning(Flat, "", "the posterior has no positive curvature at some warmup points (flat or not identified there?): no constant step size and preconditioner suit all of it, so parts may be undersampled"))
	}
	return w
}

// centreWarnings names each chain whose control variate is centred more
// than centreWarn posterior sds (its search's last quasi-Newton step) from
// the full-data mode (doc/adaptation.md §2.3). Such a chain's noise was
// probed around the search's estimate of the mode, not measured where it
// sampled: its heat is an estimate resting on that one.
func centreWarnings(r *Result, ids []int) []Warning {
	var w []Warning
	for c, a := range r.Adapted {
		if a.Center == nil || !(a.CenterStep > centreWarn) || r.Errors[c] != nil {
			continue
		}
		w = append(w, Warning{Kind: Centre, Chain: ids[c], Message: fmt.Sprintf("chain %d: its control variate's centre is about %.2g posterior sds from the full-data mode (the centre search stopped after %d full passes): the gradient noise was probed where the search estimated the mode, and the chain may run hotter than its estimated excess temperature %.1f%%; PlainMinibatch samples without a centre",
			ids[c], a.CenterStep, a.SetupPasses, 100*a.Heat)})
	}
	return w
}

// failedWarning says which chains failed (errs, their own errors), why,
// and that the summary leaves them out.
func failedWarning(r *Result, errs []error, failed, ids []int) Warning {
	var b strings.Builder
	for k, c := range failed {
		if k > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "chain %d after %d draws: %s", ids[c], r.Chains[c].Len(), inWords(errs[c]))
	}
	return Warning{Kind: Failed, Chain: ids[failed[0]], Message: fmt.Sprintf("%d of %d chains failed and are left out of the summary and its diagnostics (Result.Errors has each error): %s", len(failed), len(r.Chains), b.String())}
}
