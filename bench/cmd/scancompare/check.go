package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// parseThreads reads the -threads list: positive integers separated by
// commas, each at most once, in the order given.
func parseThreads(s string) ([]int, error) {
	var ts []int
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-threads %q: %q is not a positive integer", s, f)
		}
		if slices.Contains(ts, n) {
			return nil, fmt.Errorf("-threads %q: %d is listed twice", s, n)
		}
		ts = append(ts, n)
	}
	return ts, nil
}

// decimalText is a number as colexpr and DuckDB write one in CSV: an
// optional minus, digits, and an optional fraction.
var decimalText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// normField writes a CSV field so that the two engines' texts of the same
// value are equal: a number loses the trailing zeros of its fraction (and
// the point when nothing is left after it), and -0 is 0. Other text is kept.
func normField(s string) string {
	if !decimalText.MatchString(s) {
		return s
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if strings.Trim(s, "-0") == "" {
		return "0"
	}
	return s
}

// output is one engine's CSV output, normalized: the header, and the rows
// with every field through normField, sorted (the rows' order is not
// compared: both engines keep the file's order, but the check need not
// depend on it).
type output struct {
	header []string
	rows   []string // fields joined by \x1f
}

func parseOutput(b []byte) (*output, error) {
	r := csv.NewReader(bytes.NewReader(b))
	recs, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no header row")
	}
	o := &output{header: recs[0], rows: make([]string, 0, len(recs)-1)}
	for _, rec := range recs[1:] {
		for i, f := range rec {
			rec[i] = normField(f)
		}
		o.rows = append(o.rows, strings.Join(rec, "\x1f"))
	}
	slices.Sort(o.rows)
	return o, nil
}

// diff describes how a and b differ, or is "" when they are the same.
func diff(a, b *output) string {
	if !slices.Equal(a.header, b.header) {
		return fmt.Sprintf("headers differ: %q and %q", a.header, b.header)
	}
	if len(a.rows) != len(b.rows) {
		return fmt.Sprintf("%d rows and %d rows", len(a.rows), len(b.rows))
	}
	for i := range a.rows {
		if a.rows[i] != b.rows[i] {
			return fmt.Sprintf("the %d-th rows in sorted order differ: %q and %q", i+1,
				strings.ReplaceAll(a.rows[i], "\x1f", ","), strings.ReplaceAll(b.rows[i], "\x1f", ","))
		}
	}
	return ""
}

// summary is the row count and the exact sum of the first column (when
// every value of it is a number; empty otherwise).
func (o *output) summary() string {
	sum := new(big.Rat)
	scale := 0
	for _, r := range o.rows {
		f, _, _ := strings.Cut(r, "\x1f")
		if !decimalText.MatchString(f) {
			return rowsText(len(o.rows))
		}
		if _, frac, ok := strings.Cut(f, "."); ok {
			scale = max(scale, len(frac))
		}
		v, _ := new(big.Rat).SetString(f)
		sum.Add(sum, v)
	}
	if len(o.rows) == 0 {
		return rowsText(0)
	}
	return fmt.Sprintf("%s, sum of %s %s", rowsText(len(o.rows)), o.header[0], sum.FloatString(scale))
}

func rowsText(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}
