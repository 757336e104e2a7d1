package fn

import (
	"testing"
	"time"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/scalar"
)

// TestClock: a fixed clock is a constant of its instant, to the
// microsecond in UTC (today() the day that instant falls in, before 1970
// too); the running one is Volatile and reads the time when evaluated.
func TestClock(t *testing.T) {
	est := time.FixedZone("EST", -5*3600)
	for _, c := range []struct {
		name string
		f    ClockFn
		want scalar.Scalar
	}{
		{"now", Now.(ClockFn).At(time.Date(2026, 12, 3, 21, 5, 7, 123456789, time.UTC)), scalar.Timestamp(2, "UTC", 1796331907123456)},
		{"now in another zone", Now.(ClockFn).At(time.Date(2026, 12, 3, 16, 5, 7, 123456000, est)), scalar.Timestamp(2, "UTC", 1796331907123456)},
		{"today", Today.(ClockFn).At(time.Date(2026, 12, 3, 23, 59, 59, 0, time.UTC)), scalar.Date(20790)},
		{"today, a zone's evening is UTC's tomorrow", Today.(ClockFn).At(time.Date(2026, 12, 3, 20, 0, 0, 0, est)), scalar.Date(20791)},
		{"today before 1970", Today.(ClockFn).At(time.Date(1969, 12, 31, 12, 0, 0, 0, time.UTC)), scalar.Date(-1)},
		{"today at 1970's first instant", Today.(ClockFn).At(time.Unix(0, 0)), scalar.Date(0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			ret, err := c.f.ReturnType(nil)
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.f.Eval(&Context{}, nil, ret)
			if err != nil {
				t.Fatal(err)
			}
			got := d.Scalar()
			if cmp, err := scalar.Compare(got, c.want); err != nil || cmp != 0 || !got.DType().Equal(ret) {
				t.Errorf("got %s (%s), want %s (%s)", got, got.DType(), c.want, ret)
			}
			if c.f.Volatility() != Immutable {
				t.Error("a fixed clock is not Immutable")
			}
		})
	}
	a := Now.(ClockFn).At(time.Unix(1, 0))
	if b := Now.(ClockFn).At(time.Unix(1, 0)); !a.Equal(b) || a.Hash() != b.Hash() {
		t.Error("two clocks fixed at one instant differ")
	}
	if b := Now.(ClockFn).At(time.Unix(2, 0)); a.Equal(b) {
		t.Error("clocks fixed at two instants are equal")
	}
	if a.Equal(Now) || Now.Equal(a) || Today.(ClockFn).At(time.Unix(1, 0)).Equal(a) {
		t.Error("a fixed clock equals the running one, or today() equals now()")
	}
	if Now.Volatility() != Volatile || Today.Volatility() != Volatile {
		t.Error("the running clock is not Volatile")
	}
	before := time.Now().UnixMicro()
	d, err := Now.(Kernel).Eval(&Context{}, []datum.Datum{}, Now.(ClockFn).Value().DType())
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Scalar().Value().(int64); got < before || got > time.Now().UnixMicro() {
		t.Errorf("now() read %d, not the time between %d and now", got, before)
	}
}
