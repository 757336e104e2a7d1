package fn_test

import (
	"fmt"

	"github.com/colexpr/colexpr/fn"
)

// INTERVAL n UNIT, as the parser reads it: the unit's to_* function by
// name, then n of its units as an interval scalar.
func ExampleIntervalOf() {
	for _, lit := range []struct {
		n    int64
		unit string
	}{{5, "DAY"}, {14, "months"}, {90, "Minutes"}, {1, "fortnight"}, {1 << 40, "years"}} {
		unit, ok := fn.IntervalUnit(lit.unit)
		if !ok {
			fmt.Printf("INTERVAL %d %s: no such unit\n", lit.n, lit.unit)
			continue
		}
		v, err := fn.IntervalOf(unit, lit.n)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("INTERVAL %d %s = %s(%d) = %s\n", lit.n, lit.unit, unit.ID(), lit.n, v)
	}
	// Output:
	// INTERVAL 5 DAY = to_days(5) = INTERVAL '5 days'
	// INTERVAL 14 months = to_months(14) = INTERVAL '1 year 2 months'
	// INTERVAL 90 Minutes = to_minutes(90) = INTERVAL '01:30:00'
	// INTERVAL 1 fortnight: no such unit
	// overflow: 1099511627776 units of to_years do not fit an interval (months and days are i32, its time ±2562047 hours)
}

// A unit's name is singular or plural, in any case.
func ExampleIntervalUnit() {
	for _, word := range []string{"YEAR", "weeks", "Hour", "milliseconds", "eon"} {
		f, ok := fn.IntervalUnit(word)
		if ok {
			fmt.Println(word, "→", f.ID())
		} else {
			fmt.Println(word, "→ not a unit")
		}
	}
	// Output:
	// YEAR → to_years
	// weeks → to_weeks
	// Hour → to_hours
	// milliseconds → to_milliseconds
	// eon → not a unit
}
