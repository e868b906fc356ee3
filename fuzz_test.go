// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/rng"
	"gonum.org/v1/gonum/mat"
)

// fuzzSentinels are the classes every error of the package wraps.
var fuzzSentinels = []error{ErrNil, ErrDimension, ErrNonFinite, ErrRange, ErrUnsupported, ErrCheckpoint, ErrDivergence}

// fuzzCheckErr fails unless err is a *StepError or wraps a sentinel, with
// a message starting "sgmcmc: ".
func fuzzCheckErr(t *testing.T, what string, err error) {
	t.Helper()
	if !strings.HasPrefix(err.Error(), "sgmcmc: ") {
		t.Fatalf("%s: message %q does not start with \"sgmcmc: \"", what, err)
	}
	var se *StepError
	if errors.As(err, &se) {
		return
	}
	for _, s := range fuzzSentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%s: error %v (%T) wraps no sentinel and is no *StepError", what, err, err)
}

// fuzzModel is a Gaussian model of any dimension (ckModel's likelihood).
type fuzzModel struct{ d, n int }

func (m fuzzModel) Dim() int { return m.d }
func (m fuzzModel) Len() int { return m.n }
func (m fuzzModel) LogPriorGrad(dst, th []float64) {
	for j, x := range th {
		dst[j] -= x
	}
}
func (m fuzzModel) LogLikGrad(dst, th []float64, i int, scale float64) {
	f := float64(i)/float64(m.n) - 0.5
	for j, x := range th {
		dst[j] += scale * (f*float64(j+1) - x) / float64(m.n)
	}
}

// fuzzStep steps s n times with eps and checks the Sampler contract: an
// error is a *StepError (or wraps a sentinel) and leaves the position as
// it was; a success leaves a finite position of length Dim.
func fuzzStep(t *testing.T, name string, s Sampler, eps float64, n int) {
	t.Helper()
	prev := make([]float64, s.Dim())
	for k := range n {
		copy(prev, s.Position())
		if err := s.Step(eps); err != nil {
			fuzzCheckErr(t, name+": Step", err)
			if !equalFloatBits(prev, s.Position()) {
				t.Fatalf("%s: step %d failed (%v) but moved the chain from %v to %v", name, k+1, err, prev, s.Position())
			}
			continue
		}
		p := s.Position()
		if len(p) != s.Dim() {
			t.Fatalf("%s: Position has length %d, Dim %d", name, len(p), s.Dim())
		}
		if i := firstNonFinite(p); i >= 0 {
			t.Fatalf("%s: step %d returned nil with θ[%d] = %v", name, k+1, i, p[i])
		}
	}
}

