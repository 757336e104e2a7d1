package kernels

// Test harness of the variable-width and nested kernels: arguments written
// as JSON columns or scalars, each case run with plain and with sliced
// arrays (the rows sit in the middle of a larger array, so offsets, value
// offsets and validity bits all start mid-buffer), results compared with
// array.Equal against JSON, and a checked allocator that must end at zero.

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// checkedMem is an allocator that fails the test when bytes are still
// outstanding at its end.
func checkedMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// in is a kernel argument of a test case: a column (JSON rows) or a scalar.
type in struct {
	t    dtype.DType
	json string
	sc   scalar.Scalar
	isSc bool
}

func col(t dtype.DType, js string) in { return in{t: t, json: js} }
func lit(s scalar.Scalar) in          { return in{t: s.DType(), sc: s, isSc: true} }

// fromJSON is an array of t from JSON rows.
func fromJSON(t testing.TB, mem memory.Allocator, dt dtype.DType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dtype.ToArrow(dt), strings.NewReader(js))
	if err != nil {
		t.Fatalf("bad test JSON %s for %s: %v", js, dt, err)
	}
	return arr
}

// slicedJSON is an array of t whose rows js sit in the middle of three
// copies of themselves.
func slicedJSON(t testing.TB, mem memory.Allocator, dt dtype.DType, js string) arrow.Array {
	t.Helper()
	plain := fromJSON(t, mem, dt, js)
	n := plain.Len()
	plain.Release()
	inner := strings.TrimSpace(js)
	inner = inner[1 : len(inner)-1]
	if strings.TrimSpace(inner) == "" {
		inner = "null" // a non-empty base for an empty slice at offset 1
		full := fromJSON(t, mem, dt.AsNullable(), "["+inner+","+inner+"]")
		defer full.Release()
		return array.NewSlice(full, 1, 1)
	}
	full := fromJSON(t, mem, dt, "["+inner+","+inner+","+inner+"]")
	defer full.Release()
	return array.NewSlice(full, int64(n), int64(2*n))
}

// datums builds the arguments of a case over n rows.
func datums(t testing.TB, mem memory.Allocator, args []in, n int, sliced bool) []datum.Datum {
	t.Helper()
	out := make([]datum.Datum, len(args))
	for i, a := range args {
		switch {
		case a.isSc:
			out[i] = datum.FromScalar(a.sc, n)
		case sliced:
			out[i] = datum.FromArray(slicedJSON(t, mem, a.t, a.json), a.t)
		default:
			out[i] = datum.FromArray(fromJSON(t, mem, a.t, a.json), a.t)
		}
	}
	return out
}

func releaseDatums(ds []datum.Datum) {
	for _, d := range ds {
		d.Release()
	}
}

// rowsOf is the number of JSON rows.
func rowsOf(t testing.TB, dt dtype.DType, js string) int {
	t.Helper()
	arr := fromJSON(t, memory.DefaultAllocator, dt, js)
	defer arr.Release()
	return arr.Len()
}

// expectDatum checks that got (array or scalar) has dtype ret, the Arrow
// type of ret, valid buffers and the rows want (JSON).
func expectDatum(t testing.TB, mem memory.Allocator, got datum.Datum, ret dtype.DType, want string) {
	t.Helper()
	if !got.DType().Equal(ret) {
		t.Errorf("result dtype %s, want %s", got.DType(), ret)
	}
	exp := fromJSON(t, mem, ret, want)
	defer exp.Release()
	if got.Len() != exp.Len() {
		t.Fatalf("result has %d rows, want %d", got.Len(), exp.Len())
	}
	arr := got.Array()
	if got.IsScalar() {
		var err error
		if arr, err = scalar.MakeArray(mem, got.Scalar(), got.Len()); err != nil {
			t.Fatalf("materialising scalar result %v: %v", got.Scalar(), err)
		}
		defer arr.Release()
	} else if v, ok := arr.(interface{ ValidateFull() error }); ok {
		if err := v.ValidateFull(); err != nil {
			t.Errorf("result array is not valid Arrow: %v", err)
		}
	}
	if !arrow.TypeEqual(arr.DataType(), exp.DataType()) {
		t.Errorf("result Arrow type %s, want %s", arr.DataType(), exp.DataType())
	}
	// Row by row as scalars: values under a null (in a child of a null
	// struct row, say) are unspecified and must not count.
	for i := range exp.Len() {
		g, err := scalar.FromArray(arr, i, ret)
		if err != nil {
			t.Fatalf("row %d of the result: %v", i, err)
		}
		w, err := scalar.FromArray(exp, i, ret)
		if err != nil {
			t.Fatalf("row %d of the expected rows: %v", i, err)
		}
		if !g.Identical(w) {
			t.Errorf("result\n got %s\nwant %s\n(row %d: %s, want %s)", arr, exp, i, g, w)
			return
		}
	}
}

