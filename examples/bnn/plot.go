// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/sgmcmc-go/sgmcmc/plots"
)

// minBinDigits is the fewest test digits a bin needs to be drawn: the
// accuracy of a bin of a few digits is noise (its ECE weight is as small).
const minBinDigits = 10

// reliabilityPlot draws each method's accuracy against its confidence
// over the ECE's bins of at least minBinDigits digits, with the diagonal
// of perfect calibration, into a PNG file.
func reliabilityPlot(path string, rows []*Row) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Reliability on 2,000 test digits (seed %d; bins of ≥ %d digits)", rows[0].Seed, minBinDigits)
	p.X.Label.Text = "confidence (top predicted probability)"
	p.Y.Label.Text = "accuracy"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return err
	}
	diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(diag)
	p.Legend.Add("perfect calibration", diag)
	for k, r := range rows {
		var pts plotter.XYs
		for b, c := range r.rel.count {
			if c >= minBinDigits {
				pts = append(pts, plotter.XY{X: r.rel.conf[b], Y: r.rel.acc[b]})
			}
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, s.Color = plots.ChainColor(k), plots.ChainColor(k)
		l.Width = vg.Points(1.5)
		p.Add(l, s)
		p.Legend.Add(fmt.Sprintf("%s (ECE %.3f)", r.Method, r.ECE), l, s)
	}
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(5), vg.Points(5)
	return p.Save(5*vg.Inch, 5*vg.Inch, path)
}
