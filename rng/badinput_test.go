// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// TestBadInputRng is the package's catalogue of bad parameters: each case
// must not panic, and must give the documented value (NaN for a
// parameter outside a distribution's domain, the limit at its edges) or
// an error naming the true cause (a substring of the message).
func TestBadInputRng(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	// draws returns a case that draws 200 variates with f from a seeded
	// generator and checks each with ok.
	draws := func(f func(g *rng.Normal) float64, ok func(v float64) bool) func() (string, error) {
		return func() (string, error) {
			g := rng.NewNormal(1, 2)
			for range 200 {
				if v := f(g); !ok(v) {
					return "unexpected value " + strconv.FormatFloat(v, 'g', -1, 64), nil
				}
			}
			return "", nil
		}
	}
	isNaN := func(v float64) bool { return math.IsNaN(v) }
	count := func(v float64) bool { return v >= 0 && v == math.Trunc(v) && !math.IsInf(v, 0) }
	zero := func(v float64) bool { return v == 0 && !math.Signbit(v) }
	gamma := func(a float64) func(*rng.Normal) float64 { return func(g *rng.Normal) float64 { return g.Gamma(a) } }
	logGamma := func(a float64) func(*rng.Normal) float64 { return func(g *rng.Normal) float64 { return g.LogGamma(a) } }
	poisson := func(l float64) func(*rng.Normal) float64 { return func(g *rng.Normal) float64 { return g.Poisson(l) } }
	unmarshal := func(data []byte) func() (string, error) {
		return func() (string, error) {
			g := rng.NewNormal(3, 4)
			before, _ := g.MarshalBinary()
			err := g.UnmarshalBinary(data)
			if after, _ := g.MarshalBinary(); !bytes.Equal(before, after) {
				return "the failed UnmarshalBinary changed the generator", err
			}
			return "", err
		}
	}
	good, _ := rng.NewNormal(5, 6).MarshalBinary()
	edit := func(i int, b byte) []byte {
		d := bytes.Clone(good)
		d[i] = b
		return d
	}
	for _, tc := range []struct {
		name string
		run  func() (string, error) // what is wrong with the value, and the error
		want string                 // a substring of the error; "" if none is due
	}{
		// Gamma: NaN outside (0, MaxFloat64], finite and non-negative inside.
		{"Gamma shape zero", draws(gamma(0), isNaN), ""},
		{"Gamma shape negative zero", draws(gamma(negZero), isNaN), ""},
		{"Gamma shape negative", draws(gamma(-1), isNaN), ""},
		{"Gamma shape NaN", draws(gamma(nan), isNaN), ""},
		{"Gamma shape +Inf", draws(gamma(inf), isNaN), ""},
		{"Gamma shape -Inf", draws(gamma(-inf), isNaN), ""},
		{"Gamma shape MaxFloat64", draws(gamma(math.MaxFloat64), func(v float64) bool { return v > 1e307 && !math.IsInf(v, 0) }), ""},
		{"Gamma shape subnormal", draws(gamma(5e-324), zero), ""},
		{"Gamma shape tiny", draws(gamma(1e-300), func(v float64) bool { return v >= 0 && v < 1e-100 }), ""},
		// LogGamma: NaN outside, finite for shapes from 2.1e-307, −Inf below.
		{"LogGamma shape zero", draws(logGamma(0), isNaN), ""},
		{"LogGamma shape negative", draws(logGamma(-2), isNaN), ""},
		{"LogGamma shape NaN", draws(logGamma(nan), isNaN), ""},
		{"LogGamma shape +Inf", draws(logGamma(inf), isNaN), ""},
		{"LogGamma shape 1e-300", draws(logGamma(1e-300), func(v float64) bool { return v < -1e280 && !math.IsInf(v, 0) }), ""},
		{"LogGamma shape subnormal", draws(logGamma(5e-324), func(v float64) bool { return math.IsInf(v, -1) }), ""},
		{"LogGamma shape MaxFloat64", draws(logGamma(math.MaxFloat64), func(v float64) bool { return math.Abs(v-709.78) < 0.01 }), ""},
		// Poisson: NaN outside [0, MaxPoissonMean], a count inside.
		{"Poisson mean negative", draws(poisson(-1), isNaN), ""},
		{"Poisson mean NaN", draws(poisson(nan), isNaN), ""},
		{"Poisson mean +Inf", draws(poisson(inf), isNaN), ""},
		{"Poisson mean -Inf", draws(poisson(-inf), isNaN), ""},
		{"Poisson mean above MaxPoissonMean", draws(poisson(2*rng.MaxPoissonMean), isNaN), ""},
		{"Poisson mean zero", draws(poisson(0), zero), ""},
		{"Poisson mean negative zero", draws(poisson(negZero), zero), ""},
		{"Poisson mean subnormal", draws(poisson(5e-324), zero), ""},
		{"Poisson mean MaxPoissonMean", draws(poisson(rng.MaxPoissonMean), count), ""},
		{"Poisson mean just below 10", draws(poisson(math.Nextafter(10, 0)), count), ""},
		// Sources and states.
		{"NewNormalFrom nil", func() (string, error) { _, err := rng.NewNormalFrom(nil); return "", err }, "nil source"},
		{"NewNormalFrom typed nil", func() (string, error) { _, err := rng.NewNormalFrom((*rand.PCG)(nil)); return "", err }, "the source (*rand.PCG) panicked"},
		{"NewNormalFrom nil ChaCha8", func() (string, error) { _, err := rng.NewNormalFrom((*rand.ChaCha8)(nil)); return "", err }, "panicked"},
		{"UnmarshalBinary nil", unmarshal(nil), "want 28 bytes starting \"normal:\", got 0 bytes"},
		{"UnmarshalBinary short", unmarshal(good[:27]), "got 27 bytes"},
		{"UnmarshalBinary long", unmarshal(append(bytes.Clone(good), 0)), "got 29 bytes"},
		{"UnmarshalBinary wrong prefix", unmarshal(edit(0, 'N')), "starting \"normal:\""},
		{"UnmarshalBinary bad flag", unmarshal(edit(23, 2)), "buffer flag 2"},
		{"UnmarshalBinary half word without flag", unmarshal(append(append(bytes.Clone(good[:23]), 0), 0, 0, 0, 1)), "buffer flag 0 with half word 0x1"},
		{"Fill nil", func() (string, error) { rng.NewNormal(1, 1).Fill(nil); return "", nil }, ""},
		{"zero Normal", func() (string, error) {
			var g rng.Normal
			if g.Uint64() != rand.NewPCG(0, 0).Uint64() {
				return "the zero Normal is not NewNormal(0, 0)", nil
			}
			return "", nil
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			wrong, err := tc.run()
			if wrong != "" {
				t.Fatal(wrong)
			}
			if tc.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}
