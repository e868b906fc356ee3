// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SignedRows is Model's likelihood on hashed features (the hashing trick
// with a sign hash: every nonzero is +1 or −1) written on rows of a fixed
// width, a dataset.RowModel: a row is K signed codes, +(j+1) for x_j = +1
// and −(j+1) for x_j = −1 (0 pads a row with fewer nonzeros), then the
// label, K+1 values. It is SparseRows without the values, half the bytes
// a row; a float32 table holds codes below 2²⁴ exactly.
type SignedRows struct {
	D, K int     // features, and nonzeros a row at most
	Prec float64 // prior precision 1/v on every coefficient
}

// Dim returns D.
func (r SignedRows) Dim() int { return r.D }

// LogPriorGrad adds −θ/v to dst.
func (r SignedRows) LogPriorGrad(dst, theta []float64) {
	Rows{D: r.D, Prec: r.Prec}.LogPriorGrad(dst, theta)
}

// LogPrior returns log p(θ), the normalising constant included.
func (r SignedRows) LogPrior(theta []float64) float64 {
	return Rows{D: r.D, Prec: r.Prec}.LogPrior(theta)
}

// signedDot returns x_rᵀθ of one row's codes. The sign is applied by
// multiplication, not a branch: hashed signs are random, and a branch on
// each would be mispredicted half the time.
func signedDot(codes, theta []float64) float64 {
	var s float64
	for _, c := range codes {
		if c != 0 {
			s += math.Copysign(1, c) * theta[int(math.Abs(c))-1]
		}
	}
	return s
}

// signedAdd adds a·x_r to dst for one row's codes.
func signedAdd(dst, codes []float64, a float64) {
	for _, c := range codes {
		if c != 0 {
			dst[int(math.Abs(c))-1] += math.Copysign(1, c) * a
		}
	}
}

// LogLikGradRows adds scale·Σ_r (y_r − σ(x_rᵀθ))·x_r to dst.
func (r SignedRows) LogLikGradRows(dst, theta, rows []float64, scale float64) {
	w := r.K + 1
	for ; len(rows) >= w; rows = rows[w:] {
		codes := rows[:r.K:r.K]
		signedAdd(dst, codes, scale*(rows[r.K]-Sigmoid(signedDot(codes, theta))))
	}
}

// LogLikGradDiffRows adds scale·Σ_r (∇log p(y_r | θ) − ∇log p(y_r | θ₀)) =
// scale·Σ_r (σ(x_rᵀθ₀) − σ(x_rᵀθ))·x_r to dst: a control variate's
// correction in one read of each row (dataset.DiffRowModel).
func (r SignedRows) LogLikGradDiffRows(dst, theta, theta0, rows []float64, scale float64) {
	w := r.K + 1
	for ; len(rows) >= w; rows = rows[w:] {
		codes := rows[:r.K:r.K]
		signedAdd(dst, codes, scale*(Sigmoid(signedDot(codes, theta0))-Sigmoid(signedDot(codes, theta))))
	}
}

// LogLikRows returns Σ_r log σ(±x_rᵀθ).
func (r SignedRows) LogLikRows(theta, rows []float64) float64 {
	w := r.K + 1
	var s float64
	for ; len(rows) >= w; rows = rows[w:] {
		z := signedDot(rows[:r.K], theta)
		if rows[r.K] == 0 {
			z = -z
		}
		s += LogSigmoid(z)
	}
	return s
}

// SimulateSignedBeta returns SimulateSignedChunk's true coefficients for d
// features, k nonzeros a row and seed: β*_j = 1.5·z_j/√k, z_j ~ N(0, 1)
// from the PCG stream (seed, 0), so that x_iᵀβ* has an sd of about 1.5
// (Simulate's, whose rows are dense, with k = d).
func SimulateSignedBeta(d, k int, seed uint64) []float64 {
	beta := make([]float64, d)
	rb := rand.New(rand.NewPCG(seed, 0))
	for j := range beta {
		beta[j] = 1.5 * rb.NormFloat64() / math.Sqrt(float64(k))
	}
	return beta
}

// SimulateSignedChunk draws chunk c of the hashed-feature data for beta
// and seed into rows, SignedRows' layout with k codes a row (len(rows)/(k+1)
// rows, SimChunk but for the last chunk): each row's k distinct columns
// uniform over the len(beta) features, each with a sign ±1 equally likely,
// then y ~ Bernoulli(σ(x_iᵀβ*)), all from the PCG stream (seed, c+1). The
// data of any size are their chunks in order, so that they are written
// chunk by chunk, the chunks drawn in parallel, with the same bits.
func SimulateSignedChunk(rows, beta []float64, k, c int, seed uint64) error {
	d, w := len(beta), k+1
	if k < 1 || k > d || len(rows)%w != 0 {
		return fmt.Errorf("logreg: SimulateSignedChunk: k = %d, d = %d, %d values, want 1 ≤ k ≤ d and whole rows", k, d, len(rows))
	}
	r := rand.New(rand.NewPCG(seed, uint64(c)+1))
	for ; len(rows) > 0; rows = rows[w:] {
		codes := rows[:k]
		var z float64
		for q := range codes {
			j := r.IntN(d)
			for taken(codes[:q], j) {
				j = r.IntN(d)
			}
			s := 1.0
			if r.Uint64()&1 == 0 {
				s = -1
			}
			codes[q] = s * float64(j+1)
			z += s * beta[j]
		}
		rows[k] = 0
		if r.Float64() < Sigmoid(z) {
			rows[k] = 1
		}
	}
	return nil
}

// taken reports whether feature j has a code among codes.
func taken(codes []float64, j int) bool {
	for _, c := range codes {
		if int(math.Abs(c))-1 == j {
			return true
		}
	}
	return false
}

// SignedData returns rows in SignedRows' layout (k codes a row, d
// features) as CSR data for Model: the full-data log density, gradient
// and Hessian a reference sampler needs.
func SignedData(rows []float64, d, k int) (*Data, error) {
	w := k + 1
	if len(rows)%w != 0 {
		return nil, fmt.Errorf("logreg: SignedData: %d values are not whole rows of %d", len(rows), w)
	}
	n := len(rows) / w
	x := &Data{Cols: d, Ptr: make([]int32, n+1), Idx: make([]int32, 0, n*k), Val: make([]float64, 0, n*k), Y: make([]float64, n)}
	for i := range n {
		row := rows[i*w : (i+1)*w]
		for _, c := range row[:k] {
			if c == 0 {
				continue
			}
			j := int(math.Abs(c)) - 1
			if j >= d || c != math.Trunc(c) {
				return nil, fmt.Errorf("logreg: SignedData: row %d: code %v is not ±(j+1) for a feature j < %d", i, c, d)
			}
			x.Idx = append(x.Idx, int32(j))
			x.Val = append(x.Val, math.Copysign(1, c))
		}
		if int64(len(x.Idx)) > math.MaxInt32 {
			return nil, fmt.Errorf("logreg: SignedData: more than 2³¹ nonzeros")
		}
		x.Ptr[i+1] = int32(len(x.Idx))
		x.Y[i] = row[k]
	}
	return x, nil
}
