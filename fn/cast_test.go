package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// TestCanCastFixedLength checks where fn.CanCast parts from scalar.CanCast:
// a cast call never turns a list into a fixed-size list, at any depth,
// while scalar.Cast does (checking each value's length).
func TestCanCastFixedLength(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		call     bool // fn.CanCast; scalar.CanCast is true for every row
	}{
		{"list<i32>", "fixed_size_list<i32, 2>", false},
		{"list<i32>?", "fixed_size_list<i64, 2>?", false},
		{"list<list<i32>>", "list<fixed_size_list<i32, 2>>", false},
		{"fixed_size_list<list<i32>, 2>", "fixed_size_list<fixed_size_list<i32, 3>, 2>", false},
		{"struct<a: i32, b: list<utf8>>", "struct<a: i64, b: fixed_size_list<utf8, 1>>", false},
		{"fixed_size_list<i32, 2>", "list<i64>", true},
		{"fixed_size_list<i32, 2>", "fixed_size_list<utf8, 2>", true},
		{"list<fixed_size_list<i32, 2>>", "list<list<i32>>", true},
		{"struct<a: i32, b: list<utf8>>", "struct<a: i64, b: list<utf8>>", true},
		{"null", "fixed_size_list<i32, 2>", true},
	} {
		from, err := dtype.Parse(tc.from)
		if err != nil {
			t.Fatal(err)
		}
		to, err := dtype.Parse(tc.to)
		if err != nil {
			t.Fatal(err)
		}
		if got := fn.CanCast(from, to); got != tc.call {
			t.Errorf("fn.CanCast(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.call)
		}
		if !scalar.CanCast(from, to) {
			t.Errorf("scalar.CanCast(%s, %s) = false, want true", tc.from, tc.to)
		}
	}
}
