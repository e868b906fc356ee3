// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// faultyModel is testModel (θ ∈ R², ten items) with one planted fault:
// where names the function that returns bad, at item (for LogLik and
// LogLikGrad) and in parameter 1 (for gradients).
type faultyModel struct {
	testModel
	where string
	item  int
	bad   float64
}

func (m faultyModel) LogPriorGrad(dst, th []float64) {
	m.testModel.LogPriorGrad(dst, th)
	if m.where == "LogPriorGrad" {
		dst[1] = m.bad
	}
}

func (m faultyModel) LogLikGrad(dst, th []float64, i int, scale float64) {
	m.testModel.LogLikGrad(dst, th, i, scale)
	if m.where == "LogLikGrad" && i == m.item {
		dst[1] = m.bad
	}
}

func (m faultyModel) LogPrior(th []float64) float64 {
	if m.where == "LogPrior" {
		return m.bad
	}
	return m.testModel.LogPrior(th)
}

func (m faultyModel) LogLik(th []float64, i int) float64 {
	if m.where == "LogLik" && i == m.item {
		return m.bad
	}
	return m.testModel.LogLik(th, i)
}

// gradOnly is a model without LogDensity.
type gradOnly struct{ ckModel }

// TestBadInputModel is the catalogue of the model and the recipe's
// operators: every fault of a model that would trip sampling is an error
// of CheckModel naming the function, the item and the parameter, and every
// operator NewRecipe is given has its shapes and constant entries checked,
// struct literals included.
func TestBadInputModel(t *testing.T) {
	t.Parallel()
	th := []float64{0.4, 1.2}
	check := func(m Model, theta []float64, items []int) func() error {
		return func() error { _, err := CheckModel(m, theta, items); return err }
	}
	nan, inf := math.NaN(), math.Inf(1)
	recipe := func(d Diffusion, q Operator) func() error {
		return func() error {
			spec := RecipeSpec{Grad: GradFunc(testGrad), D: d, Z0: []float64{0.1, 0.2}, Src: rand.NewPCG(1, 2)}
			if q != nil {
				spec.Q = q
			}
			_, err := NewRecipe(spec)
			return err
		}
	}
	cases := []badCase{
		{name: "CheckModel nil model", run: check(nil, th, nil), want: ErrNil},
		{name: "CheckModel typed nil model", run: check((*linearModelNil)(nil), th, nil), want: ErrNil},
		{name: "CheckModel theta too short", run: check(testModel{}, th[:1], nil), want: ErrDimension},
		{name: "CheckModel theta NaN", run: check(testModel{}, []float64{nan, 1}, nil), want: ErrNonFinite, substr: "theta[0]"},
		{name: "CheckModel theta Inf", run: check(testModel{}, []float64{0, inf}, nil), want: ErrNonFinite, substr: "theta[1]"},
		{name: "CheckModel item negative", run: check(testModel{}, th, []int{-1}), want: ErrRange, substr: "item -1"},
		{name: "CheckModel item past the data", run: check(testModel{}, th, []int{10}), want: ErrRange, substr: "item 10"},
		{name: "CheckModel LogLik NaN for one item", run: check(faultyModel{where: "LogLik", item: 3, bad: nan}, th, nil), want: ErrNonFinite, substr: "LogLik of item 3 is NaN"},
		{name: "CheckModel LogLik -Inf for one item", run: check(faultyModel{where: "LogLik", item: 7, bad: -inf}, th, []int{7}), want: ErrNonFinite, substr: "item 7"},
		{name: "CheckModel LogLikGrad NaN for one item", run: check(faultyModel{where: "LogLikGrad", item: 5, bad: nan}, th, nil), want: ErrNonFinite, substr: "LogLikGrad of item 5 is NaN in parameter 1"},
		{name: "CheckModel LogLikGrad Inf for one item", run: check(faultyModel{where: "LogLikGrad", item: 2, bad: inf}, th, []int{0, 2}), want: ErrNonFinite, substr: "item 2"},
		{name: "CheckModel LogPriorGrad NaN", run: check(faultyModel{where: "LogPriorGrad", bad: nan}, th, nil), want: ErrNonFinite, substr: "prior"},
		{name: "CheckModel LogPrior NaN", run: check(faultyModel{where: "LogPrior", bad: nan}, th, nil), want: ErrNonFinite, substr: "LogPrior is NaN"},
		{name: "CheckModel LogPrior +Inf", run: check(faultyModel{where: "LogPrior", bad: inf}, th, nil), want: ErrNonFinite, substr: "LogPrior is +Inf"},
		{name: "CheckModel no LogDensity", run: check(gradOnly{}, []float64{0.1, 0.2, 0.3}, nil), want: ErrUnsupported, substr: "does not implement LogDensity"},
		{name: "CheckModel no LogDensity, NaN gradient", run: check(gradOnlyNaN{}, []float64{0.1, 0.2, 0.3}, nil), want: ErrNonFinite, substr: "LogLikGrad of item 0"},
		{name: "NewRecipe negative Scalar diffusion", run: recipe(Scalar{N: 2, C: -1}, nil), want: ErrRange, substr: "the diffusion D = Scalar{C: -1} is negative"},
		{name: "NewRecipe NaN Scalar diffusion", run: recipe(Scalar{N: 2, C: nan}, nil), want: ErrNonFinite, substr: "Scalar{C: NaN}"},
		{name: "NewRecipe negative Diagonal diffusion", run: recipe(Diagonal{1, -1}, nil), want: ErrRange, substr: "entry 1 = -1"},
		{name: "NewRecipe Inf Diagonal diffusion", run: recipe(Diagonal{inf, 1}, nil), want: ErrNonFinite, substr: "entry 0"},
		{name: "NewRecipe NaN Scalar curl", run: recipe(Scalar{N: 2, C: 1}, Scalar{N: 2, C: nan}), want: ErrNonFinite, substr: "Q = Scalar"},
		{name: "NewRecipe LowRankDiag literal with a short U", run: recipe(&LowRankDiag{A: []float64{1, 1}, U: []float64{1}, S: []float64{1}}, nil), want: ErrDimension, substr: "U has 1 entries"},
		{name: "NewRecipe LowRankDiag literal with no S", run: recipe(&LowRankDiag{A: []float64{1, 1}, U: []float64{1, 1}}, nil), want: ErrRange, substr: "rank"},
		{name: "NewRecipe LowRankDiag literal with negative A", run: recipe(&LowRankDiag{A: []float64{1, -1}, U: []float64{1, 1}, S: []float64{1}}, nil), want: ErrRange, substr: "A[1]"},
		{name: "NewRecipe LowRankDiag literal with NaN U", run: recipe(&LowRankDiag{A: []float64{1, 1}, U: []float64{1, nan}, S: []float64{1}}, nil), want: ErrNonFinite, substr: "U[1]"},
		{name: "NewRecipe LowRankDiag literal with negative S", run: recipe(&LowRankDiag{A: []float64{1, 1}, U: []float64{1, 1}, S: []float64{-2}}, nil), want: ErrRange, substr: "S[0]"},
		{name: "NewRecipe LowRankDiag literal of the wrong size", run: recipe(&LowRankDiag{A: []float64{1, 1, 1}, U: []float64{1, 1, 1}, S: []float64{1}}, nil), want: ErrDimension, substr: "D is 3×3"},
	}
	for _, c := range cases {
		t.Run(subtestName(c.name), c.check)
	}
}

// linearModelNil is a Model type whose nil pointer CheckModel must refuse.
type linearModelNil struct{ testModel }

// gradOnlyNaN is gradOnly whose every item's gradient is NaN.
type gradOnlyNaN struct{ ckModel }

func (gradOnlyNaN) LogLikGrad(dst, _ []float64, _ int, _ float64) { dst[0] = math.NaN() }
