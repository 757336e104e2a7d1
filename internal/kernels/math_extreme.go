package kernels

// greatest and least, DuckDB's: nulls are skipped (a row is null only when
// every argument is null there), NaN is the greatest float, and of equal
// values the first argument's wins (greatest(-0.0, 0.0) is -0.0).

import (
	"bytes"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// extremeState is the running result of greatest or least: per row, the
// argument that holds it (-1: none yet, every argument so far null).
type extremeState struct {
	n     int
	from  []int32
	nulls int
}

func newExtremeState(n int) *extremeState {
	s := &extremeState{n: n, from: make([]int32, n)}
	for i := range s.from {
		s.from[i] = -1
	}
	return s
}

// validOf is the validity of an argument: nil rows for an all-valid one.
func validOf(d datum.Datum) (all, none bool, bm Bitmap) {
	if isNullDatum(d) {
		return false, true, Bitmap{}
	}
	if d.IsScalar() {
		return true, false, Bitmap{}
	}
	bm = ValidityOf(d.Array())
	return bm.AllSet(), false, bm
}

// extremeFixed picks, per row, the winning argument among values of T;
// better(x, cur) reports whether x replaces cur.
func extremeFixed[T any](args []datum.Datum, n int, better func(x, cur T) bool) (*extremeState, []T) {
	st := newExtremeState(n)
	res := make([]T, n)
	for j, a := range args {
		_, none, bm := validOf(a)
		if none {
			continue
		}
		f := FixedOf[T](a)
		for i := range res {
			if !bm.Get(i) {
				continue
			}
			v := f.At(i)
			if st.from[i] < 0 || better(v, res[i]) {
				res[i], st.from[i] = v, int32(j)
			}
		}
	}
	return st, res
}

// NumberExtreme is greatest (or least) over integers or floats of type T,
// with the comparisons inline (x != x is the NaN test; it is false for
// integers).
func NumberExtreme[T Number](mem memory.Allocator, greatest bool, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := args[0].Len()
	rows := n
	if allScalar(args) {
		rows = 1
	}
	st := newExtremeState(rows)
	var values *memory.Buffer
	var res []T
	if !allScalar(args) {
		values, res = newValues[T](mem, n) // the result, filled in place
	} else {
		res = make([]T, 1)
	}
	for j, a := range args {
		_, none, bm := validOf(a)
		if none {
			continue
		}
		f := FixedOf[T](a)
		from := st.from
		if greatest {
			for i := range res {
				if !bm.Get(i) {
					continue
				}
				v := f.At(i)
				if from[i] < 0 || v > res[i] || v != v && res[i] == res[i] {
					res[i], from[i] = v, int32(j)
				}
			}
		} else {
			for i := range res {
				if !bm.Get(i) {
					continue
				}
				v := f.At(i)
				if from[i] < 0 || v < res[i] && v == v || res[i] != res[i] && v == v {
					res[i], from[i] = v, int32(j)
				}
			}
		}
	}
	if values == nil {
		if st.from[0] < 0 {
			return NullResult(ret, n), nil
		}
		return scalarResult(ret, res[0], n)
	}
	validity, nulls := st.validity(mem)
	return fixedResult(ret, n, validity, nulls, values), nil
}

// DecimalExtreme is greatest (or least) over decimals of one type.
func DecimalExtreme(mem memory.Allocator, greatest bool, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	sign := -1
	if greatest {
		sign = 1
	}
	return fixedExtreme(mem, args, ret, func(x, cur decimal128.Num) bool { return decCmp(x, cur) == sign })
}

// F16Extreme is greatest (or least) over f16 values.
func F16Extreme(mem memory.Allocator, greatest bool, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	better := func(x, cur half) bool {
		a, b := f16ToF32(x), f16ToF32(cur)
		return a < b && a == a || b != b && a == a
	}
	if greatest {
		better = func(x, cur half) bool {
			a, b := f16ToF32(x), f16ToF32(cur)
			return a > b || a != a && b == b
		}
	}
	return fixedExtreme(mem, args, ret, better)
}

// TemporalExtreme is greatest (or least) over dates, times or timestamps
// stored as T (int32 or int64).
func TemporalExtreme[T ~int32 | ~int64](mem memory.Allocator, greatest bool, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return NumberExtreme[T](mem, greatest, args, ret)
}

func fixedExtreme[T any](mem memory.Allocator, args []datum.Datum, ret dtype.DType, better func(x, cur T) bool) (datum.Datum, error) {
	n := args[0].Len()
	if allScalar(args) {
		st, res := extremeFixed(args, 1, better)
		if st.from[0] < 0 {
			return NullResult(ret, n), nil
		}
		return scalarResult(ret, res[0], n)
	}
	st, res := extremeFixed(args, n, better)
	values, dst := newValues[T](mem, n)
	copy(dst, res)
	validity, nulls := st.validity(mem)
	return fixedResult(ret, n, validity, nulls, values), nil
}

// validity is the result's bitmap: valid where some argument was.
func (s *extremeState) validity(mem memory.Allocator) (*memory.Buffer, int) {
	nulls := 0
	for _, f := range s.from {
		if f < 0 {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	buf, words := NewBits(mem, s.n)
	clear(words)
	for i, f := range s.from {
		if f >= 0 {
			words[i>>6] |= 1 << (i & 63)
		}
	}
	return buf, nulls
}

// BytesExtreme is greatest (or least) over utf8 or binary values, compared
// byte by byte (as DuckDB compares strings).
func BytesExtreme(mem memory.Allocator, greatest bool, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := args[0].Len()
	rows := n
	if allScalar(args) {
		rows = 1
	}
	views := make([]bytesView, len(args))
	scalars := make([][]byte, len(args))
	for j, a := range args {
		if isNullDatum(a) {
			continue
		}
		if a.IsScalar() {
			scalars[j] = scalarBytes(a.Scalar())
			continue
		}
		v, err := viewBytes(a.Array())
		if err != nil {
			return datum.Datum{}, err
		}
		views[j] = v
	}
	at := func(j, i int) []byte {
		if args[j].IsScalar() {
			return scalars[j]
		}
		return views[j].at(i)
	}
	want := -1
	if greatest {
		want = 1
	}
	st := newExtremeState(rows)
	for j, a := range args {
		_, none, bm := validOf(a)
		if none {
			continue
		}
		for i := 0; i < rows; i++ {
			if !bm.Get(i) {
				continue
			}
			if st.from[i] < 0 || bytes.Compare(at(j, i), at(int(st.from[i]), i)) == want {
				st.from[i] = int32(j)
			}
		}
	}
	if rows == 1 && allScalar(args) {
		if st.from[0] < 0 {
			return NullResult(ret, n), nil
		}
		return scalarResult(ret, string(at(int(st.from[0]), 0)), n)
	}
	b := newStrBuilder(mem, n, 0)
	for i, f := range st.from {
		if f < 0 {
			b.endEmpty()
			continue
		}
		b.write(at(int(f), i))
		if err := b.end(); err != nil {
			b.release()
			return datum.Datum{}, err
		}
	}
	validity, nulls := st.validity(mem)
	return datum.FromArray(b.finish(dtype.ToArrow(ret), validity, nulls), ret), nil
}

// BoolExtreme is greatest (or least) over bools, 64 rows at a time, false
// before true: greatest is true where a valid argument is, least false
// where one is; a row is null only where every argument is.
func BoolExtreme(mem memory.Allocator, greatest bool, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := args[0].Len()
	if allScalar(args) {
		valid, v := false, !greatest
		for _, a := range args {
			if s := a.Scalar(); !s.IsNull() {
				b := s.Value().(bool)
				valid = true
				if greatest {
					v = v || b
				} else {
					v = v && b
				}
			}
		}
		if !valid {
			return NullResult(ret, n), nil
		}
		return scalarResult(ret, v, n)
	}
	// Per argument, its validity and its values as words; a scalar
	// broadcasts (all ones or all zeros).
	type argBits struct{ valid, value Bitmap }
	ones := Bitmap{}
	zeros := Bitmap{Buf: zeroBits[:]}
	in := make([]argBits, 0, len(args))
	for _, a := range args {
		switch {
		case isNullDatum(a):
		case a.IsScalar():
			if a.Scalar().Value().(bool) {
				in = append(in, argBits{ones, ones})
			} else {
				in = append(in, argBits{ones, zeros})
			}
		default:
			in = append(in, argBits{ValidityOf(a.Array()), ValuesOf(a.Array())})
		}
	}
	valBuf, vals := NewBits(mem, n)
	validBuf, valid := NewBits(mem, n)
	nulls := 0
	for k := range vals {
		var any, v uint64
		if !greatest {
			v = ^uint64(0)
		}
		for _, b := range in {
			ok := b.valid.Word(k)
			any |= ok
			if greatest {
				v |= ok & b.value.Word(k)
			} else {
				v &= ^ok | b.value.Word(k)
			}
		}
		if k == len(vals)-1 {
			any &= TailMask(n)
		}
		vals[k], valid[k] = v&any, any
		nulls += 64 - bits.OnesCount64(any)
	}
	nulls -= len(vals)*64 - n
	if nulls == 0 {
		validBuf.Release()
		validBuf = nil
	}
	return boolResult(ret, n, validBuf, nulls, valBuf), nil
}
