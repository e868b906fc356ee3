// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// The corr9999 design.
const (
	corrN     = 1000    // data items
	corrRho   = -0.9999 // posterior correlation of intercept and slope
	corrXMean = 10.0    // mean of the predictor
	corrTau   = 1e-6    // prior precision, β ~ N(0, I/τ)
	corrSeed  = 9999    // seed of the noise
)

// NewCorr9999 returns corr9999: the linear regression y_i ~ N(β₁ + β₂x_i,
// 1), β ~ N(0, 10⁶ I) (LinearGaussian), N = 1,000, whose intercept and
// slope have posterior correlation −0.9999, against its exact posterior
// N(P⁻¹Xᵀy, P⁻¹), P = XᵀX + τI. The predictor is evenly spaced with mean
// c = 10 and sd c·√(1/ρ² − 1) ≈ 0.1414: with the flat prior the
// correlation of (β₁, β₂) is −x̄/√(mean x²) = ρ exactly, and τ = 10⁻⁶
// moves it by less than 10⁻⁸. The responses are y_i = 1 + 0.5x_i + e_i
// with e_i ~ N(0, 1) from seed corrSeed.
func NewCorr9999() (*Target, error) {
	const n = corrN
	sd := corrXMean * math.Sqrt(1/(corrRho*corrRho)-1)
	// Evenly spaced standardised points: mean 0, variance 1 (divisor n).
	var ss float64
	z := make([]float64, n)
	for i := range z {
		z[i] = float64(i) - float64(n-1)/2
		ss += z[i] * z[i]
	}
	scale := sd / math.Sqrt(ss/n)
	lg := &LinearGaussian{X: make([]float64, 2*n), Y: make([]float64, n), D: 2, Tau: corrTau}
	rng := rand.New(rand.NewPCG(corrSeed, 2))
	for i := range n {
		x := corrXMean + scale*z[i]
		lg.X[2*i], lg.X[2*i+1] = 1, x
		lg.Y[i] = 1 + 0.5*x + rng.NormFloat64()
	}
	mean, cov, err := linearGaussianPosterior(lg)
	if err != nil {
		return nil, fmt.Errorf("corr9999: %w", err)
	}
	names := []string{"beta[1]", "beta[2]"}
	return &Target{
		Name:      "corr9999",
		Model:     lg,
		Start:     make([]float64, 2),
		Names:     names,
		UNames:    names,
		Constrain: func(dst, theta []float64) { copy(dst, theta) },
		RefMean:   mean,
		RefSD:     []float64{math.Sqrt(cov.At(0, 0)), math.Sqrt(cov.At(1, 1))},
		Draws:     1000,
		Batch:     100,
		refMeanU:  mean,
		refCovU:   cov,
	}, nil
}

// linearGaussianPosterior returns the exact posterior mean P⁻¹Xᵀy and
// covariance P⁻¹ of lg, P = XᵀX + τI, accumulated over the data.
func linearGaussianPosterior(lg *LinearGaussian) ([]float64, *mat.SymDense, error) {
	d := lg.D
	prec := mat.NewSymDense(d, nil)
	x := mat.NewDense(lg.Len(), d, lg.X)
	prec.SymOuterK(1, x.T())
	for j := range d {
		prec.SetSym(j, j, prec.At(j, j)+lg.Tau)
	}
	var chol mat.Cholesky
	if !chol.Factorize(prec) {
		return nil, nil, errors.New("XᵀX + τI not positive definite")
	}
	xty := mat.NewVecDense(d, nil)
	xty.MulVec(x.T(), mat.NewVecDense(lg.Len(), lg.Y))
	var mean mat.VecDense
	if err := chol.SolveVecTo(&mean, xty); err != nil {
		return nil, nil, err
	}
	cov := mat.NewSymDense(d, nil)
	if err := chol.InverseTo(cov); err != nil {
		return nil, nil, err
	}
	return mean.RawVector().Data, cov, nil
}