// FuzzSamplers builds every sampler with random dimensions, hyperparameters
// and initial states (NaN, ±Inf, huge, negative and mismatched included),
// then steps it: construction either fails with a clear error or gives a
// sampler whose steps keep the contract of Sampler, and Run with random
// options either rejects them or runs.
func FuzzSamplers(f *testing.F) {
	f.Add(uint8(0), uint8(2), uint64(1), 0.1, 1.0, 1.0, 0.01, uint8(10), uint8(0))
	f.Add(uint8(1), uint8(3), uint64(2), -0.5, 20.0, 0.5, 0.1, uint8(10), uint8(1))
	f.Add(uint8(4), uint8(1), uint64(3), 1.0, 1.0, 0.3, 1e3, uint8(5), uint8(3))
	f.Add(uint8(7), uint8(4), uint64(4), 0.2, 0.9, 1e-5, 0.05, uint8(19), uint8(6))
	f.Add(uint8(8), uint8(2), uint64(5), 0.2, 3.0, 0.5, 0.01, uint8(19), uint8(5))
	f.Add(uint8(10), uint8(5), uint64(6), 1.0, 2.0, 1.0, 0.1, uint8(7), uint8(0))
	f.Add(uint8(11), uint8(2), uint64(7), 1e300, -1e-300, math.Inf(1), math.NaN(), uint8(3), uint8(255))
	f.Fuzz(func(t *testing.T, kind, dim uint8, seed uint64, a, b, c, eps float64, steps, flags uint8) {
		d := 1 + int(dim%6)
		theta0 := make([]float64, d)
		for i := range theta0 {
			theta0[i] = a + float64(i)*b/8
		}
		if flags&0x80 != 0 {
			theta0 = theta0[:d-1] // empty for d = 1
		}
		src := func() rand.Source { return rand.NewPCG(seed, seed^0x5bd1e995) }
		var g Gradient
		switch flags & 3 {
		case 0:
			g = GradFunc(func(dst, th []float64) {
				for i, x := range th {
					dst[i] = c*x + x*x*x/8
				}
			})
		case 1, 2:
			md := d
			if flags&4 != 0 {
				md = 1 + int(flags>>3&3) // possibly mismatched
			}
			mb, err := NewMinibatch(fuzzModel{md, 20}, 1+int(steps%20), flags&2 != 0, src())
			if err != nil {
				fuzzCheckErr(t, "NewMinibatch", err)
				return
			}
			mb.Noise = flags&8 != 0
			g = mb
		default:
			g = nil
		}
		var s Sampler
		var err error
		switch kind % 14 {
		case 0:
			s, err = NewSGLD(g, theta0, src(), &SGLDSettings{NoiseVar: []float64{b}[:min(1, d)], EstimateNoise: flags&16 != 0})
		case 1:
			s, err = NewSGHMC(g, theta0, src(), &SGHMCSettings{Friction: b, EstimateNoise: flags&16 != 0, ResampleEvery: int(steps % 4), Integrator: integ(flags&32 != 0)})
		case 2:
			s, err = NewSGHMC(g, theta0, src(), &SGHMCSettings{Naive: true})
		case 3:
			xi := c
			s, err = NewSGNHT(g, theta0, src(), &SGNHTSettings{A: b, Xi0: &xi})
		case 4:
			s, err = NewSGRLD(g, theta0, DiagMetricFunc(func(gg, dg, th []float64) {
				for i, x := range th {
					gg[i], dg[i] = b+x*x, 2*x
				}
			}), src(), nil)
		case 5:
			s, err = NewSGRHMC(g, theta0, unitMetric, src(), &SGRHMCSettings{Friction: b})
		case 6:
			s, err = NewSGRLDDense(g, theta0, ckDenseN{d: len(theta0), c: b}, src(), nil)
		case 7:
			s, err = NewPSGLD(g, theta0, src(), &PSGLDSettings{Alpha: b, Lambda: c, DropGamma: true, N: a})
		case 8:
			s, err = NewHAMCMC(g, theta0, src(), &HAMCMCSettings{M: int(steps % 5), Gamma: b, Lambda: c, Naive: flags&32 != 0})
		case 9:
			s, err = NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: len(theta0), C: b}, Z0: theta0, Src: src()})
		case 10:
			s, err = NewSCIR(FixedShape(theta0), theta0, src(), &SCIRSettings{Rate: b, Simplex: int(steps % 3)})
		case 11:
			s, err = NewSGRLDSimplex(FixedShape(theta0), theta0, src(), &SGRLDSimplexSettings{Simplex: int(steps % 3)})
		case 12:
			var est *CountMinibatch
			cat := make(Categorical, 10)
			for i := range cat {
				cat[i] = i % max(1, len(theta0))
			}
			est, err = NewCountMinibatch(theta0, cat, 1+int(steps%10), src())
			if err == nil {
				s, err = NewSCIR(est, theta0, src(), nil)
			}
		default:
			s, err = NewSGRHMCDense(g, theta0, ckDenseN{d: len(theta0), c: b}, src(), nil)
		}
		if err != nil {
			fuzzCheckErr(t, "constructor", err)
			return
		}
		fuzzStep(t, "sampler", s, eps, int(steps%20))
		o := RunOptions{Draws: int(int8(flags)), BurnIn: int(int8(steps)), Thin: int(dim >> 4), Start: int(kind >> 4), Schedule: Constant(eps)}
		if _, _, err := o.check("Run"); err != nil || o.BurnIn+o.Draws*max(o.Thin, 1) > 300 {
			return
		}
		ch, err := Run(context.Background(), s, o)
		if err != nil {
			fuzzCheckErr(t, "Run", err)
		}
		if ch == nil || ch.Dim != s.Dim() || len(ch.Draws) != ch.Len()*ch.Dim {
			t.Fatalf("Run returned a malformed chain %+v", ch)
		}
		if err == nil && ch.Len() != o.Draws {
			t.Fatalf("Run: %d draws, want %d", ch.Len(), o.Draws)
		}
	})
}

// ckDenseN is the constant dense metric c·I + ½ on the first off-diagonal,
// of size d.
type ckDenseN struct {
	d int
	c float64
}

func (m ckDenseN) Dense(g *mat.SymDense, dg []*mat.SymDense, _ []float64) {
	g.Zero()
	for i := range m.d {
		g.SetSym(i, i, m.c)
		if i > 0 {
			g.SetSym(i-1, i, 0.5)
		}
	}
	for _, x := range dg {
		x.Zero()
	}
}

// fuzzReceivers returns the checkpoint receivers of FuzzCheckpoint, each
// stepped a little, by index; nil past the end.
func fuzzReceiver(i int, chacha bool) ckState {
	src := func(s uint64) rand.Source {
		if chacha {
			return rng.ChainSource(s, 1)
		}
		return rand.NewPCG(s, s+1)
	}
	cases := ckCases()
	if i < len(cases) {
		s, _, err := cases[i].build(src(1), src(2))
		if err != nil {
			panic(err)
		}
		return s
	}
	switch i - len(cases) {
	case 0:
		m, _ := NewMinibatch(ckModel{}, 5, false, src(3))
		return m
	case 1:
		m, _ := NewMinibatch(ckModel{}, 5, true, src(3))
		return m
	case 2:
		c, _ := NewCountMinibatch([]float64{1, 2, 3}, Categorical{0, 1, 2, 2, 1}, 3, src(4))
		return c
	case 3:
		c, _ := NewCountMinibatch([]float64{1, 2, 3}, Categorical{0, 1, 2, 2, 1}, 5, src(4))
		return c
	}
	return nil
}

