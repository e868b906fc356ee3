// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// failingGrad is the gradient of N(0, I) in 2-D that turns NaN after
// failAt calls (never if failAt is 0).
type failingGrad struct{ calls, failAt int }

func (g *failingGrad) Grad(dst, th []float64) {
	g.calls++
	copy(dst, th)
	if g.failAt > 0 && g.calls > g.failAt {
		dst[0] = math.NaN()
	}
}

// TestChainsFailAlone: a chain that meets a non-finite gradient while
// sampling stops; the others run to the end. Run returns no error, the
// failed chain's error is in Result.Errors, a Failed warning names it,
// the summary covers the chains that finished, and Result.Chains holds no
// nil. When every chain fails, Run returns the first chain's error.
func TestChainsFailAlone(t *testing.T) {
	run := func(fail func(c int) int) (*Result, error) {
		p := Problem{Gradient: func(c int, _ rand.Source) (sgmcmc.Gradient, error) {
			return &failingGrad{failAt: fail(c)}, nil
		}}
		return Run(t.Context(), p, []float64{0.5, -0.5}, &Settings{Seed: 4, Chains: 4, Draws: 400}, nil)
	}
	// Chain 2 fails after its warmup, while sampling.
	res, err := run(func(c int) int {
		if c == 2 {
			return 1500
		}
		return 0
	})
	if err != nil {
		t.Fatalf("one chain failed and Run returned %v", err)
	}
	for c, ch := range res.Chains {
		if ch == nil {
			t.Fatalf("chain %d is nil", c)
		}
		if (res.Errors[c] != nil) != (c == 2) {
			t.Errorf("chain %d: error %v", c, res.Errors[c])
		}
	}
	var ce *sgmcmc.ChainError
	if !errors.As(res.Errors[2], &ce) || ce.Chain != 2 || !errors.Is(ce, sgmcmc.ErrDivergence) && !errors.Is(ce, sgmcmc.ErrNonFiniteGradient) {
		t.Errorf("chain 2's error %v, want a *ChainError of chain 2 wrapping a divergence or a non-finite gradient", res.Errors[2])
	}
	if n := res.Chains[2].Len(); n == 0 || n >= 400 {
		t.Errorf("chain 2 kept %d draws; the test wants it to fail while sampling", n)
	}
	if !res.Warnings.Has(Failed) || res.Warnings.Has(Stopped) {
		t.Errorf("warnings %v, want a Failed warning and no Stopped one", res.Warnings)
	}
	if len(res.Summary) != 2 || res.Summary[0].ESSBulk < 3*100 {
		t.Errorf("summary %v: want both parameters over the three chains that finished", res.Summary)
	}
	t.Log(res.Warnings, res.WarmupGradEvals, res.SamplingGradEvals)
	// Every chain fails: the run's error is the first chain's.
	res, err = run(func(int) int { return 1500 })
	if !errors.As(err, &ce) || ce.Chain != 0 {
		t.Errorf("every chain failed: err = %v, want chain 0's *ChainError", err)
	}
	if res == nil || len(res.Chains) != 4 {
		t.Fatalf("every chain failed: result %v", res)
	}
}
