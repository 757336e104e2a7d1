package main

import (
	"slices"
	"strings"
	"testing"
)

func TestParseThreads(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		err  string
	}{
		{in: "1,2", want: []int{1, 2}},
		{in: "4", want: []int{4}},
		{in: " 2 , 1 ", want: []int{2, 1}},
		{in: "", err: "not a positive integer"},
		{in: "1,,2", err: "not a positive integer"},
		{in: "0", err: "not a positive integer"},
		{in: "-1", err: "not a positive integer"},
		{in: "two", err: "not a positive integer"},
		{in: "1,2,1", err: "listed twice"},
	} {
		got, err := parseThreads(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("parseThreads(%q): error %v, want one saying %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("parseThreads(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestNormField(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1857.6580", "1857.658"},
		{"1857.658", "1857.658"},
		{"12.00", "12"},
		{"1200", "1200"},
		{"0.0500", "0.05"},
		{"-0.0000", "0"},
		{"-0", "0"},
		{"0", "0"},
		{"-3.10", "-3.1"},
		{"", ""},
		{"abc", "abc"},
		{"1.5e3", "1.5e3"},
		{"10.", "10."},
		{"1994-01-01", "1994-01-01"},
	} {
		if got := normField(c.in); got != c.want {
			t.Errorf("normField(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestOutputs(t *testing.T) {
	parse := func(s string) *output {
		t.Helper()
		o, err := parseOutput([]byte(s))
		if err != nil {
			t.Fatalf("parseOutput(%q): %v", s, err)
		}
		return o
	}
	colexpr := parse("r\n1857.6580\n0.0500\n12.0000\n")
	for _, c := range []struct {
		name, other string
		diff        string // a part of the difference, or "" for none
	}{
		{"same text", "r\n1857.6580\n0.0500\n12.0000\n", ""},
		{"other number format", "r\n1857.658\n0.05\n12\n", ""},
		{"other order", "r\n12.00\n1857.658\n0.05\n", ""},
		{"other header", "x\n1857.658\n0.05\n12\n", "headers differ"},
		{"a row less", "r\n1857.658\n0.05\n", "3 rows and 2 rows"},
		{"another value", "r\n1857.658\n0.05\n13\n", "rows in sorted order differ"},
	} {
		d := diff(colexpr, parse(c.other))
		if (c.diff == "") != (d == "") || !strings.Contains(d, c.diff) {
			t.Errorf("%s: diff = %q, want %q", c.name, d, c.diff)
		}
	}
	if got, want := colexpr.summary(), "3 rows, sum of r 1869.708"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	if got, want := parse("l_orderkey\n").summary(), "0 rows"; got != want {
		t.Errorf("summary of no rows = %q, want %q", got, want)
	}
	if got, want := parse("s\nabc\n").summary(), "1 row"; got != want {
		t.Errorf("summary of text = %q, want %q", got, want)
	}
}
