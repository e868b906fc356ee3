// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"reflect"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Draws is one chain of vector-valued draws: Len draws, draw i being At(i),
// all of the same length. It is diagnostics.Draws.
type Draws interface {
	// Len returns the number of draws.
	Len() int
	// At returns draw i, 0 ≤ i < Len().
	At(i int) []float64
}

// palette is the Okabe–Ito colour-blind-safe palette, yellow left out (it
// is hard to see on white).
// The order keeps the first four far apart.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x00, 0x00, 0xff}, // black
}

// ChainColor returns the colour of chain c (0-based) in every plot of the
// package: the Okabe–Ito colour-blind-safe palette, repeating after seven
// chains.
func ChainColor(c int) color.Color {
	return palette[c%len(palette)]
}

// column returns coordinate j of every chain after checking that the chains
// are non-empty, of equal length, of the same dimension > j, and finite.
func column[C Draws](fn string, chains []C, j int) ([][]float64, error) {
	if len(chains) == 0 {
		return nil, fmt.Errorf("plots: %s: no chains", fn)
	}
	var n, d int
	for c, ch := range chains {
		if isNil(ch) {
			return nil, fmt.Errorf("plots: %s: chain %d is nil", fn, c)
		}
		if c == 0 {
			n = ch.Len()
			if n == 0 {
				return nil, fmt.Errorf("plots: %s: chain 0 has no draws", fn)
			}
			d = len(ch.At(0))
		}
		if ch.Len() != n {
			return nil, fmt.Errorf("plots: %s: chain %d has %d draws, chain 0 has %d", fn, c, ch.Len(), n)
		}
	}
	if j < 0 || j >= d {
		return nil, fmt.Errorf("plots: %s: coordinate %d out of range [0, %d)", fn, j, d)
	}
	cols := make([][]float64, len(chains))
	for c, ch := range chains {
		x := make([]float64, n)
		for i := range x {
			draw := ch.At(i)
			if len(draw) != d {
				return nil, fmt.Errorf("plots: %s: chain %d, draw %d has dimension %d, chain 0 has %d", fn, c, i, len(draw), d)
			}
			v := draw[j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("plots: %s: chain %d, draw %d, coordinate %d is %v", fn, c, i, j, v)
			}
			x[i] = v
		}
		cols[c] = x
	}
	return cols, nil
}

// isNil reports whether v is nil or a nil pointer, map, func or channel.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan:
		return r.IsNil()
	}
	return false
}

// newPanel returns a plot with the package's small-panel fonts.
func newPanel(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(9)
		a.Tick.Label.Font.Size = vg.Points(8)
		a.Tick.Marker = shortTicks{}
	}
	return p
}

// shortTicks are gonum/plot's default ticks labelled in the shortest form
// (25, not 25.00).
type shortTicks struct{}

// Ticks returns the default ticks between min and max, relabelled.
func (shortTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'g', 6, 64)
		}
	}
	return ticks
}

// Trace returns the trace plot of coordinate j of chains, named name: its
// value against the draw number, one line per chain in ChainColor(c). The
// chains must have equal length and finite draws.
func Trace[C Draws](chains []C, j int, name string) (*plot.Plot, error) {
	cols, err := column("Trace", chains, j)
	if err != nil {
		return nil, err
	}
	p := newPanel(name, "draw", "")
	for c, x := range cols {
		pts := make(plotter.XYs, len(x))
		for i, v := range x {
			pts[i] = plotter.XY{X: float64(i + 1), Y: v}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("plots: Trace: %w", err)
		}
		l.Color = withAlpha(ChainColor(c), 0xcc)
		l.Width = vg.Points(0.7)
		p.Add(l)
	}
	p.X.Min, p.X.Max = 1, float64(len(cols[0]))
	return p, nil
}

// withAlpha returns c with alpha a, premultiplied.
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	f := float64(a) / 0xff
	return color.RGBA{uint8(float64(r>>8) * f), uint8(float64(g>>8) * f), uint8(float64(b>>8) * f), a}
}

// DefaultBins is the number of rank-histogram bins Rank uses for bins = 0.
const DefaultBins = 20

