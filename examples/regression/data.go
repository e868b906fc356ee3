// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
)

// Data is a regression data set: n rows of p predictors (row-major) and
// the response.
type Data struct {
	Name  string
	Names []string  // predictor names, length P
	N, P  int       // rows, predictors
	X     []float64 // N×P, row-major
	Y     []float64 // length N
}

// Row returns predictor row i (read only).
func (d *Data) Row(i int) []float64 { return d.X[i*d.P : (i+1)*d.P] }

// Drop returns a copy of d without the named predictor.
func (d *Data) Drop(name string) (*Data, error) {
	k := -1
	for j, s := range d.Names {
		if s == name {
			k = j
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("%s has no predictor %q", d.Name, name)
	}
	e := &Data{Name: d.Name + "-no" + name, N: d.N, P: d.P - 1, Y: append([]float64(nil), d.Y...)}
	e.Names = append(append([]string(nil), d.Names[:k]...), d.Names[k+1:]...)
	e.X = make([]float64, 0, e.N*e.P)
	for i := range d.N {
		r := d.Row(i)
		e.X = append(e.X, r[:k]...)
		e.X = append(e.X, r[k+1:]...)
	}
	return e, nil
}

// DataDir finds testdata/regression: the directory given, if any, else in
// the repository (see datadir.Find).
func DataDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return datadir.Find("testdata/regression", nil)
}

// LoadBoston reads boston.csv in scikit-learn's format: a first line
// "rows,predictors", a line of quoted column names, then the rows, each
// with the predictors and the response MEDV last.
func LoadBoston(path string) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBoston(f, path)
}

