package main

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestTimestampText checks that timestamps print as DuckDB prints them: no
// offset without a zone (not a Z, which would claim UTC), the zone's
// offset with one, in hours unless it has minutes.
func TestTimestampText(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	at := time.Date(1995, 1, 1, 12, 0, 0, 250_000_000, time.UTC)
	cases := []struct {
		zone       string
		text, json string
	}{
		{"", "1995-01-01 12:00:00.25", `"1995-01-01 12:00:00.25"`},
		{"UTC", "1995-01-01 12:00:00.25+00", `"1995-01-01 12:00:00.25+00"`},
		{"+02:00", "1995-01-01 14:00:00.25+02", `"1995-01-01 14:00:00.25+02"`},
		{"Asia/Kolkata", "1995-01-01 17:30:00.25+05:30", `"1995-01-01 17:30:00.25+05:30"`},
	}
	for _, c := range cases {
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: c.zone})
		v, err := arrow.TimestampFromTime(at, arrow.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		b.Append(v)
		arr := b.NewArray()
		b.Release()
		if got := string(textCell(arr)(nil, 0)); got != c.text {
			t.Errorf("zone %q: text %q, want %q", c.zone, got, c.text)
		}
		if got := string(jsonCell(arr)(nil, 0)); got != c.json {
			t.Errorf("zone %q: JSON %s, want %s", c.zone, got, c.json)
		}
		arr.Release()
	}
}

// TestAppendBlob checks binary as DuckDB writes a BLOB as text.
func TestAppendBlob(t *testing.T) {
	cases := map[string]string{
		"":                  "",
		"abc":               "abc",
		"\x00\xff":          `\x00\xFF`,
		"a\\b'c\"d\n\x7f é": `a\x5Cb\x27c\x22d\x0A\x7F \xC3\xA9`,
	}
	for in, want := range cases {
		if got := string(appendBlob(nil, []byte(in))); got != want {
			t.Errorf("appendBlob(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestNullTypeIsNull checks that every row of an array of type null is
// null to the text formats, as a null of any other type is.
func TestNullTypeIsNull(t *testing.T) {
	arr := array.NewNull(3)
	defer arr.Release()
	for i := 0; i < 3; i++ {
		if !isNullAt(arr, i) {
			t.Errorf("row %d of a null array is not null", i)
		}
	}
}

// TestDatesBeforeYearOne: a year before 1 prints as DuckDB prints it, as
// the cast to text writes it: year 0 is 0001 (BC), the time after the (BC).
func TestDatesBeforeYearOne(t *testing.T) {
	for _, tc := range []struct {
		t      time.Time
		layout string
		want   string
	}{
		{time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC), "2006-01-02", "0001-12-31 (BC)"},
		{time.Date(-1, 11, 28, 0, 0, 0, 0, time.UTC), "2006-01-02", "0002-11-28 (BC)"},
		{time.Date(0, 12, 31, 23, 0, 0, 0, time.UTC), timestampLayout, "0001-12-31 (BC) 23:00:00"},
		{time.Date(1995, 3, 1, 12, 0, 0, 500, time.UTC), timestampLayout, "1995-03-01 12:00:00.0000005"},
	} {
		if got := string(appendTime(nil, tc.t, tc.layout)); got != tc.want {
			t.Errorf("appendTime(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
