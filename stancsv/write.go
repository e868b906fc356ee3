// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Write writes c to w as a CmdStan-style CSV file: the comments, the
// header and one line per draw, values in shortest round-trip form
// (infinities as Inf and -Inf, as R reads them).
func Write(w io.Writer, c *Chain) error {
	if c == nil {
		return errors.New("stancsv: nil chain")
	}
	n, err := c.check()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, m := range c.Comments {
		bw.WriteString("# ")
		bw.WriteString(m.Key)
		if m.Value != "" {
			bw.WriteString(" = ")
			bw.WriteString(m.Value)
		}
		bw.WriteByte('\n')
	}
	var header []string
	if c.LogDensity != nil {
		header = append(header, LogDensityColumn)
	}
	if c.StepSize != nil {
		header = append(header, StepSizeColumn)
	}
	header = append(header, DivergentColumn)
	for _, col := range c.Extra {
		header = append(header, col.Name)
	}
	header = append(header, c.Names...)
	bw.WriteString(strings.Join(header, ","))
	bw.WriteByte('\n')
	var buf []byte
	for i := range n {
		buf = buf[:0]
		if c.LogDensity != nil {
			buf = appendFloat(buf, c.LogDensity[i])
			buf = append(buf, ',')
		}
		if c.StepSize != nil {
			buf = appendFloat(buf, c.StepSize[i])
			buf = append(buf, ',')
		}
		if c.Divergent != nil && c.Divergent[i] {
			buf = append(buf, '1')
		} else {
			buf = append(buf, '0')
		}
		for _, col := range c.Extra {
			buf = append(buf, ',')
			buf = appendFloat(buf, col.Values[i])
		}
		for _, v := range c.At(i) {
			buf = append(buf, ',')
			buf = appendFloat(buf, v)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("stancsv: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("stancsv: %w", err)
	}
	return nil
}

// appendFloat appends v in shortest round-trip form, infinities as R
// writes them.
func appendFloat(buf []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(buf, "Inf"...)
	case math.IsInf(v, -1):
		return append(buf, "-Inf"...)
	}
	return strconv.AppendFloat(buf, v, 'g', -1, 64)
}

// WriteFile writes c to the named file, created or truncated.
func WriteFile(name string, c *Chain) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("stancsv: %w", err)
	}
	if err := Write(f, c); err != nil {
		f.Close()
		return fmt.Errorf("%w (writing %s)", err, name)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("stancsv: %w", err)
	}
	return nil
}
