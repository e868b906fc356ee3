// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/rng"
	"gonum.org/v1/gonum/mat"
)

// ckState is what a checkpoint covers: a sampler or a gradient or shape
// source.
type ckState interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

type ckSampler interface {
	Sampler
	ckState
}

// ckCase builds one sampler with its stateful gradient source (nil if
// none) from the sources of a chain.
type ckCase struct {
	name  string
	eps   float64
	build func(s1, s2 rand.Source) (ckSampler, ckState, error)
}

func ckCases() []ckCase {
	th0 := []float64{0.3, -0.2, 0.1}
	mb := func(src rand.Source, n int, noise bool) (*Minibatch, error) {
		m, err := NewMinibatch(ckModel{}, n, false, src)
		if m != nil {
			m.Noise = noise
		}
		return m, err
	}
	recipe := func(name string, f func(g Gradient, src rand.Source) (*Recipe, error)) ckCase {
		return ckCase{name, 0.01, func(s1, s2 rand.Source) (ckSampler, ckState, error) {
			g, err := mb(s2, 8, true)
			if err != nil {
				return nil, nil, err
			}
			s, err := f(g, s1)
			return s, g, err
		}}
	}
	cat := make(Categorical, 60)
	for i := range cat {
		cat[i] = (i * 7) % 6
	}
	alpha := []float64{0.5, 1, 2, 0.5, 1, 2}
	return []ckCase{
		recipe("SGLD", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGLD(g, th0, src, &SGLDSettings{Precond: []float64{1, 2, 0.5}})
		}),
		recipe("SGHMC", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Friction: 5, EstimateNoise: true, ResampleEvery: 5})
		}),
		recipe("NaiveSGHMC", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Naive: true})
		}),
		recipe("SGNHT", func(g Gradient, src rand.Source) (*Recipe, error) { return NewSGNHT(g, th0, src, nil) }),
		recipe("SGHMC-BAOAB", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Friction: 5, EstimateNoise: true, Integrator: BAOAB{}})
		}),
		recipe("SGHMC-OBABO", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Mass: []float64{1, 2, 0.5}, Integrator: OBABO{}})
		}),
		recipe("SGNHT-BADODAB", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGNHT(g, th0, src, &SGNHTSettings{A: 3, EstimateNoise: true, Integrator: BADODAB{}})
		}),
		recipe("SGRLD", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGRLD(g, th0, unitMetric, src, nil)
		}),
		recipe("SGRLDDense", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGRLDDense(g, th0, ckDense{}, src, nil)
		}),
		recipe("SGRHMC", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGRHMC(g, th0, unitMetric, src, &SGRHMCSettings{Friction: 3})
		}),
		recipe("SGRHMCDense", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewSGRHMCDense(g, th0, ckDense{}, src, nil)
		}),
		recipe("Recipe", func(g Gradient, src rand.Source) (*Recipe, error) {
			return NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 3, C: 1}, Z0: th0, Src: src})
		}),
		{"PSGLD", 0.01, func(s1, s2 rand.Source) (ckSampler, ckState, error) {
			g, err := mb(s2, 8, false)
			if err != nil {
				return nil, nil, err
			}
			s, err := NewPSGLD(g, th0, s1, &PSGLDSettings{DropGamma: true, Alpha: 0.9, Lambda: 0.1, N: 40})
			return s, g, err
		}},
		{"HAMCMC", 0.005, func(s1, s2 rand.Source) (ckSampler, ckState, error) {
			g, err := mb(s2, 8, false)
			if err != nil {
				return nil, nil, err
			}
			s, err := NewHAMCMC(g, th0, s1, &HAMCMCSettings{M: 3, Lambda: 1})
			return s, g, err
		}},
		{"NaiveHAMCMC", 0.005, func(s1, s2 rand.Source) (ckSampler, ckState, error) {
			g, err := mb(s2, 8, false)
			if err != nil {
				return nil, nil, err
			}
			s, err := NewHAMCMC(g, th0, s1, &HAMCMCSettings{Naive: true, Lambda: 1})
			return s, g, err
		}},
		{"SCIR", 0.05, func(s1, s2 rand.Source) (ckSampler, ckState, error) {
			est, err := NewCountMinibatch(alpha, cat, 10, s2)
			if err != nil {
				return nil, nil, err
			}
			s, err := NewSCIR(est, []float64{1, 1, 1, 0, 1, 2}, s1, &SCIRSettings{Simplex: 3})
			return s, est, err
		}},
		{"SGRLDSimplex", 0.01, func(s1, s2 rand.Source) (ckSampler, ckState, error) {
			est, err := NewCountMinibatch(alpha, cat, 10, s2)
			if err != nil {
				return nil, nil, err
			}
			s, err := NewSGRLDSimplex(est, []float64{1, 1, 1, 0, 1, 2}, s1, &SGRLDSimplexSettings{Simplex: 3})
			return s, est, err
		}},
		{"SCIR exact shape", 0.05, func(s1, _ rand.Source) (ckSampler, ckState, error) {
			s, err := NewSCIR(FixedShape{1e-3, 2, 3}, []float64{0.1, 1, 2}, s1, nil)
			return s, nil, err
		}},
	}
}

