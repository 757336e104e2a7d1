package kernels

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// ListUnique is list_unique(xs): the number of distinct non-null elements
// of each list, as u64 (DuckDB's UBIGINT), null where xs is. Elements are
// equal as list_distinct finds them (a hash key of each element; nested
// elements by equality).
func ListUnique(mem memory.Allocator, xs datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if anyNullScalar([]datum.Datum{xs}) {
		return nullResult(ret, n), nil
	}
	lv, owned, err := listArg(mem, xs, false)
	if err != nil {
		return datum.Datum{}, err
	}
	if owned != nil {
		defer owned.Release()
	}
	child := lv.child
	cv := validityOrNone(child)
	keys := keyerOf(child)
	seen := map[string]struct{}{}
	var kept []int
	count := func(i int) uint64 {
		s, e := lv.bounds(i)
		if keys.key != nil {
			clear(seen)
			for p := s; p < e; p++ {
				if cv.Get(p) {
					seen[keys.key(p)] = struct{}{}
				}
			}
			return uint64(len(seen))
		}
		kept = kept[:0]
		for p := s; p < e; p++ {
			if cv.Get(p) && !slices.ContainsFunc(kept, func(q int) bool { return equalAt(child, q, child, p) }) {
				kept = append(kept, p)
			}
		}
		return uint64(len(kept))
	}
	if xs.IsScalar() {
		return scalarResult(ret, count(0), n)
	}
	values, dst := newValues[uint64](mem, n)
	xv := ValidityOf(xs.Array())
	for i := range dst {
		if xv.Get(i) {
			dst[i] = count(i)
		} else {
			dst[i] = 0
		}
	}
	validity, nulls := ShareValidity(mem, xs.Array())
	return fixedResult(ret, n, validity, nulls, values), nil
}
