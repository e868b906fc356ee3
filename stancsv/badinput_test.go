// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// cmdStanHead is the start of a CmdStan output file: its configuration
// comments (4 lines) and the NUTS header (line 5).
const cmdStanHead = `# stan_version_major = 2
# method = sample (Default)
#     num_samples = 3
#     algorithm = hmc (Default)
lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,theta
`

// cmdStanDraw is one draw of cmdStanHead's columns.
const cmdStanDraw = "-7.1,0.88,0.93,1,3,0,7.2,0.37\n"

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestBadInputStancsv is the package's catalogue of bad input: each case
// must not panic, must fail with an error naming the true cause (a
// substring of the message) and, for a read, the line, or must give the
// documented value.
func TestBadInputStancsv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	read := func(text string) func() (*stancsv.Chain, error) {
		return func() (*stancsv.Chain, error) { return stancsv.Read(strings.NewReader(text)) }
	}
	readMax := func(text string, max int) func() (*stancsv.Chain, error) {
		return func() (*stancsv.Chain, error) { return stancsv.ReadMax(strings.NewReader(text), max) }
	}
	write := func(c *stancsv.Chain) func() (*stancsv.Chain, error) {
		return func() (*stancsv.Chain, error) { return nil, stancsv.Write(io.Discard, c) }
	}
	good := func(edit func(c *stancsv.Chain)) *stancsv.Chain {
		c := &stancsv.Chain{Names: []string{"a", "b"}, Draws: []float64{1, 2, 3, 4}}
		edit(c)
		return c
	}
	long := strings.Repeat("x", 100)
	const noLine = -1 // the error is not a *ParseError
	for _, tc := range []struct {
		name string
		run  func() (*stancsv.Chain, error)
		want string // a substring of the error; "" if none is due
		line int    // the *ParseError's line, or noLine
		ok   func(c *stancsv.Chain) bool
	}{
		// Missing, numeric or damaged headers.
		{"empty input", read(""), "empty input", 0, nil},
		{"blank lines only", read("\n\n"), "no header line", 2, nil},
		{"comments only", read("# a = b\n# c\n"), "ends in its comment block", 2, nil},
		{"truncated in a comment", read("# a = b\n# c = "), "ends in its comment block", 2, nil},
		{"header missing", read("1,2\n3,4\n"), "a number: the header line is missing", 1, nil},
		{"header missing CmdStan draws", read("# model = m\n" + cmdStanDraw + cmdStanDraw), `column 1 is named "-7.1", a number`, 2, nil},
		{"header missing after blank lines", read("\n\n0.5,-1e-3\n"), "header line is missing", 3, nil},
		{"one numeric name", read("a,2,c\n1,2,3\n"), `column 2 is named "2", a number`, 1, nil},
		{"name Inf", read("a,Inf\n1,2\n"), `"Inf", a number`, 1, nil},
		{"name NaN", read("nan,b\n1,2\n"), `"nan", a number`, 1, nil},
		{"name beyond range", read("1e400,b\n1,2\n"), `"1e400", a number`, 1, nil},
		{"name hexadecimal float", read("0x1p-3\n1\n"), "a number", 1, nil},
		{"repeated column", read("a,b,a\n1,2,3\n"), `"a" appears twice`, 1, nil},
		{"empty column name", read("a,,b\n"), "column 2: empty name", 1, nil},
		{"quoted names", read("\"a\",\"b\"\n1,2\n"), "a quote", 1, nil},
		{"sampler columns only", read("lp__,stepsize__\n1,2\n"), "names no parameters", 1, nil},
		{"CmdStan header short of its columns", read(strings.Replace(cmdStanHead, "treedepth__,n_leapfrog__,", "", 1) + "-7.1,0.88,0.93,0,7.2,0.37\n"),
			"lack treedepth__,n_leapfrog__", 5, nil},
		{"CmdStan header cut mid-name", read(cmdStanHead[:strings.Index(cmdStanHead, "n_leap")] + "n_le"), "ends inside its header line", 5, nil},
		// Byte-order marks.
		{"BOM before lp__", read("\uFEFFlp__,a\n-1.5,2\n"), "", 0, func(c *stancsv.Chain) bool {
			return len(c.LogDensity) == 1 && c.LogDensity[0] == -1.5 && len(c.Extra) == 0 && c.Names[0] == "a"
		}},
		{"BOM before a comment", read("\uFEFF# seed = 1\na\n1\n"), "", 0, func(c *stancsv.Chain) bool {
			v, ok := c.Lookup("seed")
			return ok && v == "1"
		}},
		{"BOM with CRLF", read("\uFEFFlp__,a\r\n-1,2\r\n"), "", 0, func(c *stancsv.Chain) bool { return len(c.LogDensity) == 1 && c.Len() == 1 }},
		{"second BOM in a name", read("\uFEFF\uFEFFlp__,a\n1,2\n"), "byte-order mark", 1, nil},
		{"BOM inside the header", read("a,\uFEFFb\n1,2\n"), "byte-order mark", 1, nil},
		// Truncation.
		{"truncated in the header", read("# a = b\nlp__,stepsize__,divergent__,the"), "ends inside its header line", 2, nil},
		{"truncated after the header name", read("a,b"), "ends inside its header line", 1, nil},
		{"truncated in CmdStan adaptation comments", read(cmdStanHead + "# Adaptation terminated\n# Step size = 0.9"),
			"0 draws, but the comments claim at least 3", 7, nil},
		{"truncated at a line break in CmdStan draws", read(cmdStanHead + cmdStanDraw + cmdStanDraw), "2 draws, but the comments claim at least 3", 7, nil},
		{"CmdStan warmup saved but cut", read(strings.Replace(cmdStanHead, "# method", "#     save_warmup = 1\n#     num_warmup = 2\n# method", 1) + strings.Repeat(cmdStanDraw, 4)),
			"claim at least 5", 11, nil},
		{"truncated in a draw", read("a,b\n1,2\n3"), "1 values, the header (line 1) has 2 columns: a truncated or damaged line", 3, nil},
		{"truncated in a number", read("a,b\n1,2\n3,4e"), `column 2 (b): "4e" is not a number`, 3, nil},
		{"truncated in a CmdStan draw", read(cmdStanHead + cmdStanDraw + cmdStanDraw[:9]), "2 values, the header (line 5) has 8 columns", 7, nil},
		{"header without line break but draws", read("a,b\n1,2"), "", 0, func(c *stancsv.Chain) bool { return c.Len() == 1 }},
		{"header only", read("a,b\n"), "", 0, func(c *stancsv.Chain) bool { return c.Len() == 0 && len(c.Divergent) == 0 }},
		// Ragged rows and bad values.
		{"first draw longer than the header", read("a,b\n1,2,3\n"), "3 values, the header (line 1) has 2 columns: a truncated header", 2, nil},
		{"later draw too long", read("a,b\n1,2\n1,2,3\n"), "3 values, the header (line 1) has 2 columns: a truncated or damaged line", 3, nil},
		{"later draw too short", read("# c\na,b,c\n1,2,3\n\n4,5\n"), "2 values, the header (line 2) has 3 columns", 5, nil},
		{"not a number", read("# x\na,b\n1,2\n1,two\n"), `column 2 (b): "two" is not a number`, 4, nil},
		{"empty value", read("a,b,c\n1,,3\n"), `column 2 (b): "" is not a number`, 2, nil},
		{"R's NA", read("lp__,a\nNA,1\n"), `column 1 (lp__): "NA" is not a number`, 2, nil},
		{"value beyond range", read("a,b\n1,1e400\n"), `"1e400" is beyond float64's range`, 2, nil},
		{"bad divergent__", read("divergent__,a\nyes,1\n"), "column 1 (divergent__)", 2, nil},
		{"bad extra column", read("a,energy__\n1,x\n"), "column 2 (energy__)", 2, nil},
		{"carriage return inside a line", read("a,b\r1,2\n"), "carriage return inside the line", 1, nil},
		{"carriage return in a comment", read("# a\rb\nx\n1\n"), "carriage return", 1, nil},
		// Over-long lines.
		{"over-long header", readMax(long+"\n1\n", 64), "line longer than 64 bytes", 1, nil},
		{"over-long draw", readMax("a\n1\n"+long+"\n", 64), "line longer than 64 bytes", 3, nil},
		{"over-long comment", readMax("# a\n# "+long+"\na\n", 64), "line longer than 64 bytes", 2, nil},
		{"over-long last line", readMax("a\n1\n"+long, 64), "line longer than 64 bytes", 3, nil},
		{"line at the limit", readMax("a\n"+strings.Repeat("1", 64)+"\n", 64), "", 0, func(c *stancsv.Chain) bool { return c.Len() == 1 }},
		// Readers and files.
		{"nil reader", func() (*stancsv.Chain, error) { return stancsv.Read(nil) }, "nil reader", 0, nil},
		{"reader fails at once", func() (*stancsv.Chain, error) { return stancsv.Read(iotest.ErrReader(errors.New("device gone"))) }, "reading: device gone", 1, nil},
		{"reader fails in the draws", func() (*stancsv.Chain, error) {
			return stancsv.Read(io.MultiReader(strings.NewReader("a,b\n1,2\n"), iotest.ErrReader(errors.New("device gone"))))
		}, "reading: device gone", 3, nil},
		{"file truncated in its header", func() (*stancsv.Chain, error) { return stancsv.ReadFile(file("cut.csv", "# a\nlp__,x")) }, "cut.csv:2: the file ends inside its header", 2, nil},
		{"file missing", func() (*stancsv.Chain, error) { return stancsv.ReadFile(filepath.Join(dir, "absent.csv")) }, "no such file", noLine, nil},
		{"file is a directory", func() (*stancsv.Chain, error) { return stancsv.ReadFile(dir) }, "is a directory", 1, nil},
		{"no files", func() (*stancsv.Chain, error) { _, err := stancsv.ReadFiles(); return nil, err }, "no files", noLine, nil},
		{"files of different parameters", func() (*stancsv.Chain, error) {
			_, err := stancsv.ReadFiles(file("ab.csv", "a,b\n1,2\n"), file("ac.csv", "a,c\n1,2\n"))
			return nil, err
		}, "ac.csv: parameters a,c differ from those of", noLine, nil},
		{"files one of them broken", func() (*stancsv.Chain, error) {
			_, err := stancsv.ReadFiles(file("ok.csv", "a,b\n1,2\n"), file("bad.csv", "a,b\n1\n"))
			return nil, err
		}, "bad.csv:2: 1 values", 2, nil},
		// Writing what Read would refuse.
		{"write nil chain", write(nil), "nil chain", noLine, nil},
		{"write numeric name", write(good(func(c *stancsv.Chain) { c.Names[1] = "2" })), `name "2" is a number`, noLine, nil},
		{"write name NaN", write(good(func(c *stancsv.Chain) { c.Names[0] = "NaN" })), "is a number", noLine, nil},
		{"write BOM in a name", write(good(func(c *stancsv.Chain) { c.Names[0] = "\uFEFFa" })), "byte-order mark", noLine, nil},
		{"write comma in a name", write(good(func(c *stancsv.Chain) { c.Names[0] = "a,b" })), "comma", noLine, nil},
		{"write sampler-column name", write(good(func(c *stancsv.Chain) { c.Names[0] = "lp__" })), `ends in "__"`, noLine, nil},
		{"write ragged draws", write(good(func(c *stancsv.Chain) { c.Draws = c.Draws[:3] })), "not a whole number of draws", noLine, nil},
		{"write short lp__", write(good(func(c *stancsv.Chain) { c.LogDensity = []float64{1} })), "LogDensity has 1 values for 2 draws", noLine, nil},
		{"write line break in a comment", write(good(func(c *stancsv.Chain) { c.Comments = []stancsv.Comment{{Key: "k", Value: "a\rb"}} })), "line break", noLine, nil},
		{"write NaN and Inf draws", func() (*stancsv.Chain, error) {
			var buf bytes.Buffer
			if err := stancsv.Write(&buf, good(func(c *stancsv.Chain) { c.Draws = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0} })); err != nil {
				return nil, err
			}
			return stancsv.Read(&buf)
		}, "", 0, func(c *stancsv.Chain) bool {
			return math.IsNaN(c.Draws[0]) && math.IsInf(c.Draws[1], 1) && math.IsInf(c.Draws[2], -1)
		}},
		{"write to a failing writer", func() (*stancsv.Chain, error) { return nil, stancsv.Write(failWriter{}, good(func(*stancsv.Chain) {})) }, "disk full", noLine, nil},
		{"write file in a missing directory", func() (*stancsv.Chain, error) {
			return nil, stancsv.WriteFile(filepath.Join(dir, "none", "x.csv"), good(func(*stancsv.Chain) {}))
		}, "no such file or directory", noLine, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			c, err := tc.run()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				if tc.ok != nil && !tc.ok(c) {
					t.Errorf("unexpected chain %+v", c)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			var pe *stancsv.ParseError
			switch {
			case tc.line == noLine:
			case !errors.As(err, &pe):
				t.Errorf("error %q is not a *ParseError", err)
			case pe.Line != tc.line:
				t.Errorf("error %q at line %d, want line %d", err, pe.Line, tc.line)
			}
			if strings.Contains(tc.want, "longer than") && !errors.Is(err, bufio.ErrTooLong) {
				t.Errorf("error %q does not wrap bufio.ErrTooLong", err)
			}
		})
	}
}
