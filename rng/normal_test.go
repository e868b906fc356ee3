// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"bytes"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUint64MatchesPCG checks that Uint64 and Float64 give exactly what
// math/rand/v2 gives on rand.NewPCG with the same seeds.
func TestUint64MatchesPCG(t *testing.T) {
	for _, s := range [][2]uint64{{0, 0}, {1, 2}, {0xdeadbeef, 1 << 63}, {math.MaxUint64, math.MaxUint64}} {
		g := NewNormal(s[0], s[1])
		r := rand.New(rand.NewPCG(s[0], s[1]))
		for i := range 1000 {
			if i%3 == 2 {
				if a, b := g.Float64(), r.Float64(); a != b {
					t.Fatalf("seed %v draw %d: Float64 %v, rand.Rand.Float64 %v", s, i, a, b)
				}
				continue
			}
			if a, b := g.Uint64(), r.Uint64(); a != b {
				t.Fatalf("seed %v draw %d: Uint64 %#x, PCG %#x", s, i, a, b)
			}
		}
	}
	var zero Normal
	if a, b := zero.Uint64(), rand.NewPCG(0, 0).Uint64(); a != b {
		t.Errorf("zero Normal: Uint64 %#x, NewPCG(0, 0) %#x", a, b)
	}
}

// drawNorms returns n draws made with Norm.
func drawNorms(g *Normal, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = g.Norm()
	}
	return x
}

// TestFillMatchesNorm checks that any sequence of Fill calls, of any
// lengths and interleaved with Uint64 and Float64, gives the values of the
// same sequence of Norm calls, bit for bit, and leaves the same state. The
// draws are many enough to take the wedge and tail paths.
func TestFillMatchesNorm(t *testing.T) {
	n := 400000
	if testing.Short() {
		n = 50000
	}
	lengths := []int{0, 1, 2, 3, 1, 0, 7, 64, 5, 1000, 1, 2, 4099}
	g1, g2 := NewNormal(7, 11), NewNormal(7, 11)
	buf := make([]float64, 4099)
	tails, slows := 0, 0
	for done, k := 0, 0; done < n; k++ {
		l := lengths[k%len(lengths)]
		got := buf[:l]
		g1.Fill(got)
		want := drawNorms(g2, l)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("call %d (length %d) element %d: Fill %v, Norm %v", k, l, i, got[i], want[i])
			}
			if a := math.Abs(got[i]); a > zigR {
				tails++
			} else if a > zigX[128] {
				slows++
			}
		}
		done += l
		if k%5 == 4 {
			if a, b := g1.Uint64(), g2.Uint64(); a != b {
				t.Fatalf("call %d: Uint64 after Fill %#x, after Norm %#x", k, a, b)
			}
			if a, b := g1.Float64(), g2.Float64(); a != b {
				t.Fatalf("call %d: Float64 after Fill %v, after Norm %v", k, a, b)
			}
		}
	}
	if *g1 != *g2 {
		t.Errorf("states differ after the same draws: %+v and %+v", *g1, *g2)
	}
	if !testing.Short() && tails < 20 {
		t.Errorf("only %d tail draws in %d: the test does not reach the tail path", tails, n)
	}
}

// TestFixedSequence pins the output for seed (1, 2). A change here changes
// every chain the library runs: make it deliberately.
func TestFixedSequence(t *testing.T) {
	g := NewNormal(1, 2)
	want := []float64{
		-0.9188909491948241, -1.150084902436567, 0.048988328105693334, -0.7594435679460925,
		0.28462186945608237, 2.469292688643816, -0.9687700329699462, 0.6880965831981077,
	}
	got := drawNorms(g, len(want))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("draw %d: got %v, want %v", i, got[i], want[i])
		}
	}
	// The same values from the documented bit layout, where the fast path
	// applies: half word h of the PCG stream (low half first), layer h&0xff,
	// sign bit 8, position m = h>>9, value ±(2m+1)·zigX[layer]/2²⁴ if
	// 2m+1 < 2²⁴·zigX[layer+1]/zigX[layer].
	p := rand.NewPCG(1, 2)
	for i := 0; i < len(want); i += 2 {
		u := p.Uint64()
		for j, h := range []uint32{uint32(u), uint32(u >> 32)} {
			layer, m := int(h&0xff), float64(h>>9)
			if (2*m+1)*zigX[layer] >= 0x1p24*zigX[layer+1] {
				t.Fatalf("draw %d is not on the fast path; pick another seed", i+j)
			}
			x := (2*m + 1) * zigX[layer] * 0x1p-24
			if h&0x100 != 0 {
				x = -x
			}
			if x != want[i+j] {
				t.Errorf("draw %d: from the bit layout %v, want %v", i+j, x, want[i+j])
			}
		}
	}
	// A hash of the next million draws, which take the wedge and tail paths
	// thousands of times, and the word that follows them.
	h := fnv.New64a()
	x := make([]float64, 1000)
	var b [8]byte
	for range 1000 {
		g.Fill(x)
		for _, v := range x {
			u := math.Float64bits(v)
			for j := range b {
				b[j] = byte(u >> (8 * j))
			}
			h.Write(b[:])
		}
	}
	if got, want := h.Sum64(), uint64(0xdd880214e7fbb8c6); got != want {
		t.Errorf("hash of draws 8 to 1000007: got %#x, want %#x", got, want)
	}
	if got, want := g.Uint64(), uint64(0x2b2f06d9566f0a3e); got != want {
		t.Errorf("next word: got %#x, want %#x", got, want)
	}
}

