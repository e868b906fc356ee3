// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// FuzzReadWrite reads arbitrary bytes: Read must not panic, must fail only
// with a *ParseError, and what it accepts must write (Write) and read back
// as the same chain, bit for bit.
func FuzzReadWrite(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []*stancsv.Chain{
		randomChain(rng, 3, 2, true),
		randomChain(rng, 2, 3, false),
		{Names: []string{"x"}, Divergent: []bool{}, Extra: []stancsv.Column{{Name: "energy__", Values: []float64{}}}},
	} {
		var buf bytes.Buffer
		if err := stancsv.Write(&buf, c); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	for _, s := range []string{
		"", "a\n", "a,b", "1,2\n3,4\n", "\uFEFFlp__,a\r\n-1,2\r\n", "# a = b\n#  c\nx,y__\n1,nan\n2,-Inf\n",
		cmdStanHead + cmdStanDraw + "# Elapsed\n" + cmdStanDraw + cmdStanDraw,
		"divergent__,a\n2,0x1p-3\n", "a,b\n1,2\n3", "a,b\r1,2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := stancsv.Read(bytes.NewReader(data))
		if err != nil {
			var pe *stancsv.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := stancsv.Write(&buf, c); err != nil {
			t.Fatalf("Read accepted %q, Write refuses it: %v", data, err)
		}
		got, err := stancsv.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("Read accepted %q but not what Write made of it, %q: %v", data, buf.Bytes(), err)
		}
		sameChain(t, got, c)
	})
}