// ckDense is a constant dense metric G = [[2, .5, 0], [.5, 1, 0], [0, 0, 3]].
type ckDense struct{}

func (ckDense) Dense(g *mat.SymDense, dg []*mat.SymDense, _ []float64) {
	g.Zero()
	g.SetSym(0, 0, 2)
	g.SetSym(0, 1, 0.5)
	g.SetSym(1, 1, 1)
	g.SetSym(2, 2, 3)
	for _, m := range dg {
		m.Zero()
	}
}

// ckSources are the random sources of the checkpoint tests.
var ckSources = []struct {
	name string
	make func(seed uint64) rand.Source
}{
	{"PCG", func(seed uint64) rand.Source { return rand.NewPCG(seed, seed^0xabc) }},
	{"ChaCha8", func(seed uint64) rand.Source { return rng.ChainSource(seed, 3) }},
}

func ckStateOf(s Sampler) []float64 {
	if r, ok := s.(*Recipe); ok {
		return r.State()
	}
	return s.Position()
}

func ckDivs(s Sampler) int {
	dc, ok := s.(DivergenceCounter)
	if !ok {
		return -1
	}
	n, _ := dc.Divergences()
	return n
}

// TestCheckpointResume: for every sampler and each kind of random source,
// a chain checkpointed after k steps (sampler and gradient source) and
// restored into a sampler built from other seeds continues exactly as the
// uninterrupted chain, bit for bit, and its checkpoint marshals back to the
// same bytes.
func TestCheckpointResume(t *testing.T) {
	t.Parallel()
	checkpointResume(t)
}

// TestCheckpointResumeBlocks is TestCheckpointResume with every step split
// into blocks of two coordinates, each with its own generator, as steps
// are from parallelDim coordinates on: the checkpoints carry the blocks'
// generators too. (Not parallel: it changes the package's block sizes.)
func TestCheckpointResumeBlocks(t *testing.T) {
	defer func(p, b int) { parallelMinDim, blockDim = p, b }(parallelMinDim, blockDim)
	parallelMinDim, blockDim = 2, 2
	checkpointResume(t)
}

