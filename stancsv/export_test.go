// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import "io"

// ReadMax is Read with lines limited to maxLine bytes instead of
// MaxLineLen, so that tests can reach the limit with short inputs.
func ReadMax(r io.Reader, maxLine int) (*Chain, error) { return read(r, "", maxLine) }
