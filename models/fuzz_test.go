// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"strings"
	"testing"
)

// FuzzReadCSV: any text either is refused by ReadCSV or gives a Frame
// whose every column, read as numbers, a factor and a design, gives
// values or an error — never a panic.
func FuzzReadCSV(f *testing.F) {
	f.Add("y,x,g\n1,2,a\n3,4,b\n")
	f.Add("y,x\n1,NA\n")
	f.Add("y,y\n1,2\n")
	f.Add("\"a\nb\",x\n1,2\n")
	f.Fuzz(func(t *testing.T, text string) {
		fr, err := ReadCSV(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, name := range fr.Names() {
			_, _ = fr.Numeric(name)
			_, _, _ = fr.Factor(name)
			_, _, _ = fr.Matrix([]string{name}, nil)
			_, _, _ = fr.Matrix(nil, []string{name})
		}
	})
}