// Rank returns the rank plots of coordinate j of chains, named name, one
// panel per chain (Vehtari et al. 2021): the draws of all chains are ranked
// together (ties get their average rank) and each panel is the histogram
// of one chain's ranks in bins equal bins of 1 … S, S the number of draws
// in all. The dashed line is the count every bin expects when the chains
// sample the same distribution; the grey band is the central 99% range of
// a bin's count for independent draws (autocorrelated draws scatter more).
// bins = 0 means DefaultBins; bins must not exceed the draws per chain.
func Rank[C Draws](chains []C, j int, name string, bins int) ([]*plot.Plot, error) {
	cols, err := column("Rank", chains, j)
	if err != nil {
		return nil, err
	}
	n := len(cols[0])
	if bins == 0 {
		bins = min(DefaultBins, n)
	}
	if bins < 1 || bins > n {
		return nil, fmt.Errorf("plots: Rank: %d bins for %d draws per chain", bins, n)
	}
	s := float64(len(cols) * n)
	expect := float64(n) / float64(bins)
	half := 2.5758 * math.Sqrt(float64(n)*(1/float64(bins))*(1-1/float64(bins)))
	counts := rankCounts(cols, bins)
	var ymax float64
	for _, cnt := range counts {
		for _, k := range cnt {
			ymax = max(ymax, k)
		}
	}
	ymax = max(ymax, expect+half) * 1.05
	panels := make([]*plot.Plot, len(cols))
	for c := range cols {
		p := newPanel(fmt.Sprintf("%s, chain %d", name, c+1), "rank (all chains)", "draws")
		band, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: expect - half}, {X: s, Y: expect - half}, {X: s, Y: expect + half}, {X: 0, Y: expect + half}})
		if err != nil {
			return nil, fmt.Errorf("plots: Rank: %w", err)
		}
		band.Color = color.Gray{0xe4}
		band.LineStyle.Width = 0
		h := &plotter.Histogram{FillColor: withAlpha(ChainColor(c), 0xb0), LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(0.3)}}
		h.Width = s / float64(bins)
		for k, cnt := range counts[c] {
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(k) * h.Width, Max: float64(k+1) * h.Width, Weight: cnt})
		}
		ref, err := plotter.NewLine(plotter.XYs{{X: 0, Y: expect}, {X: s, Y: expect}})
		if err != nil {
			return nil, fmt.Errorf("plots: Rank: %w", err)
		}
		ref.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		ref.Width = vg.Points(0.8)
		p.Add(band, h, ref)
		p.X.Min, p.X.Max = 0, s
		p.Y.Min, p.Y.Max = 0, ymax
		panels[c] = p
	}
	return panels, nil
}

// rankCounts returns, for each chain, the histogram of the pooled ranks of
// its draws in bins equal bins of (0, S].
func rankCounts(cols [][]float64, bins int) [][]float64 {
	s := float64(len(cols) * len(cols[0]))
	counts := make([][]float64, len(cols))
	for c, r := range pooledRanks(cols) {
		counts[c] = make([]float64, bins)
		for _, v := range r {
			// Rank v in (0, S] falls in bin ⌈v·bins/S⌉ − 1.
			k := min(max(int(math.Ceil(v*float64(bins)/s))-1, 0), bins-1)
			counts[c][k]++
		}
	}
	return counts
}

// pooledRanks returns the ranks 1 … S of the draws of all chains pooled,
// ties given their average rank, in the layout of cols.
func pooledRanks(cols [][]float64) [][]float64 {
	type item struct {
		v    float64
		c, i int
	}
	var all []item
	for c, x := range cols {
		for i, v := range x {
			all = append(all, item{v, c, i})
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].v < all[b].v })
	ranks := make([][]float64, len(cols))
	for c, x := range cols {
		ranks[c] = make([]float64, len(x))
	}
	for a := 0; a < len(all); {
		b := a + 1
		for b < len(all) && all[b].v == all[a].v {
			b++
		}
		r := float64(a+1+b) / 2 // mean of the ranks a+1, …, b
		for _, it := range all[a:b] {
			ranks[it.c][it.i] = r
		}
		a = b
	}
	return ranks
}

// densityPoints is the number of points at which Density evaluates each
// kernel density estimate.
const densityPoints = 256

// Density returns the marginal density plot of coordinate j of chains,
// named name: a Gaussian kernel density estimate of each chain's draws,
// one line per chain in ChainColor(c), all with the bandwidth of R's
// bw.nrd0 rule for the pooled draws, 0.9·min(sd, IQR/1.34)·S^(−1/5). The
// x-axis spans the draws, or their central 99% widened by a fifth each
// side when heavy tails would squash the picture.
func Density[C Draws](chains []C, j int, name string) (*plot.Plot, error) {
	cols, err := column("Density", chains, j)
	if err != nil {
		return nil, err
	}
	var all []float64
	for _, x := range cols {
		all = append(all, x...)
	}
	sort.Float64s(all)
	bw := bandwidth(all)
	lo, hi := densityRange(all, bw)
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
	lo, hi = sorted[0]-3*bw, sorted[len(sorted)-1]+3*bw
	qlo, qhi := quantile(sorted, 0.005), quantile(sorted, 0.995)
	if w := qhi - qlo; w > 0 && hi-lo > 4*w {
		lo, hi = max(lo, qlo-w/5), min(hi, qhi+w/5)
	}
	return lo, hi
}

// densityCurve evaluates the kernel density estimate of x with bandwidth
// bw at densityPoints points spanning [lo, hi].
func densityCurve(x []float64, lo, hi, bw float64) plotter.XYs {
	pts := make(plotter.XYs, densityPoints)
	for k := range pts {
		t := lo + (hi-lo)*float64(k)/float64(densityPoints-1)
		pts[k] = plotter.XY{X: t, Y: kde(x, t, bw)}
	}
	return pts
}

// bandwidth is R's bw.nrd0 of sorted x, made positive for constant draws.
func bandwidth(sorted []float64) float64 {
	n := float64(len(sorted))
	var mean, ss float64
	for _, v := range sorted {
		mean += v
	}
	mean /= n
	for _, v := range sorted {
		ss += (v - mean) * (v - mean)
	}
	sd := 0.0
	if n > 1 {
		sd = math.Sqrt(ss / (n - 1))
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
	return 0.9 * s * math.Pow(n, -0.2)
}

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
	return s / (float64(len(x)) * h * math.Sqrt(2*math.Pi))
}

var errNoPanels = errors.New("plots: no panels")
