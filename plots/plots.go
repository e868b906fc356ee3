// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"reflect"
	"slices"
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

// shape checks that chains are non-empty, non-nil and of equal length,
// and returns their number of draws and dimension (that of chain 0's first
// draw, which must be positive). A panic in a chain's Len or At becomes an
// error.
func shape[C Draws](fn string, chains []C) (n, d int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, d, err = 0, 0, fmt.Errorf("plots: %s: a chain's Len or At panicked: %v", fn, r)
		}
	}()
	if len(chains) == 0 {
		return 0, 0, fmt.Errorf("plots: %s: no chains", fn)
	}
	for c, ch := range chains {
		if isNil(ch) {
			return 0, 0, fmt.Errorf("plots: %s: chain %d is nil", fn, c)
		}
		l := ch.Len()
		if l < 0 {
			return 0, 0, fmt.Errorf("plots: %s: chain %d has Len() = %d", fn, c, l)
		}
		if c == 0 {
			if n = l; n == 0 {
				return 0, 0, fmt.Errorf("plots: %s: chain 0 has no draws", fn)
			}
			if d = len(ch.At(0)); d == 0 {
				return 0, 0, fmt.Errorf("plots: %s: chain 0: draw 0 is empty (a chain whose draws are fewer than its Len()?)", fn)
			}
		}
		if l != n {
			return 0, 0, fmt.Errorf("plots: %s: chain %d has %d draws, chain 0 has %d", fn, c, l, n)
		}
	}
	return n, d, nil
}

// column returns coordinate j of every chain after checking the chains
// (shape), that j is below their dimension, that every draw has that
// dimension, and that the values are finite. A panic in a chain's Len or
// At becomes an error.
func column[C Draws](fn string, chains []C, j int) (cols [][]float64, err error) {
	n, d, err := shape(fn, chains)
	if err != nil {
		return nil, err
	}
	if j < 0 || j >= d {
		return nil, fmt.Errorf("plots: %s: coordinate %d out of range [0, %d)", fn, j, d)
	}
	defer func() {
		if r := recover(); r != nil {
			cols, err = nil, fmt.Errorf("plots: %s: a chain's At panicked: %v", fn, r)
		}
	}()
	cols = make([][]float64, len(chains))
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
// chains must have equal length and finite draws whose range is finite.
// Chains longer than TracePoints draws are decimated (see TracePoints).
func Trace[C Draws](chains []C, j int, name string) (*plot.Plot, error) {
	cols, err := column("Trace", chains, j)
	if err != nil {
		return nil, err
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range cols {
		for _, v := range x {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if math.IsInf(hi-lo, 0) {
		return nil, fmt.Errorf("plots: Trace: the draws' range (%v to %v) overflows float64", lo, hi)
	}
	p := newPanel(name, "draw", "")
	for c, x := range cols {
		// The line goes in pieces of traceRun points, each stroked on
		// its own: the rasterizer's cost grows with the square of the
		// segments of one path that cross a pixel row.
		pts := decimate(x, TracePoints)
		for i := 0; i < len(pts); i += traceRun - 1 {
			l, err := plotter.NewLine(pts[i:min(i+traceRun, len(pts))])
			if err != nil {
				return nil, fmt.Errorf("plots: Trace: %w", err)
			}
			l.Color = withAlpha(ChainColor(c), 0xcc)
			l.Width = vg.Points(0.7)
			p.Add(l)
			if i+traceRun >= len(pts) {
				break
			}
		}
	}
	p.X.Min, p.X.Max = 1, float64(len(cols[0]))
	return p, nil
}

// traceRun is the number of points of a trace line stroked as one path.
const traceRun = 64

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
	if n > math.MaxInt32 || len(cols) > math.MaxInt32 {
		return nil, fmt.Errorf("plots: Rank: %d chains of %d draws, more than Rank can index (2³¹ − 1)", len(cols), n)
	}
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
		c, i int32
	}
	all := make([]item, 0, len(cols)*len(cols[0]))
	for c, x := range cols {
		for i, v := range x {
			all = append(all, item{v, int32(c), int32(i)})
		}
	}
	slices.SortFunc(all, func(a, b item) int { return cmp.Compare(a.v, b.v) })
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

var errNoPanels = errors.New("plots: no panels")
