// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// densityPoints is the number of points at which Density evaluates each
// kernel density estimate.
const densityPoints = 256

// Density returns the marginal density plot of coordinate j of chains,
// named name: a Gaussian kernel density estimate of each chain's draws,
// one line per chain in ChainColor(c), all with the bandwidth of R's
// bw.nrd0 rule for the pooled draws, 0.9·min(sd, IQR/1.34)·S^(−1/5). The
// x-axis spans the draws, or their central 99% widened by a fifth each
// side when heavy tails would squash the picture. Chains of more than
// 16,384 draws are linearly binned onto a grid of spacing h/32 (h the
// bandwidth), as R's density does with a coarser grid, and the estimate
// computed from the bins: an error below 10⁻⁴ of the peak, invisible, at
// a cost that no longer grows with the number of draws beyond one pass.
func Density[C Draws](chains []C, j int, name string) (*plot.Plot, error) {
	cols, err := column("Density", chains, j)
	if err != nil {
		return nil, err
	}
	var all []float64
	for _, x := range cols {
		all = append(all, x...)
	}
	slices.Sort(all)
	bw := bandwidth(all)
	lo, hi := densityRange(all, bw)
	if math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) || !(bw > 0) {
		return nil, fmt.Errorf("plots: Density: the draws' spread (%v to %v) overflows float64", all[0], all[len(all)-1])
	}
	p := newPanel(name, name, "density")
	for c, x := range cols {
		l, err := plotter.NewLine(densityCurve(x, lo, hi, bw))
		if err != nil {
			return nil, fmt.Errorf("plots: Density: %w", err)
		}
		l.Color = ChainColor(c)
		l.Width = vg.Points(1)
		p.Add(l)
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min = 0
	return p, nil
}

// densityRange returns the range a density plot of sorted draws shows:
// all of them and three bandwidths beyond, unless heavy tails make that
// more than four times as wide as the central 99% of the draws, which is
// then shown widened by a fifth on each side.
func densityRange(sorted []float64, bw float64) (lo, hi float64) {
	lo = max(sorted[0]-3*bw, -math.MaxFloat64)
	hi = min(sorted[len(sorted)-1]+3*bw, math.MaxFloat64)
	qlo, qhi := quantile(sorted, 0.005), quantile(sorted, 0.995)
	if w := qhi - qlo; w > 0 && hi-lo > 4*w {
		lo, hi = max(lo, qlo-w/5), min(hi, qhi+w/5)
	}
	return lo, hi
}

// exactKDE is the most draws per chain for which Density evaluates the
// kernel density estimate exactly; above it the draws are binned.
const exactKDE = 1 << 14

// densityCurve evaluates the kernel density estimate of x with bandwidth
// bw at densityPoints points spanning [lo, hi]: exactly for at most
// exactKDE draws, else from the draws binned (binnedKDE).
func densityCurve(x []float64, lo, hi, bw float64) plotter.XYs {
	pts := make(plotter.XYs, densityPoints)
	for k := range pts {
		pts[k].X = lo + (hi-lo)*(float64(k)/float64(densityPoints-1))
	}
	if len(x) > exactKDE {
		binnedKDE(pts, x, bw)
		return pts
	}
	for k := range pts {
		pts[k].Y = kde(x, pts[k].X, bw)
	}
	return pts
}

// Binning: the grid spacing is at most binWidth bandwidths, the grid has
// at most maxBins points, and draws farther than kernelReach bandwidths
// from every point evaluated are left out (their weight there is below
// e⁻³², 10⁻¹⁴).
const (
	binWidth    = 1.0 / 32
	maxBins     = 1 << 16
	kernelReach = 8
)

// binnedKDE sets pts[k].Y to the Gaussian kernel density estimate of x
// with bandwidth h at pts[k].X (in increasing order), from x linearly
// binned onto a grid (Wand 1994, as R's density does): each draw's weight
// is split between its two nearest grid points, and the estimate sums the
// kernel over grid points. The grid spans the points evaluated and
// kernelReach bandwidths beyond, with a spacing of h·binWidth or less
// (unless that takes more than maxBins points), where linear binning's
// error is of order (spacing/h)²/12 ≈ 10⁻⁴ of the estimate. The cost is
// one pass over x plus len(pts)·2·kernelReach/binWidth kernel terms,
// whatever the number of draws.
func binnedKDE(pts plotter.XYs, x []float64, h float64) {
	a := max(pts[0].X-kernelReach*h, -math.MaxFloat64)
	b := min(pts[len(pts)-1].X+kernelReach*h, math.MaxFloat64)
	m := maxBins
	if mf := math.Ceil(b/(h*binWidth)-a/(h*binWidth)) + 1; mf < maxBins {
		m = max(int(mf), len(pts))
	}
	delta := b/float64(m-1) - a/float64(m-1)
	w := make([]float64, m)
	for _, v := range x {
		p := (v - a) / delta
		if !(p >= 0 && p <= float64(m-1)) {
			continue
		}
		k := min(int(p), m-2)
		f := p - float64(k)
		w[k] += 1 - f
		w[k+1] += f
	}
	reach := int(math.Ceil(kernelReach * h / delta))
	for i := range pts {
		t := pts[i].X
		c := int(math.Round((t - a) / delta))
		var s float64
		for g := max(c-reach, 0); g <= min(c+reach, m-1); g++ {
			if w[g] == 0 {
				continue
			}
			z := (t - (a + float64(g)*delta)) / h
			s += w[g] * math.Exp(-0.5*z*z)
		}
		pts[i].Y = s / float64(len(x)) / h / math.Sqrt(2*math.Pi) // in this order, so that a wide h cannot overflow
	}
}

// bandwidth is R's bw.nrd0 of sorted x, made positive for constant draws
// and at least minBandwidth.
func bandwidth(sorted []float64) float64 {
	n := float64(len(sorted))
	// The moments of the draws scaled to at most 1 in size, so that draws
	// near ±MaxFloat64 do not overflow them.
	scale := max(math.Abs(sorted[0]), math.Abs(sorted[len(sorted)-1]))
	if scale == 0 {
		scale = 1
	}
	var mean, ss float64
	for _, v := range sorted {
		mean += v / scale
	}
	mean /= n
	for _, v := range sorted {
		ss += (v/scale - mean) * (v/scale - mean)
	}
	sd := 0.0
	if n > 1 {
		sd = scale * math.Sqrt(ss/(n-1))
	}
	iqr := (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / 1.34
	s := sd
	if iqr > 0 {
		s = math.Min(sd, iqr)
	}
	if !(s > 0) {
		// Constant draws: a narrow spike.
		s = math.Max(math.Abs(sorted[0])*1e-3, 1e-9)
	}
	// At least minBandwidth, so that the density stays finite.
	return max(0.9*s*math.Pow(n, -0.2), minBandwidth)
}

// minBandwidth is the narrowest kernel Density uses: the density of draws
// spread over less would exceed float64's range.
const minBandwidth = 1e-300

// quantile is the type-7 p-quantile of sorted x.
func quantile(x []float64, p float64) float64 {
	h := float64(len(x)-1) * p
	i := int(h)
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (h-float64(i))*(x[i+1]-x[i])
}

// kde is the Gaussian kernel density estimate of x at t with bandwidth h.
func kde(x []float64, t, h float64) float64 {
	var s float64
	for _, v := range x {
		z := (t - v) / h
		s += math.Exp(-0.5 * z * z)
	}
	return s / float64(len(x)) / h / math.Sqrt(2*math.Pi) // in this order, so that a wide h cannot overflow
}
