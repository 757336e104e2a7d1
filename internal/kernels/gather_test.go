package kernels

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colexpr/colexpr/datum"
)

// TestGather checks Gather on every layout it handles, over sliced input
// (the slice drops the first row), with repeated rows and -1 for a null
// row, and with no memory left allocated.
func TestGather(t *testing.T) {
	idx := []int32{2, -1, 0, 2}
	for _, c := range []struct {
		typ, data, want string
	}{
		{"i32?", `[7, 1, null, 3]`, `[3, null, 1, 3]`},
		{"i8", `[7, 1, 2, 3]`, `[3, null, 1, 3]`},
		{"f64?", `[7, 1.5, null, -2]`, `[-2, null, 1.5, -2]`},
		{"decimal(20, 2)", `["7", "1.25", "2", "-3.50"]`, `["-3.50", null, "1.25", "-3.50"]`},
		{"bool?", `[true, false, null, true]`, `[true, null, false, true]`},
		{"utf8?", `["x", "ab", null, "héllo"]`, `["héllo", null, "ab", "héllo"]`},
		{"binary", `["eA==", "YQ==", "", "YmM="]`, `["YmM=", null, "YQ==", "YmM="]`},
		{"list<i32?>?", `[[9], [1, null], null, [3, 4, 5]]`, `[[3, 4, 5], null, [1, null], [3, 4, 5]]`},
		{"fixed_size_list<utf8, 2>?", `[["z", "z"], ["a", "b"], null, ["c", "d"]]`, `[["c", "d"], null, ["a", "b"], ["c", "d"]]`},
		{"struct<a: i64, b: utf8?>?", `[{"a": 9, "b": "z"}, {"a": 1, "b": null}, null, {"a": 3, "b": "c"}]`,
			`[{"a": 3, "b": "c"}, null, {"a": 1, "b": null}, {"a": 3, "b": "c"}]`},
	} {
		t.Run(c.typ, func(t *testing.T) {
			mem := checkedMem(t)
			dt := ty(c.typ)
			full := fromJSON(t, mem, dt, c.data)
			defer full.Release()
			sliced := array.NewSlice(full, 1, int64(full.Len()))
			defer sliced.Release()
			got, err := Gather(mem, sliced, idx)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			expectDatum(t, mem, datum.FromArray(got, dt.WithNullable(true)), dt.WithNullable(true), c.want)
		})
	}
}
