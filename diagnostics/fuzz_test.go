// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// fuzzFloats decodes raw as little-endian float64s (a trailing partial
// word is dropped).
func fuzzFloats(raw []byte) []float64 {
	x := make([]float64, len(raw)/8)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return x
}

func fuzzBytes(x ...float64) []byte {
	var b []byte
	for _, v := range x {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// weightedMeanGuarded enables the fuzzing of WeightedMean and
// StepWeighted, whose sums Σ ε·h can overflow to ±Inf or NaN with a nil
// error for step sizes times values beyond 1.8e308 until summary.go guards
// them (the guard is in /work/notes/reliability.md). Set it to true with
// the guard.
const weightedMeanGuarded = true

// FuzzDiagnostics feeds every diagnostic draws decoded from random bytes —
// extreme magnitudes, subnormals, ties, constants, NaN and Inf all occur —
// and checks the contract: no panic; a nil error comes with finite results
// (or a documented defined value: R̂ = +Inf for constant, different
// chains); a non-nil error is an *InputError naming the function.
func FuzzDiagnostics(f *testing.F) {
	f.Add(fuzzBytes(1e-76, 1e-76, 1.4e160, 1e-76), uint8(0), 0.5) // KSD of the issue
	f.Add(fuzzBytes(1e308, -1e308, 1e308, -1e308, 1e308, -1e308, 1e308, -1e308), uint8(1), 0.3)
	f.Add(fuzzBytes(4e307, -4e307, 4e307, -4e307, 4e307, -4e307, 4e307, -4e307, 4e307, 4e307), uint8(0), 0.9)
	f.Add(fuzzBytes(1, 1, 1, 1, 2, 2, 2, 2), uint8(1), 0.5)
	f.Add(fuzzBytes(1e-300, 2e-300, 3e-300, 1e-310, 5e-324, 0, -1e-300, 4e-300), uint8(2), 0.05)
	f.Add(fuzzBytes(0.1, -0.3, 2.5, 1.1, -0.7, 0.4, 0.9, -1.2, 0.3, 0.0, 1.7, -2.2), uint8(3), 0.95)
	f.Add(fuzzBytes(math.NaN(), 1, 2, 3), uint8(0), 0.5)
	f.Fuzz(func(t *testing.T, raw []byte, shape uint8, p float64) {
		if len(raw) > 8*512 {
			return
		}
		x := fuzzFloats(raw)
		m := 1 + int(shape%3)
		n := len(x) / m
		chains := make([][]float64, m)
		for c := range chains {
			chains[c] = x[c*n : (c+1)*n]
		}
		check := func(name string, err error, vals ...float64) {
			t.Helper()
			if err != nil {
				var ie *diagnostics.InputError
				if !errors.As(err, &ie) || ie.Func == "" {
					t.Fatalf("%s: error %v (%T), want an *InputError", name, err, err)
				}
				return
			}
			for _, v := range vals {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s: %v with a nil error (x = %v, m = %d, p = %v)", name, vals, x, m, p)
				}
			}
		}
		scalar := map[string]func([][]float64) (float64, error){
			"ESSBulk": diagnostics.ESSBulk, "ESSTail": diagnostics.ESSTail, "ESSMean": diagnostics.ESSMean,
			"MCSEMean":     diagnostics.MCSEMean,
			"ESSQuantile":  func(c [][]float64) (float64, error) { return diagnostics.ESSQuantile(c, p) },
			"MCSEQuantile": func(c [][]float64) (float64, error) { return diagnostics.MCSEQuantile(c, p) },
		}
		for name, fn := range scalar {
			v, err := fn(chains)
			check(name, err, v)
		}
		// R̂ is +Inf, by definition, when the split chains (or their folded
		// draws) have no variation within but some between them; never NaN.
		rhat := func(v float64) float64 {
			if math.IsInf(v, 1) {
				return 1
			}
			return v
		}
		bulk, tail, err := diagnostics.RHatBulkTail(chains)
		check("RHatBulkTail", err, rhat(bulk), rhat(tail))
		s, err := diagnostics.Summarize(chains)
		check("Summarize", err, s.Mean, s.MCSEMean, s.SD, s.MAD, s.Q5, s.Median, s.Q95, s.ESSBulk, s.ESSTail,
			rhat(s.RHat), rhat(s.RHatBulk), rhat(s.RHatTail))
		if len(x) > 0 {
			ac, err := diagnostics.Autocorrelation(nil, x)
			check("Autocorrelation", err, ac...)
			av, err := diagnostics.Autocovariance(nil, x)
			check("Autocovariance", err, av...)
		}
		v, err := diagnostics.KS(x, distuv.UnitNormal.CDF)
		check("KS", err, v)
		h := len(x) / 2
		v, err = diagnostics.KSTwoSample(x[:h], x[h:])
		check("KSTwoSample", err, v)
		v, err = diagnostics.WassersteinTwoSample(x[:h], x[h:])
		check("WassersteinTwoSample", err, v)
		if len(x) <= 64 {
			v, err = diagnostics.Wasserstein(x, distuv.UnitNormal.CDF)
			check("Wasserstein", err, v)
			v, err = diagnostics.Wasserstein(x, distuv.Normal{Mu: p, Sigma: 1e300}.CDF)
			check("Wasserstein wide", err, v)
		}
		if len(x) >= 2 {
			g := diagnostics.Grid{Min: x[0], Max: x[1], Bins: 1 + int(shape)}
			v, err = diagnostics.KL(x, func(t float64) float64 { return 1 / (1 + t*t) }, g)
			if err == nil && math.IsInf(v, 1) {
				v = 0 // defined: a draw in a bin of zero density (1/(1+t²) underflows)
			}
			check("KL", err, v)
			v, err = diagnostics.KL2D(x[:h], x[h:2*h], func(s, t float64) float64 { return math.Exp(-(s*s + t*t) / 1e4) }, g, g)
			if err == nil && math.IsInf(v, 1) {
				v = 0 // defined: a draw in a cell of zero density (exp underflows)
			}
			check("KL2D", err, v)
		}
		// KSD on draws of dimension 1 + shape%3, score −x (standard normal).
		d := 1 + int(shape/3%3)
		if len(x) >= d && len(x) <= 64*d {
			draws := make([][]float64, len(x)/d)
			for i := range draws {
				draws[i] = x[i*d : (i+1)*d]
			}
			v, err = diagnostics.KSD(draws, func(dst, y []float64) {
				for j, u := range y {
					dst[j] = -u
				}
			}, nil)
			check("KSD", err, v)
			v, err = diagnostics.RosenblattKS(draws, diagnostics.DirichletConditionalCDF([]float64{1, 2, 3, 4}), d)
			check("RosenblattKS", err, v)
		}
		if weightedMeanGuarded && len(x) >= 2 {
			eps := make([]float64, h)
			for i := range eps {
				eps[i] = math.Abs(x[h+i])
			}
			v, err = diagnostics.WeightedMean(x[:h], eps)
			check("WeightedMean", err, v)
			rows := make(diagnostics.Rows, h)
			for i := range rows {
				rows[i] = x[i : i+1]
			}
			v, err = diagnostics.StepWeighted([]diagnostics.Rows{rows}, [][]float64{eps}, func(th []float64) float64 { return th[0] })
			check("StepWeighted", err, v)
		}
	})
}