func readBoston(r io.Reader, name string) (*Data, error) {
	sc := bufio.NewScanner(r)
	line := 0
	next := func() (string, bool) {
		for sc.Scan() {
			line++
			if s := strings.TrimSpace(sc.Text()); s != "" {
				return s, true
			}
		}
		return "", false
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, a...))
	}
	s, ok := next()
	if !ok {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return nil, fmt.Errorf("%s: empty file", name)
	}
	head := strings.Split(s, ",")
	if len(head) < 2 {
		return nil, bad("first line %q is not \"rows,predictors\"", s)
	}
	n, err1 := strconv.Atoi(strings.TrimSpace(head[0]))
	p, err2 := strconv.Atoi(strings.TrimSpace(head[1]))
	if err1 != nil || err2 != nil || n <= 0 || p <= 0 {
		return nil, bad("first line %q is not \"rows,predictors\" with positive counts", s)
	}
	s, ok = next()
	if !ok {
		return nil, bad("missing the line of column names")
	}
	names := strings.Split(s, ",")
	if len(names) != p+1 {
		return nil, bad("%d column names, want %d predictors and the response", len(names), p)
	}
	for j := range names {
		names[j] = strings.Trim(strings.TrimSpace(names[j]), `"`)
	}
	d := &Data{Name: "boston", Names: names[:p], N: n, P: p, X: make([]float64, 0, n*p), Y: make([]float64, 0, n)}
	rows := 0
	for {
		s, ok := next()
		if !ok {
			break
		}
		rows++
		if rows > n {
			return nil, bad("more than the %d rows the first line declares", n)
		}
		fields := strings.Split(s, ",")
		if len(fields) != p+1 {
			return nil, bad("%d fields, want %d", len(fields), p+1)
		}
		for j, fs := range fields {
			v, err := parseFinite(fs)
			if err != nil {
				return nil, bad("column %d (%s): %v", j+1, names[j], err)
			}
			if j < p {
				d.X = append(d.X, v)
			} else {
				d.Y = append(d.Y, v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, bad("%v", err)
	}
	if rows != n {
		return nil, fmt.Errorf("%s: %d rows, the first line declares %d", name, rows, n)
	}
	return d, nil
}

// LoadDiabetes reads the diabetes data of Efron et al. (2004) from
// diabetes_raw.txt (10 whitespace-separated predictors a line) and
// diabetes_target.txt (one response a line).
func LoadDiabetes(rawPath, targetPath string) (*Data, error) {
	f, err := os.Open(rawPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	g, err := os.Open(targetPath)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	return readDiabetes(f, rawPath, g, targetPath)
}

// diabetesNames are the predictors of the diabetes data, in file order.
var diabetesNames = []string{"age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"}

func readDiabetes(raw io.Reader, rawName string, target io.Reader, targetName string) (*Data, error) {
	p := len(diabetesNames)
	d := &Data{Name: "diabetes", Names: diabetesNames, P: p}
	err := eachLine(raw, rawName, func(fields []string) error {
		if len(fields) != p {
			return fmt.Errorf("%d fields, want %d", len(fields), p)
		}
		for j, fs := range fields {
			v, err := parseFinite(fs)
			if err != nil {
				return fmt.Errorf("column %d (%s): %v", j+1, diabetesNames[j], err)
			}
			d.X = append(d.X, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachLine(target, targetName, func(fields []string) error {
		if len(fields) != 1 {
			return fmt.Errorf("%d fields, want 1", len(fields))
		}
		v, err := parseFinite(fields[0])
		if err != nil {
			return err
		}
		d.Y = append(d.Y, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.N = len(d.Y)
	if len(d.X) != d.N*p {
		return nil, fmt.Errorf("%s has %d rows but %s has %d", rawName, len(d.X)/p, targetName, d.N)
	}
	if d.N == 0 {
		return nil, fmt.Errorf("%s: no data", rawName)
	}
	return d, nil
}

// eachLine calls f with the whitespace-separated fields of every non-blank
// line, and names the file and line in any error.
func eachLine(r io.Reader, name string, f func([]string) error) error {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if err := f(fields); err != nil {
			return fmt.Errorf("%s:%d: %v", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", name, line, err)
	}
	return nil
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not finite", s)
	}
	return v, nil
}

// Folds returns the test-fold index of every row for one random K-fold
// split of n rows: a uniform permutation cut into K parts whose sizes
// differ by at most one.
func Folds(n, k int, src rand.Source) []int {
	perm := rand.New(src).Perm(n)
	fold := make([]int, n)
	for r, i := range perm {
		fold[i] = r * k / n
	}
	return fold
}

// Design is a training design prepared for the models: predictors centred
// and scaled to unit Euclidean norm on the training rows (the lars
// convention of Efron et al. 2004 and Park & Casella 2008), the response
// centred. The intercept is the training mean of y, with a flat prior,
// integrated out.
type Design struct {
	N, P  int
	X     []float64 // N×P standardised, row-major
	Y     []float64 // centred response
	Mean  []float64 // column means of the raw predictors
	Scale []float64 // raw column norms after centring
	YMean float64
}

// NewDesign standardises the rows of d with train[i] true.
func NewDesign(d *Data, train []bool) (*Design, error) {
	var n int
	for i := range d.N {
		if train == nil || train[i] {
			n++
		}
	}
	p := d.P
	if n <= p+1 {
		return nil, fmt.Errorf("%s: %d training rows for %d predictors", d.Name, n, p)
	}
	s := &Design{N: n, P: p, X: make([]float64, 0, n*p), Y: make([]float64, 0, n), Mean: make([]float64, p), Scale: make([]float64, p)}
	for i := range d.N {
		if train == nil || train[i] {
			s.X = append(s.X, d.Row(i)...)
			s.Y = append(s.Y, d.Y[i])
			s.YMean += d.Y[i]
		}
	}
	s.YMean /= float64(n)
	for i := range s.Y {
		s.Y[i] -= s.YMean
	}
	for j := range p {
		var m float64
		for i := range n {
			m += s.X[i*p+j]
		}
		m /= float64(n)
		var ss float64
		for i := range n {
			v := s.X[i*p+j] - m
			s.X[i*p+j] = v
			ss += v * v
		}
		if ss == 0 {
			return nil, fmt.Errorf("%s: predictor %s is constant on the training rows", d.Name, d.Names[j])
		}
		nrm := math.Sqrt(ss)
		for i := range n {
			s.X[i*p+j] /= nrm
		}
		s.Mean[j], s.Scale[j] = m, nrm
	}
	return s, nil
}

// Predict returns the prediction ȳ + x̃ᵀβ for a raw predictor row x, β in
// the standardised coordinates.
func (s *Design) Predict(x, beta []float64) float64 {
	v := s.YMean
	for j, b := range beta {
		v += b * (x[j] - s.Mean[j]) / s.Scale[j]
	}
	return v
}
