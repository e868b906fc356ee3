// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen: any bytes on disk are refused by Open (ErrCorrupt, or a read
// error) or open as a dataset whose rows read back — never a panic, never
// an allocation the header alone asks for beyond the file's size.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "good.bin")
	w, err := Create(good, []string{"a", "b"}, 4)
	if err != nil {
		f.Fatal(err)
	}
	_ = w.Write([]float64{1, 2})
	_ = w.Write([]float64{3, 4})
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	b, _ := os.ReadFile(good)
	f.Add(b)
	f.Add(b[:20])
	f.Add([]byte("SGMCDATA"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.bin")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Open(p, true)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Logf("not ErrCorrupt: %v", err)
			}
			return
		}
		defer d.Close()
		if d.Rows() > 0 {
			dst := make([]float64, d.Cols())
			if err := d.Read(dst, []int{d.Rows() - 1}); err != nil {
				t.Fatalf("last row of an open file: %v", err)
			}
		}
	})
}
