// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Autocovariance writes the biased autocovariance estimate of x,
//
//	γ̂_t = (1/n) Σ_{i=0}^{n−1−t} (x_i − x̄)(x_{i+t} − x̄),   t = 0, …, n−1,
//
// into dst (allocated if nil or too short) and returns it. It is computed by
// FFT (gonum's dsp/fourier) on x zero-padded to a length of at least 2n, in
// O(n log n). The biased (divide by n) estimate is the one Geyer (1992)
// recommends and the one ESS uses. x needs at least one draw, all finite
// and within ±MaxAbs; an autocovariance beyond the float64 range is an
// error.
func Autocovariance(dst, x []float64) ([]float64, error) {
	if err := checkSample("Autocovariance", x, 1); err != nil {
		return nil, err
	}
	dst = resize(dst, len(x))
	var w acf
	sc := w.scaledAutocov(dst, x)
	if sc != 1 {
		for t := range dst {
			dst[t] = dst[t] / sc / sc
			if math.IsInf(dst[t], 0) {
				return nil, inputErr("Autocovariance", fmt.Sprintf("the autocovariance at lag %d overflows float64 (draws too large)", t))
			}
		}
	}
	return dst, nil
}

// scaledAutocov writes the autocovariance of x·sc into dst and returns sc,
// a power of two (see powerScale) that keeps the products of the FFT in
// range.
func (w *acf) scaledAutocov(dst, x []float64) float64 {
	sc := powerScale([][]float64{x})
	if sc != 1 {
		xs := make([]float64, len(x))
		for i, v := range x {
			xs[i] = v * sc
		}
		x = xs
	}
	w.autocov(dst, x)
	return sc
}

// Autocorrelation writes the autocorrelation ρ̂_t = γ̂_t/γ̂_0 of x, t = 0, …,
// n−1, into dst (allocated if nil or too short) and returns it; γ̂ is the
// biased FFT estimate of Autocovariance. For a constant x, whose γ̂_0 is zero,
// it returns ρ̂_0 = 1 and ρ̂_t = 0 for t > 0, the autocorrelation of
// independent draws.
func Autocorrelation(dst, x []float64) ([]float64, error) {
	if err := checkSample("Autocorrelation", x, 1); err != nil {
		return nil, err
	}
	dst = resize(dst, len(x))
	var w acf
	w.scaledAutocov(dst, x) // ρ̂ does not depend on the scale
	g0 := dst[0]
	if g0 == 0 {
		clear(dst)
		dst[0] = 1
		return dst, nil
	}
	for t := range dst {
		dst[t] /= g0
	}
	return dst, nil
}

func resize(dst []float64, n int) []float64 {
	if cap(dst) < n {
		return make([]float64, n)
	}
	return dst[:n]
}

// acf is the reusable workspace of FFT autocovariances of sequences of one
// length.
type acf struct {
	n     int
	fft   *fourier.FFT
	buf   []float64
	power []float64
	coeff []complex128
}

// goodSize returns the smallest integer ≥ n of the form 2^a 3^b 5^c, the
// lengths for which fftpack is fastest.
func goodSize(n int) int {
	if n <= 1 {
		return 1
	}
	best := 1
	for best < n {
		best *= 2
	}
	for p5 := 1; p5 < best; p5 *= 5 {
		for p35 := p5; p35 < best; p35 *= 3 {
			m := p35
			for m < n {
				m *= 2
			}
			if m < best {
				best = m
			}
		}
	}
	return best
}

// autocov writes the biased autocovariance of x into dst (len(x)) and
// returns the mean of x.
func (w *acf) autocov(dst, x []float64) float64 {
	var mean [1]float64
	w.meanAutocov(dst, [][]float64{x}, mean[:])
	return mean[0]
}

// meanAutocov writes the biased autocovariances of chains (of equal length
// n = len(dst)), averaged over the chains, into dst, and the chain means into
// means. By linearity the average needs one inverse transform: the inverse
// FFT of the mean power spectrum.
func (w *acf) meanAutocov(dst []float64, chains [][]float64, means []float64) {
	n := len(chains[0])
	if w.n != n || w.fft == nil {
		m := goodSize(2 * n)
		w.n = n
		if w.fft == nil {
			w.fft = fourier.NewFFT(m)
		} else {
			w.fft.Reset(m)
		}
		w.buf = resize(w.buf, m)
		w.power = resize(w.power, m/2+1)
		if cap(w.coeff) < m/2+1 {
			w.coeff = make([]complex128, m/2+1)
		}
		w.coeff = w.coeff[:m/2+1]
	}
	clear(w.power)
	for c, x := range chains {
		var mean float64
		for _, v := range x {
			mean += v
		}
		mean /= float64(n)
		means[c] = mean
		for i, v := range x {
			w.buf[i] = v - mean
		}
		clear(w.buf[n:])
		w.fft.Coefficients(w.coeff, w.buf)
		for k, c := range w.coeff {
			w.power[k] += real(c)*real(c) + imag(c)*imag(c)
		}
	}
	for k, p := range w.power {
		w.coeff[k] = complex(p, 0)
	}
	w.fft.Sequence(w.buf, w.coeff)
	// Coefficients followed by Sequence scales by the transform length.
	scale := 1 / (float64(len(w.buf)) * float64(n) * float64(len(chains)))
	for t := range dst {
		dst[t] = w.buf[t] * scale
	}
}
