// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Options configures the figures of SaveTrace, SaveRank and SaveDensity.
// A nil *Options means the zero value.
type Options struct {
	// Title is drawn above the panels; empty means none.
	Title string
	// Params lists the coordinates to plot, one row of panels each, in
	// order; nil means all.
	Params []int
	// Bins is the number of bins of the rank histograms (SaveRank); zero
	// means DefaultBins.
	Bins int
	// PanelWidth and PanelHeight are the size of one panel; zero means a
	// default of each figure (trace panels are wide, rank panels small),
	// and a negative size is an error.
	PanelWidth, PanelHeight vg.Length
}

// SaveTrace writes a figure of trace plots (see Trace) to file, one panel
// per parameter in a single column, with a legend of the chain colours.
// names names every coordinate of the draws (len(names) is their
// dimension); diagnostics.IndexedNames makes theta.1, theta.2, ….
func SaveTrace[C Draws](file string, names []string, chains []C, o *Options) error {
	return saveEach(file, names, chains, o, 1, 7*vg.Inch, 1.5*vg.Inch, "SaveTrace",
		func(j int) ([]*plot.Plot, error) {
			p, err := Trace(chains, j, names[j])
			return []*plot.Plot{p}, err
		})
}

// SaveRank writes a figure of rank plots (see Rank) to file: one row per
// parameter, one panel per chain. names is as for SaveTrace.
func SaveRank[C Draws](file string, names []string, chains []C, o *Options) error {
	bins := 0
	if o != nil {
		bins = o.Bins
	}
	return saveEach(file, names, chains, o, len(chains), 2*vg.Inch, 1.4*vg.Inch, "SaveRank",
		func(j int) ([]*plot.Plot, error) { return Rank(chains, j, names[j], bins) })
}

// SaveDensity writes a figure of marginal densities (see Density) to file,
// three panels per row. names is as for SaveTrace.
func SaveDensity[C Draws](file string, names []string, chains []C, o *Options) error {
	return saveEach(file, names, chains, o, 0, 2.6*vg.Inch, 1.9*vg.Inch, "SaveDensity",
		func(j int) ([]*plot.Plot, error) {
			p, err := Density(chains, j, names[j])
			return []*plot.Plot{p}, err
		})
}

// densityCols is the number of panels per row of SaveDensity.
const densityCols = 3

// saveEach builds the panels of every selected parameter with panels and
// saves them, cols panels per row (0: densityCols panels of any
// parameters per row, one parameter per panel).
func saveEach[C Draws](file string, names []string, chains []C, o *Options, cols int, pw, ph vg.Length, fn string,
	panels func(j int) ([]*plot.Plot, error)) error {
	if o == nil {
		o = &Options{}
	}
	_, d, err := shape(fn, chains)
	if err != nil {
		return err
	}
	if len(names) != d {
		return fmt.Errorf("plots: %s: %d names for draws of dimension %d", fn, len(names), d)
	}
	params := o.Params
	if params == nil {
		params = make([]int, d)
		for j := range params {
			params[j] = j
		}
	}
	if len(params) == 0 {
		return errNoPanels
	}
	var rows [][]*plot.Plot
	for _, j := range params {
		if j < 0 || j >= d {
			return fmt.Errorf("plots: %s: parameter %d out of range [0, %d)", fn, j, d)
		}
		ps, err := panels(j)
		if err != nil {
			return err
		}
		if cols == 0 {
			if len(rows) == 0 || len(rows[len(rows)-1]) == min(densityCols, len(params)) {
				rows = append(rows, nil)
			}
			rows[len(rows)-1] = append(rows[len(rows)-1], ps...)
			continue
		}
		rows = append(rows, ps)
	}
	if o.PanelWidth < 0 || o.PanelHeight < 0 || math.IsNaN(float64(o.PanelWidth)) || math.IsNaN(float64(o.PanelHeight)) {
		return fmt.Errorf("plots: %s: panel size %v × %v, want positive (or zero for the default)", fn, o.PanelWidth, o.PanelHeight)
	}
	if o.PanelWidth > 0 {
		pw = o.PanelWidth
	}
	if o.PanelHeight > 0 {
		ph = o.PanelHeight
	}
	return save(file, rows, pw, ph, o.Title, len(chains))
}

// maxFigureArea is the largest figure save draws, in square inches: about
// 92 million pixels (370 MB) at the 96 dots per inch of .png.
const maxFigureArea = 1e4