// kernelCase is one call of a kernel and its expected result (JSON rows of
// ret), or an error containing errText.
type kernelCase struct {
	name    string
	args    []in
	ret     dtype.DType
	want    string
	errText string
}

// runCases runs every case with plain and with sliced arrays.
func runCases(t *testing.T, cases []kernelCase, call func(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error)) {
	t.Helper()
	for _, c := range cases {
		for _, sliced := range []bool{false, true} {
			name := c.name
			if sliced {
				name += "/sliced"
			}
			t.Run(name, func(t *testing.T) {
				mem := checkedMem(t)
				n := 1
				if c.errText == "" {
					n = rowsOf(t, c.ret, c.want)
				} else {
					for _, a := range c.args {
						if !a.isSc {
							n = rowsOf(t, a.t, a.json)
							break
						}
					}
				}
				args := datums(t, mem, c.args, n, sliced)
				defer releaseDatums(args)
				got, err := call(mem, args, c.ret)
				if c.errText != "" {
					if err == nil {
						got.Release()
						t.Fatalf("no error, want one containing %q", c.errText)
					}
					if !strings.Contains(err.Error(), c.errText) {
						t.Fatalf("error %q, want one containing %q", err, c.errText)
					}
					return
				}
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				defer got.Release()
				expectDatum(t, mem, got, c.ret, c.want)
			})
		}
	}
}

// The dtypes the tests use most.
var (
	strN   = dtype.Utf8(true)
	str    = dtype.Utf8(false)
	i64N   = dtype.Primitive(dtype.I64, true)
	i64    = dtype.Primitive(dtype.I64, false)
	i32N   = dtype.Primitive(dtype.I32, true)
	boolN  = dtype.Bool(true)
	boolNN = dtype.Bool(false)
)

func TestAndValidity(t *testing.T) {
	mem := checkedMem(t)
	a := slicedJSON(t, mem, i64N, `[1, null, 3, null, 5, 6, 7, 8, 9, 10, null]`)
	defer a.Release()
	b := fromJSON(t, mem, i64N, `[null, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]`)
	defer b.Release()
	c := fromJSON(t, mem, i64, `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]`)
	defer c.Release()
	for _, tc := range []struct {
		arrs  []arrow.Array
		nulls int
		bits  string
	}{
		{[]arrow.Array{c, nil}, 0, ""},
		{[]arrow.Array{a}, 3, "10101111110"},
		{[]arrow.Array{b, c}, 1, "01111111111"},
		{[]arrow.Array{a, b, c}, 4, "00101111110"},
	} {
		buf, nulls := andValidity(mem, 11, tc.arrs...)
		if nulls != tc.nulls {
			t.Errorf("%d nulls, want %d", nulls, tc.nulls)
		}
		if buf == nil {
			if tc.bits != "" {
				t.Errorf("no bitmap, want %s", tc.bits)
			}
			continue
		}
		var got strings.Builder
		for i := range 11 {
			fmt.Fprint(&got, (buf.Bytes()[i/8]>>(i%8))&1)
		}
		if got.String() != tc.bits {
			t.Errorf("bitmap %s, want %s", got.String(), tc.bits)
		}
		buf.Release()
	}
}

func TestIsASCII(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"", true}, {"abc", true}, {"abcdefghijklmnop", true},
		{"abcdefgh\x80", false}, {"é", false}, {"abcdefghé", false},
	} {
		if got := isASCII([]byte(tc.s)); got != tc.want {
			t.Errorf("isASCII(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestAscending checks the offsets' order check on every length up to 12
// with one decrease at every position, and with extreme offsets.
func TestAscending(t *testing.T) {
	for n := range 13 {
		offs := make([]int32, n)
		for i := range offs {
			offs[i] = int32(3 * i)
		}
		if !ascending(offs) {
			t.Errorf("%v: not ascending", offs)
		}
		for i := 1; i < n; i++ {
			bad := append([]int32(nil), offs...)
			bad[i] = bad[i-1] - 1
			if ascending(bad) {
				t.Errorf("%v: ascending", bad)
			}
		}
	}
	if !ascending([]int32{0, 0, math.MaxInt32, math.MaxInt32}) {
		t.Error("equal and maximal offsets: not ascending")
	}
	if ascending([]int32{0, math.MaxInt32, math.MinInt32, 0, 1}) {
		t.Error("a fall from MaxInt32 to MinInt32: ascending")
	}
}
