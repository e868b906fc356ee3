// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import "gonum.org/v1/plot/plotter"

// TracePoints is the most points Trace draws per chain. A longer chain is
// decimated by the classic min/max rule: its draws are cut into
// TracePoints/2 buckets of consecutive draws, and each bucket is drawn as
// its smallest and largest draw, in the order they occur, at their own
// draw numbers. The line keeps every extreme of the chain, and since the
// full line passes through every value between one bucket's points and
// the next's, a plot narrower than TracePoints/2 pixels shows the same
// band in each pixel column as the full line would, up to a bucket at the
// column's edges. A trace of 4 chains of 10⁶ draws thus takes a fraction
// of a second instead of minutes.
const TracePoints = 4000

// decimate returns the points (i+1, x[i]) of a trace line: all of them if
// len(x) ≤ maxPoints, else the first and then the second of the minimum
// and maximum of each of maxPoints/2 buckets of consecutive draws (one
// point for a bucket whose minimum and maximum are the same draw).
func decimate(x []float64, maxPoints int) plotter.XYs {
	n := len(x)
	if n <= maxPoints {
		pts := make(plotter.XYs, n)
		for i, v := range x {
			pts[i] = plotter.XY{X: float64(i + 1), Y: v}
		}
		return pts
	}
	buckets := maxPoints / 2
	pts := make(plotter.XYs, 0, 2*buckets)
	for b := range buckets {
		lo, hi := b*n/buckets, (b+1)*n/buckets
		imin, imax := lo, lo
		for i := lo + 1; i < hi; i++ {
			if x[i] < x[imin] {
				imin = i
			}
			if x[i] > x[imax] {
				imax = i
			}
		}
		first, second := min(imin, imax), max(imin, imax)
		pts = append(pts, plotter.XY{X: float64(first + 1), Y: x[first]})
		if second != first {
			pts = append(pts, plotter.XY{X: float64(second + 1), Y: x[second]})
		}
	}
	return pts
}