// Save writes panels to file as one figure, rows[r][c] in row r, column c
// (rows shorter than the longest leave blank space; nil panels too), each
// panel pw wide and ph high, the figure at most 10⁴ square inches. The
// file name's extension picks the format: .png, .svg, .pdf, .eps, .jpg or
// .tif.
func Save(file string, rows [][]*plot.Plot, pw, ph vg.Length) error {
	return save(file, rows, pw, ph, "", 0)
}

// save writes rows of panels under an optional title and a legend of the
// colours of chains chains (none if chains is 0).
func save(file string, rows [][]*plot.Plot, pw, ph vg.Length, title string, chains int) (err error) {
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return errNoPanels
	}
	if !(pw > 0 && ph > 0) {
		return fmt.Errorf("plots: panel size %v × %v", pw, ph)
	}
	grid := make([][]*plot.Plot, len(rows))
	for i, r := range rows {
		grid[i] = make([]*plot.Plot, cols)
		copy(grid[i], r)
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
	titleStyle := textStyle(13)
	legendStyle := textStyle(10)
	var head vg.Length
	if title != "" {
		head += titleStyle.Rectangle(title).Size().Y + vg.Points(6)
	}
	if chains > 0 {
		head += legendStyle.Rectangle("chain").Size().Y + vg.Points(8)
	}
	w, h := vg.Length(cols)*pw, vg.Length(len(grid))*ph+head
	if area := float64(w/vg.Inch) * float64(h/vg.Inch); !(area <= maxFigureArea) {
		return fmt.Errorf("plots: %s: a figure of %.4g × %.4g inches is larger than %g square inches: plot fewer parameters (Options.Params) or smaller panels", file, w/vg.Inch, h/vg.Inch, float64(maxFigureArea))
	}
	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return fmt.Errorf("plots: %s: %w (use .png, .svg or .pdf)", file, err)
	}
	dc := draw.New(cw)
	y := dc.Max.Y - vg.Points(4)
	if title != "" {
		titleStyle.XAlign, titleStyle.YAlign = draw.XCenter, draw.YTop
		dc.FillText(titleStyle, vg.Point{X: dc.Center().X, Y: y}, title)
		y -= titleStyle.Rectangle(title).Size().Y + vg.Points(4)
	}
	if chains > 0 {
		drawLegend(dc, legendStyle, y, chains)
	}
	area := draw.Crop(dc, 0, 0, 0, -head)
	tiles := draw.Tiles{Rows: len(grid), Cols: cols, PadTop: vg.Points(2), PadBottom: vg.Points(2),
		PadLeft: vg.Points(2), PadRight: vg.Points(8), PadX: vg.Points(10), PadY: vg.Points(8)}
	canvases := plot.Align(grid, tiles, area)
	for i, r := range grid {
		for k, p := range r {
			if p != nil {
				p.Draw(canvases[i][k])
			}
		}
	}
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	defer func() {
		if e := f.Close(); err == nil && e != nil {
			err = fmt.Errorf("plots: %w", e)
		}
	}()
	if _, err := cw.WriteTo(f); err != nil {
		return fmt.Errorf("plots: %s: %w", file, err)
	}
	return nil
}

func textStyle(size float64) text.Style {
	return text.Style{Font: font.From(plot.DefaultFont, vg.Points(size)), Handler: plot.DefaultTextHandler}
}

// drawLegend draws "— chain 1  — chain 2 …" centred with its top at y.
func drawLegend(dc draw.Canvas, sty text.Style, y vg.Length, chains int) {
	const seg, gap, sep = 18, 4, 14 // points
	labels := make([]string, chains)
	var total vg.Length
	for c := range labels {
		labels[c] = fmt.Sprintf("chain %d", c+1)
		total += vg.Points(seg+gap) + sty.Rectangle(labels[c]).Size().X
	}
	total += vg.Points(sep) * vg.Length(chains-1)
	x := dc.Center().X - total/2
	sty.YAlign = draw.YTop
	mid := y - sty.Rectangle("chain").Size().Y/2
	for c, l := range labels {
		ls := draw.LineStyle{Color: ChainColor(c), Width: vg.Points(2.5)}
		dc.StrokeLine2(ls, x, mid, x+vg.Points(seg), mid)
		x += vg.Points(seg + gap)
		dc.FillText(sty, vg.Point{X: x, Y: y}, l)
		x += sty.Rectangle(l).Size().X + vg.Points(sep)
	}
}
