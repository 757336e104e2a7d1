package interval

import (
	"bufio"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestParseFormatDuckDB reads each text of testdata/duckdb_text.tsv and
// writes it back, as DuckDB's cast to INTERVAL and back to VARCHAR does
// (the file holds DuckDB's answers).
func TestParseFormatDuckDB(t *testing.T) {
	f, err := os.Open("testdata/duckdb_text.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The time of an Arrow month_day_nano interval is in nanoseconds, so
	// it holds 1000 times less than DuckDB's microseconds: ±2562047 hours.
	beyondNanos := map[string]bool{"1 hour 2147483647 hours": true, "9223372036854775807 microseconds": true, "300000000 hours": true}
	// Times are kept to the nanosecond (DuckDB rounds or truncates them to
	// the microsecond).
	nanos := map[string]string{
		"1 day 2:03:04.123456789": "1 day 02:03:04.123456789",
		"0.0000005 seconds":       "00:00:00.0000005",
		"01:02:03.1234567":        "01:02:03.1234567",
		"1.0000001 seconds":       "00:00:01.0000001",
		"1.9999999 seconds":       "00:00:01.9999999",
		"2.5 us":                  "00:00:00.0000025",
	}
	sc := bufio.NewScanner(f)
	cases := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		cases++
		v, err := Parse(in)
		got := "ERROR"
		if err == nil {
			got = Format(v)
		}
		if beyondNanos[in] {
			if !errors.Is(err, ErrRange) {
				t.Errorf("Parse(%q) = %s, %v; want ErrRange (beyond nanoseconds)", in, got, err)
			}
			continue
		}
		if w, ok := nanos[in]; ok {
			want = w
		}
		if got != want {
			t.Errorf("Parse(%q) = %s (%v), DuckDB gives %s", in, got, err, want)
		}
		if err == nil {
			back, err := Parse(got)
			if err != nil || back != v {
				t.Errorf("Format(%q) = %q reads back as %v, %v", in, got, back, err)
			}
		}
	}
	if cases < 50 {
		t.Fatalf("only %d cases read", cases)
	}
}

func TestFormatExtremes(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Value{}, "00:00:00"},
		{Value{Months: math.MinInt32, Days: math.MinInt32, Nanoseconds: math.MinInt64},
			"-178956970 years -8 months -2147483648 days -2562047:47:16.854775808"},
		{Value{Nanoseconds: 1}, "00:00:00.000000001"},
		{Value{Months: 1, Days: -1, Nanoseconds: NanosPerHour}, "1 month -1 day 01:00:00"},
	}
	for _, tc := range tests {
		if got := Format(tc.v); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestCompare: DuckDB's order normalizes 30-day months and 24-hour days.
func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"30 days", "1 month", 0},
		{"24 hours", "1 day", 0},
		{"1 day", "23 hours", 1},
		{"1 month", "29 days 25 hours", -1},
		{"1 month", "29 days 24 hours", 0},
		{"1 month", "29 days 23 hours", 1},
		{"1 day -1 hour", "23 hours", 0},
		{"1 month -1 day", "29 days", 0},
		{"-1 month 31 days", "1 day", 0},
		{"-24 hours", "-1 day", 0},
		{"-1 day", "0 days", -1},
		{"1 year", "360 days", 0},
		{"1 month 1 day", "1 month", 1},
	}
	for _, tc := range tests {
		a, errA := Parse(tc.a)
		b, errB := Parse(tc.b)
		if errA != nil || errB != nil {
			t.Fatalf("%s, %s: %v %v", tc.a, tc.b, errA, errB)
		}
		if got := Compare(a, b); got != tc.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Compare(b, a); got != -tc.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1 day", "1 year 2 months 3 days 04:05:06.5", "@ -1.5 weeks ago", "100:00", "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(Format(v))
		if err != nil || back != v {
			t.Fatalf("Parse(%q) = %v, whose text %q reads back as %v, %v", s, v, Format(v), back, err)
		}
	})
}
