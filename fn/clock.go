package fn

import (
	"fmt"
	"strconv"
	"time"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The current time, as DuckDB types it (checked with bench/cmd/duckquery):
//
//	now()    timestamp(us, UTC) (DuckDB's TIMESTAMP WITH TIME ZONE): the
//	         current instant, to the microsecond; also current_timestamp
//	         (a bare word, as in SQL), get_current_timestamp() and
//	         transaction_timestamp()
//	today()  date: the current date in UTC; also current_date (a bare word)
//
// DuckDB reads the clock once per transaction, so every row and every
// call of one query sees the same instant. colexpr's equivalent of the
// transaction is the parse: package parse gives every clock function of
// one expression the instant the text was parsed (or parse.Options.Now),
// through ClockFn.At, so a Program compiled once answers every batch with
// that instant, and the optimizer folds it into a literal that pruning can
// compare with a column's bounds. A ClockFn not fixed that way (Now and
// Today themselves, in a tree built in Go) reads the clock each time it is
// evaluated, once per batch, and is Volatile: never folded, never merged
// with another call. The time zone is UTC, DuckDB's default TimeZone
// setting; colexpr has no session time zone.
var (
	Now   Function = ClockFn{}           // now(), current_timestamp
	Today Function = ClockFn{Date: true} // today(), current_date
)

// The ids of the clock functions.
const (
	IDNow   = "now"
	IDToday = "today"
)

func init() {
	mustRegister(Now)
	mustRegister(Today)
	for alias, f := range map[string]Function{
		"current_timestamp": Now, "get_current_timestamp": Now, "transaction_timestamp": Now,
		"current_date": Today,
	} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
	builtinProperties[IDNow] = &Properties{Prec: PrecPostfix}
	builtinProperties[IDToday] = &Properties{Prec: PrecPostfix}
}

var _ Kernel = ClockFn{}

// ClockFn is now() or, with Date, today(). Fixed, it stands for Instant
// (to the microsecond, UTC); otherwise it reads the clock when evaluated.
type ClockFn struct {
	Date    bool
	Fixed   bool
	Instant time.Time
}

// At is f fixed at the instant t (truncated to the microsecond, in UTC),
// an Immutable function.
func (f ClockFn) At(t time.Time) ClockFn {
	return ClockFn{Date: f.Date, Fixed: true, Instant: t.UTC().Truncate(time.Microsecond)}
}

func (f ClockFn) ID() string {
	if f.Date {
		return IDToday
	}
	return IDNow
}

func (ClockFn) Arity() Arity               { return Exactly(0) }
func (ClockFn) NullHandling() NullHandling { return NullPropagating }
func (ClockFn) Fallible() bool             { return false }

// Volatility: a fixed clock is a constant; the running one is not.
func (f ClockFn) Volatility() Volatility {
	if f.Fixed {
		return Immutable
	}
	return Volatile
}

func (f ClockFn) Hash() uint64 {
	if !f.Fixed {
		return hashString(f.ID())
	}
	return hashString(f.ID(), strconv.FormatInt(f.Instant.UnixMicro(), 10))
}

func (f ClockFn) Equal(o Function) bool {
	g, ok := o.(ClockFn)
	return ok && g.Date == f.Date && g.Fixed == f.Fixed && g.Instant.Equal(f.Instant)
}

func (f ClockFn) ReturnType([]dtype.DType) (dtype.DType, error) {
	if f.Date {
		return dtype.Date(false), nil
	}
	return dtype.Timestamp(dtype.Micro, "UTC", false), nil
}

// Value is the scalar the clock stands for: Instant when fixed, else
// the time now.
func (f ClockFn) Value() scalar.Scalar {
	t := f.Instant
	if !f.Fixed {
		t = time.Now()
	}
	us := t.UnixMicro()
	if f.Date {
		days := us / (86400 * 1e6)
		if us < 0 && us%(86400*1e6) != 0 {
			days-- // the day the instant falls in, before 1970 too
		}
		return scalar.Date(int32(days))
	}
	return scalar.Timestamp(dtype.Micro, "UTC", us)
}

// Eval is the clock's one value; with no arguments the row count is
// unknown here, so it is a scalar of one row, which the evaluator
// broadcasts.
func (f ClockFn) Eval(_ *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	v := f.Value()
	if !v.DType().Equal(ret) {
		return datum.Datum{}, fmt.Errorf("%s: bound as %s, computes %s", f.ID(), ret, v.DType())
	}
	return datum.FromScalar(v, 1), nil
}