func checkpointResume(t *testing.T) {
	const after = 40
	for _, c := range ckCases() {
		for _, sk := range ckSources {
			for _, k := range []int{1, 2, 7, 151} {
				a, ag, err := c.build(sk.make(1), sk.make(2))
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				for i := range k {
					if err := a.Step(c.eps); err != nil {
						t.Fatalf("%s/%s: step %d: %v", c.name, sk.name, i+1, err)
					}
				}
				cs, err := a.MarshalBinary()
				if err != nil {
					t.Fatalf("%s/%s: %v", c.name, sk.name, err)
				}
				var cg []byte
				if ag != nil {
					if cg, err = ag.MarshalBinary(); err != nil {
						t.Fatalf("%s/%s: gradient: %v", c.name, sk.name, err)
					}
				}
				b, bg, err := c.build(sk.make(11), sk.make(12))
				if err != nil {
					t.Fatal(err)
				}
				if err := b.UnmarshalBinary(cs); err != nil {
					t.Fatalf("%s/%s k=%d: restore: %v", c.name, sk.name, k, err)
				}
				if bg != nil {
					if err := bg.UnmarshalBinary(cg); err != nil {
						t.Fatalf("%s/%s k=%d: restore gradient: %v", c.name, sk.name, k, err)
					}
					if again, _ := bg.MarshalBinary(); !bytes.Equal(again, cg) {
						t.Errorf("%s/%s k=%d: gradient checkpoint does not marshal back to the same bytes", c.name, sk.name, k)
					}
				}
				if again, _ := b.MarshalBinary(); !bytes.Equal(again, cs) {
					t.Errorf("%s/%s k=%d: checkpoint does not marshal back to the same bytes", c.name, sk.name, k)
				}
				if !equalFloatBits(ckStateOf(a), ckStateOf(b)) {
					t.Fatalf("%s/%s k=%d: restored state differs", c.name, sk.name, k)
				}
				for i := range after {
					ea, eb := a.Step(c.eps), b.Step(c.eps)
					if (ea == nil) != (eb == nil) {
						t.Fatalf("%s/%s k=%d: step %d after restore: errors %v and %v", c.name, sk.name, k, i+1, ea, eb)
					}
					if !equalFloatBits(ckStateOf(a), ckStateOf(b)) {
						t.Fatalf("%s/%s k=%d: step %d after restore: states differ:\n%v\n%v", c.name, sk.name, k, i+1, ckStateOf(a), ckStateOf(b))
					}
				}
				if da, db := ckDivs(a), ckDivs(b); da != db {
					t.Errorf("%s/%s k=%d: divergences %d and %d", c.name, sk.name, k, da, db)
				}
			}
		}
	}
}

func equalFloatBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestCheckpointRejects: a checkpoint of another kind or dimension, a
// truncated one (at every length), one with any single bit flipped, and
// one with stray bytes are all refused with an error wrapping
// ErrCheckpoint, and the receiver is left exactly as it was.
func TestCheckpointRejects(t *testing.T) {
	t.Parallel()
	for _, c := range ckCases() {
		a, ag, err := c.build(rand.NewPCG(1, 2), rand.NewPCG(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		for range 9 {
			if err := a.Step(c.eps); err != nil {
				t.Fatal(err)
			}
		}
		cs, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, bg, _ := c.build(rand.NewPCG(5, 6), rand.NewPCG(7, 8))
		pairs := []struct {
			target ckState
			good   []byte
		}{{b, cs}}
		if ag != nil {
			cg, err := ag.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			pairs = append(pairs, struct {
				target ckState
				good   []byte
			}{bg, cg})
		}
		for _, p := range pairs {
			target, good := p.target, p.good
			before, _ := target.MarshalBinary()
			check := func(what string, data []byte) {
				t.Helper()
				err := target.UnmarshalBinary(data)
				if !errors.Is(err, ErrCheckpoint) {
					t.Fatalf("%s %T: %s: err = %v, want ErrCheckpoint", c.name, target, what, err)
				}
				if now, _ := target.MarshalBinary(); !bytes.Equal(now, before) {
					t.Fatalf("%s %T: %s: the failed restore changed the receiver", c.name, target, what)
				}
			}
			for n := range len(good) {
				check(fmt.Sprintf("truncated to %d bytes", n), good[:n])
			}
			bad := bytes.Clone(good)
			for bit := range 8 * len(good) {
				bad[bit/8] ^= 1 << (bit % 8)
				check(fmt.Sprintf("bit %d flipped", bit), bad)
				bad[bit/8] ^= 1 << (bit % 8)
			}
			check("stray byte", append(bytes.Clone(good), 0))
			if err := target.UnmarshalBinary(good); err != nil {
				t.Fatalf("%s %T: the good checkpoint: %v", c.name, target, err)
			}
		}
	}
}

// TestCheckpointKindAndDimension: the cases of the issue — an SGHMC
// checkpoint into an SGLD of twice the dimension, into an SGRHMC, and a
// checkpoint truncated to 20 bytes — give precise messages.
func TestCheckpointKindAndDimension(t *testing.T) {
	t.Parallel()
	g := GradFunc(testGrad)
	hmc, err := NewSGHMC(g, []float64{0.1, 0.2}, rand.NewPCG(1, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := hmc.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sgld, _ := NewSGLD(g, make([]float64, 4), rand.NewPCG(1, 1), nil)
	sgrhmc, _ := NewSGRHMC(g, []float64{0.1, 0.2}, unitMetric, rand.NewPCG(1, 1), nil)
	hmc3, _ := NewSGHMC(g, make([]float64, 3), rand.NewPCG(1, 1), nil)
	for _, c := range []struct {
		name string
		into ckState
		data []byte
		want string
	}{
		{"SGHMC into SGLD d=4", sgld, cp, `checkpoint of a "SGHMC", cannot restore it into a "SGLD"`},
		{"SGHMC into SGRHMC", sgrhmc, cp, `checkpoint of a "SGHMC", cannot restore it into a "SGRHMC"`},
		{"SGHMC d=2 into SGHMC d=3", hmc3, cp, "checkpoint of dimension 2, the SGHMC has dimension 3"},
		{"truncated to 20 bytes", hmc3, cp[:20], "checkpoint truncated: 20 bytes, its header alone needs 27"},
		{"not a checkpoint", hmc3, []byte("hello, world, this is not it"), "not an sgmcmc checkpoint"},
		{"stray bytes", hmc, append(bytes.Clone(cp), 1, 2), "2 stray bytes"},
	} {
		err := c.into.UnmarshalBinary(c.data)
		if !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrCheckpoint containing %q", c.name, err, c.want)
		}
	}
	// A version this library does not read.
	v := bytes.Clone(cp)
	v[4] = 2
	if err := hmc.UnmarshalBinary(v); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("version 2: err = %v", err)
	}
}

// ckReseal replaces a checkpoint's payload, keeping a valid envelope, so
// that the payload's own checks are exercised.
func ckReseal(t *testing.T, cp []byte, edit func(p []byte) []byte) []byte {
	t.Helper()
	kl := int(cp[5])
	kind := string(cp[6 : 6+kl])
	head := ckptHeader + kl
	dim := int(binary.LittleEndian.Uint64(cp[head-16:]))
	p := bytes.Clone(cp[head : len(cp)-4])
	return seal(kind, dim, edit(p))
}

// TestCheckpointPayloadChecks: payloads in a valid envelope but with
// absurd fields — the step count 0xFF…FB of the issue (which once gave
// Steps() = −5), a NaN in the state, a bad permutation, a non-canonical
// boolean — are refused with a message naming the field.
func TestCheckpointPayloadChecks(t *testing.T) {
	t.Parallel()
	mb, _ := NewMinibatch(ckModel{}, 5, false, rand.NewPCG(1, 1))
	s, err := NewSGHMC(mb, []float64{0.1, 0.2, 0.3}, rand.NewPCG(2, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_ = s.Step(0.01)
	}
	cp, _ := s.MarshalBinary()
	mcp, _ := mb.MarshalBinary()
	// Recipe payload: blocks (8 + 2·8), steps, state length, state…
	const stepsAt = 8 + 2*8
	for _, c := range []struct {
		name   string
		into   ckState
		data   []byte
		substr string
	}{
		{"steps 0xFF…FB", s, ckReseal(t, cp, func(p []byte) []byte {
			binary.LittleEndian.PutUint64(p[stepsAt:], 0xFFFFFFFFFFFFFFFB)
			return p
		}), "step count = -5"},
		{"NaN in the state", s, ckReseal(t, cp, func(p []byte) []byte {
			binary.LittleEndian.PutUint64(p[stepsAt+16:], math.Float64bits(math.NaN()))
			return p
		}), "state[0] = NaN"},
		{"payload cut short", s, ckReseal(t, cp, func(p []byte) []byte { return p[:len(p)-3] }), "ends inside random source"},
		{"payload too long", s, ckReseal(t, cp, func(p []byte) []byte { return append(p, 0) }), "1 stray bytes at the end of the payload"},
		{"wrong block sizes", s, ckReseal(t, cp, func(p []byte) []byte {
			binary.LittleEndian.PutUint64(p[8:], 2)
			return p
		}), "block size 0 = 2"},
		{"bad permutation", mb, ckReseal(t, mcp, func(p []byte) []byte {
			// N, n, replace (1 byte), perm length, perm[0], perm[1]
			copy(p[8+8+1+8+8:], p[8+8+1+8:8+8+1+16])
			return p
		}), "not a permutation"},
		{"non-canonical boolean", mb, ckReseal(t, mcp, func(p []byte) []byte {
			p[16] = 7
			return p
		}), "replacement is the byte 7"},
		{"source not canonical", mb, ckReseal(t, mcp, func(p []byte) []byte {
			p[len(p)-17] = 'X' // inside "pcg:"
			return p
		}), "random source"},
	} {
		before, _ := c.into.MarshalBinary()
		err := c.into.UnmarshalBinary(c.data)
		if !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("%s: err = %v, want ErrCheckpoint containing %q", c.name, err, c.substr)
		}
		if after, _ := c.into.MarshalBinary(); !bytes.Equal(before, after) {
			t.Errorf("%s: the failed restore changed the receiver", c.name)
		}
	}
	if s.Steps() != 3 {
		t.Errorf("Steps = %d after failed restores, want 3", s.Steps())
	}
}

// TestCheckpointHAMCMCSettings: a HAMCMC checkpoint, L-BFGS memory
// included, round-trips, and is refused by a HAMCMC of another M, γ or λ,
// which is left as it was.
func TestCheckpointHAMCMCSettings(t *testing.T) {
	t.Parallel()
	// U = θ₀²/2 + θ₁²: a deterministic gradient, so every pair is exact.
	g := GradFunc(func(dst, theta []float64) { dst[0], dst[1] = theta[0], 2*theta[1] })
	build := func(s *HAMCMCSettings) *HAMCMC {
		h, err := NewHAMCMC(g, []float64{0.5, -0.5}, rand.NewPCG(1, 2), s)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	a := build(&HAMCMCSettings{M: 3, Gamma: 0.5, Lambda: 0.1})
	for range 12 {
		if err := a.Step(0.01); err != nil {
			t.Fatal(err)
		}
	}
	if a.Stats().PairsInUse == 0 {
		t.Fatal("no L-BFGS pair in use: the test checks nothing")
	}
	cp, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b := build(&HAMCMCSettings{M: 3, Gamma: 0.5, Lambda: 0.1})
	if err := b.UnmarshalBinary(cp); err != nil {
		t.Fatal(err)
	}
	if back, _ := b.MarshalBinary(); !bytes.Equal(back, cp) {
		t.Error("restored HAMCMC marshals to other bytes")
	}
	if a.Stats() != b.Stats() {
		t.Errorf("stats %+v, restored %+v", a.Stats(), b.Stats())
	}
	for _, c := range []struct {
		s      HAMCMCSettings
		substr string
	}{
		{HAMCMCSettings{M: 2, Gamma: 0.5, Lambda: 0.1}, "memory M"},
		{HAMCMCSettings{M: 3, Gamma: 1, Lambda: 0.1}, "L-BFGS γ"},
		{HAMCMCSettings{M: 3, Gamma: 0.5}, "L-BFGS λ"},
	} {
		o := build(&c.s)
		before, _ := o.MarshalBinary()
		if err := o.UnmarshalBinary(cp); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("HAMCMC %+v: err = %v, want ErrCheckpoint containing %q", c.s, err, c.substr)
		}
		if after, _ := o.MarshalBinary(); !bytes.Equal(before, after) {
			t.Errorf("HAMCMC %+v: the failed restore changed the receiver", c.s)
		}
	}
}

// TestCheckpointUnsupportedSource: a gradient whose source has no
// MarshalBinary cannot checkpoint; a sampler always can, since its source
// only seeds the generator whose state the checkpoint keeps.
func TestCheckpointUnsupportedSource(t *testing.T) {
	t.Parallel()
	for _, c := range ckCases() {
		s, g, err := c.build(plainSource{}, plainSource{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.MarshalBinary(); err != nil {
			t.Errorf("%s: err = %v, want none", c.name, err)
		}
		if g != nil {
			if _, err := g.MarshalBinary(); !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s gradient: err = %v, want ErrUnsupported", c.name, err)
			}
		}
	}
}
