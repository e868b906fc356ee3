// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// A chain of three draws of two parameters, as sgmcmc.Chain holds them
// (Draws row-major, Eps the step sizes), written and read back.
func ExampleWrite() {
	c := &stancsv.Chain{
		Comments: []stancsv.Comment{{Key: "sampler", Value: "SGHMC"}, {Key: "friction", Value: "50"}, {Key: "seed", Value: "1"}},
		Names:    diagnostics.IndexedNames("beta", 2),
		Draws:    []float64{0.1, -1.5, 0.30000000000000004, -1.25, 1.0 / 3, -1},
		StepSize: []float64{1e-3, 1e-3, 1e-3},
	}
	var buf bytes.Buffer
	if err := stancsv.Write(&buf, c); err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(buf.Bytes())
	back, _ := stancsv.Read(&buf)
	seed, _ := back.Lookup("seed")
	fmt.Println("read back:", back.Names, back.At(2), "seed", seed)
	// Output:
	// # sampler = SGHMC
	// # friction = 50
	// # seed = 1
	// stepsize__,divergent__,beta.1,beta.2
	// 0.001,0,0.1,-1.5
	// 0.001,0,0.30000000000000004,-1.25
	// 0.001,0,0.3333333333333333,-1
	// read back: [beta.1 beta.2] [0.3333333333333333 -1] seed 1
}
