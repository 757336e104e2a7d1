package bench

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
)

// TestClockAgainstDuckDB checks the clock functions, which the random
// differential cannot (no two engines read one instant), against DuckDB:
// the same type, and the same value up to the time between the two reads
// of the clock — a date or a day's name exactly, unless the reads fall on
// either side of midnight, in which case the case is read again.
func TestClockAgainstDuckDB(t *testing.T) {
	d, err := OpenDuck()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewRecordBuilder(mem, sc)
	b.Field(0).(*array.Int32Builder).Append(1)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()

	for _, c := range []struct {
		colexpr, duck string
		// instant: the values are instants, equal to within a minute;
		// otherwise they are equal.
		instant bool
	}{
		{"now()", "now()", true},
		{"current_timestamp", "current_timestamp", true},
		{"get_current_timestamp()", "get_current_timestamp()", true},
		{"transaction_timestamp()", "transaction_timestamp()", true},
		{"now() - INTERVAL 90 MINUTE", "now() - INTERVAL 90 MINUTE", true},
		{"today()", "today()", false},
		{"current_date", "current_date", false},
		{"current_date - INTERVAL 30 DAY", "current_date - INTERVAL 30 DAY", false},
		{"dayname(current_date)", "dayname(current_date)", false},
		{"date_part('year', current_date)", "date_part('year', current_date)", false},
		{"date_diff('day', DATE '2000-01-01', current_date)", "date_diff('day', DATE '2000-01-01', current_date)", false},
		{"epoch_ms(today())", "epoch_ms(today())", false},
	} {
		for attempt := 0; ; attempt++ {
			var duckType string
			var duckVal any
			if err := d.DB.QueryRow("SELECT typeof("+c.duck+"), "+c.duck).Scan(&duckType, &duckVal); err != nil {
				t.Fatalf("DuckDB: %s: %v", c.duck, err)
			}
			p, err := colexpr.NewSchema(sc).Compile(c.colexpr, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.colexpr, err)
			}
			if got := duckTypeName(p.DType()); got != duckType {
				t.Errorf("%s: colexpr types it %s (%s), DuckDB %s", c.colexpr, got, p.DType(), duckType)
			}
			out, err := p.Eval(mem, rec)
			if err != nil {
				t.Fatalf("%s: %v", c.colexpr, err)
			}
			var got string
			if ts, ok := out.(*array.Timestamp); ok {
				got = ts.Value(0).ToTime(arrow.Microsecond).Format(time.RFC3339Nano)
			} else {
				got, err = arrowText(out, 0)
			}
			out.Release()
			if err != nil {
				t.Fatal(err)
			}
			var want string
			if w, ok := duckVal.(time.Time); ok && duckType != "DATE" {
				if c.instant {
					g, _ := time.Parse(time.RFC3339Nano, got)
					if diff := g.Sub(w).Abs(); diff > time.Minute {
						t.Errorf("%s: colexpr %s, DuckDB %s: %s apart", c.colexpr, g, w, diff)
					}
					break
				}
				want = w.UTC().Format(time.RFC3339Nano)
			} else if want, err = goText(duckVal); err != nil {
				t.Fatal(err)
			}
			if got == want {
				break
			}
			if attempt > 0 {
				t.Errorf("%s: colexpr %s, DuckDB %s", c.colexpr, got, want)
				break
			}
			// Midnight may have come between the reads: read again.
		}
	}
}

// duckTypeName is DuckDB's name of the dtypes the clock cases give.
func duckTypeName(t dtype.DType) string {
	names := map[string]string{
		"timestamp(us, 'UTC')": "TIMESTAMP WITH TIME ZONE", "timestamp(us)": "TIMESTAMP",
		"date": "DATE", "utf8": "VARCHAR", "i64": "BIGINT",
	}
	if n, ok := names[t.String()]; ok {
		return n
	}
	return t.String()
}