// fuzzReceivers is the number of receivers: the samplers of ckCases and
// the four sources above.
var fuzzReceivers = len(ckCases()) + 4

// FuzzCheckpoint restores random bytes into every sampler and source that
// checkpoints, both as a whole checkpoint (the envelope's checks) and as a
// payload in a valid envelope (the fields' checks). A refused checkpoint
// gives an error wrapping ErrCheckpoint and leaves the receiver as it was;
// an accepted one marshals back to the same bytes and the sampler then
// steps keeping the contract of Sampler.
func FuzzCheckpoint(f *testing.F) {
	for i := range fuzzReceivers {
		r := fuzzReceiver(i, i%2 == 1)
		if s, ok := r.(Sampler); ok {
			for range 7 {
				_ = s.Step(0.01)
			}
		}
		if m, ok := r.(*Minibatch); ok {
			m.Draw()
		}
		cp, err := r.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		head := ckptHeader + int(cp[5])
		f.Add(uint8(i), i%2 == 1, false, cp)
		f.Add(uint8(i), i%2 == 1, true, cp[head:len(cp)-4])
	}
	f.Fuzz(func(t *testing.T, which uint8, chacha, wrap bool, data []byte) {
		i := int(which) % fuzzReceivers
		r := fuzzReceiver(i, chacha)
		if wrap {
			cp, err := r.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			kl := int(cp[5])
			dim := int(binary.LittleEndian.Uint64(cp[6+kl:]))
			data = seal(string(cp[6:6+kl]), dim, data)
		}
		before, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrCheckpoint) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("receiver %d: error %v wraps neither ErrCheckpoint nor ErrUnsupported", i, err)
			}
			fuzzCheckErr(t, "UnmarshalBinary", err)
			if after, _ := r.MarshalBinary(); !bytes.Equal(after, before) {
				t.Fatalf("receiver %d: the refused checkpoint changed the receiver (%v)", i, err)
			}
			return
		}
		again, err := r.MarshalBinary()
		if err != nil {
			t.Fatalf("receiver %d: MarshalBinary after an accepted checkpoint: %v", i, err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("receiver %d: accepted checkpoint does not marshal back to the same bytes\n in  %x\n out %x", i, data, again)
		}
		if s, ok := r.(Sampler); ok {
			fuzzStep(t, "restored sampler", s, 1e-3, 3)
		}
		if m, ok := r.(*Minibatch); ok {
			g := make([]float64, m.Dim())
			m.Grad(g, make([]float64, m.Dim()))
			if i := firstNonFinite(g); i >= 0 {
				t.Fatalf("restored Minibatch: gradient %v", g)
			}
		}
	})
}

// FuzzMinibatch builds Minibatches of random sizes and evaluates GradOn on
// random indices: bad sizes and indices are errors, never panics, and an
// accepted GradOn equals the sum of the per-datum gradients it names.
func FuzzMinibatch(f *testing.F) {
	f.Add(uint8(3), uint8(20), uint8(5), false, []byte{0, 1, 2})
	f.Add(uint8(1), uint8(1), uint8(1), true, []byte{0, 0, 0, 99})
	f.Add(uint8(2), uint8(10), uint8(11), false, []byte{255})
	f.Fuzz(func(t *testing.T, d, n, size uint8, replace bool, idxb []byte) {
		m := fuzzModel{int(d % 5), int(n)}
		mb, err := NewMinibatch(m, int(size), replace, rand.NewPCG(uint64(d), uint64(n)))
		if err != nil {
			fuzzCheckErr(t, "NewMinibatch", err)
			return
		}
		idx := make([]int, len(idxb))
		for k, v := range idxb {
			idx[k] = int(int8(v))
		}
		th := make([]float64, m.d)
		for j := range th {
			th[j] = float64(j) - 0.5
		}
		dst := make([]float64, m.d)
		if err := mb.GradOn(dst, th, idx); err != nil {
			fuzzCheckErr(t, "GradOn", err)
			return
		}
		want := make([]float64, m.d)
		m.LogPriorGrad(want, th)
		for _, i := range idx {
			m.LogLikGrad(want, th, i, float64(m.n)/float64(len(idx)))
		}
		for j := range want {
			if math.Abs(dst[j]+want[j]) > 1e-12*(1+math.Abs(want[j])) {
				t.Fatalf("GradOn = %v, want %v", dst, want)
			}
		}
		mb.Grad(dst, th)
		for _, i := range mb.Indices() {
			if i < 0 || i >= m.n {
				t.Fatalf("Grad drew index %d of %d", i, m.n)
			}
		}
	})
}
