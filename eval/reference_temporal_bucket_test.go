package eval

import (
	"math/big"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// time_bucket row by row: Go's calendar for buckets of months, exact
// integers for the others, refShift for the offset.
func init() {
	refFuncs[fn.IDTimeBucket] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		w := v[0].Value().(arrow.MonthDayNanoInterval)
		x := v[1]
		us := dtype.Timestamp(dtype.Micro, "", false)
		if x.DType().ExtID() == dtype.ExtDate {
			x = scalar.Timestamp(dtype.Micro, "", refTime(x).UnixMicro())
		}
		var err error
		if len(v) > 2 {
			if x, err = refShift(us, x, v[2], true); err != nil {
				return scalar.Scalar{}, err
			}
		}
		var b scalar.Scalar
		switch {
		case w.Months != 0 && (w.Days != 0 || w.Nanoseconds != 0):
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "time_bucket: months and days")
		case w.Months < 0:
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "time_bucket: width")
		case w.Months > 0:
			tm := refTime(x)
			months := (tm.Year()-2000)*12 + int(tm.Month()) - 1
			k := months / int(w.Months) * int(w.Months)
			if months%int(w.Months) != 0 && months < 0 {
				k -= int(w.Months)
			}
			start := time.Date(2000, time.Month(1+k), 1, 0, 0, 0, 0, time.UTC)
			b = scalar.Timestamp(dtype.Micro, "", start.UnixMicro())
		default:
			width := new(big.Int).Add(big.NewInt(int64(w.Days)*86400e6), big.NewInt(w.Nanoseconds/1000))
			if width.Sign() <= 0 {
				return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "time_bucket: width")
			}
			origin := big.NewInt(time.Date(2000, 1, 3, 0, 0, 0, 0, time.UTC).UnixMicro())
			d := new(big.Int).Sub(big.NewInt(x.Value().(int64)), origin)
			q := new(big.Int).Div(d, width) // Euclidean: a floor for width > 0
			r := q.Mul(q, width).Add(q, origin)
			if !r.IsInt64() {
				return scalar.Scalar{}, refFail(errs.ErrOverflow, "time_bucket")
			}
			b = scalar.Timestamp(dtype.Micro, "", r.Int64())
		}
		if len(v) > 2 {
			if b, err = refShift(us, b, v[2], false); err != nil {
				return scalar.Scalar{}, err
			}
		}
		if t.ExtID() == dtype.ExtDate {
			days := new(big.Int).Div(big.NewInt(b.Value().(int64)), big.NewInt(86400e6)) // Euclidean: a floor
			return mk(t, days.Int64()), nil
		}
		return mk(t, b.Value().(int64)), nil
	}
}

// TestTimeBucketReference evaluates time_bucket vectorized and row by row
// over the same rows (values, nulls and errors must agree).
func TestTimeBucketReference(t *testing.T) {
	root := mustType(t, diffSchema)
	rows := `[{"dt": "1996-11-03", "i64": 2, "n64": 0}, {"dt": "2000-01-02", "i64": 7, "n64": 0}, {"dt": "1969-12-31", "i64": 3, "n64": 0},
		{"dt": null, "i64": 1, "n64": 0}, {"dt": "0001-01-01", "i64": 11, "n64": 0}, {"dt": "9999-12-31", "i64": 1, "n64": 0}, {"dt": "2000-01-03", "i64": null, "n64": 0}]`
	for _, src := range []string{
		"time_bucket(INTERVAL '1 month', dt)",
		"time_bucket(INTERVAL '7 days', dt)",
		"time_bucket(to_months(i64), dt)",
		"time_bucket(to_days(i64), dt, INTERVAL '2 hours')",
		"time_bucket(INTERVAL '90 minutes', CAST(dt AS timestamp(us)) + INTERVAL '10:35:00')",
		"time_bucket(INTERVAL '1 year', CAST(dt AS timestamp(us)) + INTERVAL '10:35:00', INTERVAL '1 month 3 days')",
		"time_bucket(to_hours(i64 - 2::i64), CAST(dt AS timestamp(us)))",
		"time_bucket(INTERVAL '1 month' + to_days(i64 - 1::i64), dt)",
	} {
		for _, mode := range []diffMode{{}, {scalarRoot: true}} {
			t.Run(src+"/"+mode.String(), func(t *testing.T) {
				checkReferenceCase(t, root, src, rows, mode)
			})
		}
	}
}
