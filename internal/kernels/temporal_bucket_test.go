package kernels

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// TestTimeBucket: DuckDB's answers (bench/cmd/duckquery), each row a
// width, a value and an optional offset.
func TestTimeBucket(t *testing.T) {
	ivT, tsT, dateT := dtype.Interval(true), dtype.Timestamp(dtype.Micro, "", true), dtype.Date(true)
	for _, c := range []struct {
		name        string
		in          dtype.DType
		widths, xs  []string
		offset      string // "": none
		want        []string
		errContains string
	}{
		{name: "dates by months and weeks", in: dateT,
			widths: []string{"1 month", "2 months", "7 days", "7 days", "3 days"},
			xs:     []string{"1996-11-03", "1996-11-03", "1996-11-03", "2000-01-02", "1969-12-31"},
			want:   []string{"1996-11-01", "1996-11-01", "1996-10-28", "1999-12-27", "1969-12-29", "null"}},
		{name: "timestamps", in: tsT,
			widths: []string{"01:00:00", "01:30:00", "1 year", "100000 years", "3 days"},
			xs:     []string{"1996-11-03 10:35:00", "1996-11-03 10:35:00", "1996-11-03 10:35:00", "1996-01-01 00:00:00", "1969-12-31 10:35:00"},
			want:   []string{"1996-11-03 10:00:00", "1996-11-03 10:30:00", "1996-01-01 00:00:00", "98001-01-01 (BC) 00:00:00", "1969-12-29 00:00:00", "null"}}, // DuckDB prints -98000
		{name: "an offset", in: tsT, offset: "1 day",
			widths: []string{"1 month", "1 month"},
			xs:     []string{"1996-11-03 10:00:00", "1996-11-01 10:00:00"},
			want:   []string{"1996-11-02 00:00:00", "1996-10-02 00:00:00", "null"}},
		{name: "a date with a time offset", in: dateT, offset: "02:00:00",
			widths: []string{"1 day"}, xs: []string{"1996-11-03"}, want: []string{"1996-11-02", "null"}},
		{name: "months with days", in: dateT, widths: []string{"1 day", "1 month 1 day"}, xs: []string{"1996-11-03", "1996-11-03"},
			errContains: "row 1: invalid argument: a time_bucket width of months cannot have days"},
		{name: "not positive", in: dateT, widths: []string{"1 day", "-1 days"}, xs: []string{"1996-11-03", "1996-11-03"},
			errContains: "row 1: invalid argument: a time_bucket width must be positive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			w := ivColumn(t, mem, ivT, c.widths...)
			defer w.Release()
			x := ivColumn(t, mem, c.in, c.xs...)
			defer x.Release()
			var off *datum.Datum
			if c.offset != "" {
				o := datum.FromScalar(castText(t, c.offset, dtype.Interval(false)), x.Len())
				off = &o
			}
			got, err := TimeBucket(mem, TemporalOf(c.in), w, x, off, c.in)
			if c.errContains != "" {
				if err == nil || !strings.Contains(err.Error(), c.errContains) {
					t.Fatalf("got %v, want an error with %q", err, c.errContains)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if g := texts(t, got); !slices.Equal(g, c.want) {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}