// TestMarshal checks that a restored generator continues exactly, with and
// without a buffered half word, and that bad encodings are refused.
func TestMarshal(t *testing.T) {
	for _, skip := range []int{0, 1, 2, 3, 1001} {
		g := NewNormal(3, 5)
		drawNorms(g, skip)
		data, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		app, _ := g.AppendBinary([]byte("x"))
		if !bytes.Equal(app[1:], data) {
			t.Errorf("skip %d: AppendBinary and MarshalBinary differ", skip)
		}
		var h Normal
		if err := h.UnmarshalBinary(data); err != nil {
			t.Fatalf("skip %d: %v", skip, err)
		}
		if h != *g {
			t.Fatalf("skip %d: restored %+v, want %+v", skip, h, *g)
		}
		a, b := make([]float64, 999), drawNorms(&h, 999)
		g.Fill(a)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("skip %d: draw %d after restore %v, want %v", skip, i, b[i], a[i])
			}
		}
	}
	good, _ := NewNormal(1, 1).MarshalBinary()
	flag := append([]byte(nil), good...)
	flag[len(marshalPrefix)+16] = 2
	stray := append([]byte(nil), good...)
	stray[len(good)-1] = 1
	for name, data := range map[string][]byte{
		"empty":          nil,
		"short":          good[:len(good)-1],
		"long":           append(append([]byte(nil), good...), 0),
		"prefix":         append([]byte("pcg:xxx"), good[len(marshalPrefix):]...),
		"flag":           flag,
		"stray half":     stray,
		"a PCG encoding": func() []byte { b, _ := rand.NewPCG(1, 1).MarshalBinary(); return b }(),
	} {
		var g Normal
		err := g.UnmarshalBinary(data)
		if err == nil || !strings.HasPrefix(err.Error(), "rng: invalid Normal encoding") {
			t.Errorf("%s: got error %v", name, err)
		}
		if g != (Normal{}) {
			t.Errorf("%s: a failed UnmarshalBinary changed the generator", name)
		}
	}
}

func TestSeeding(t *testing.T) {
	if _, err := NewNormalFrom(nil); err == nil {
		t.Error("NewNormalFrom(nil): no error")
	}
	key := [32]byte{1, 2, 3}
	g, err := NewNormalFrom(rand.NewChaCha8(key))
	if err != nil {
		t.Fatal(err)
	}
	c := rand.NewChaCha8(key)
	if want := NewNormal(c.Uint64(), c.Uint64()); *g != *want {
		t.Errorf("NewNormalFrom: state %+v, want %+v", *g, *want)
	}
	g.Norm()
	g.Seed(4, 9)
	if *g != *NewNormal(4, 9) {
		t.Errorf("Seed did not reset the state and buffer: %+v", *g)
	}
}

func TestAllocs(t *testing.T) {
	g := NewNormal(1, 1)
	x := make([]float64, 1001)
	var sink float64
	for name, f := range map[string]func(){
		"Fill":    func() { g.Fill(x) },
		"Norm":    func() { sink += g.Norm() },
		"Uint64":  func() { sink += float64(g.Uint64()) },
		"Float64": func() { sink += g.Float64() },
	} {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
	_ = sink
}
