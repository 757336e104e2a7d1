package datum_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func TestArrayDatumOwnsOneReference(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt32Builder(mem)
	b.AppendValues([]int32{1, 2, 3}, nil)
	arr := b.NewArray()
	b.Release()

	d := datum.FromArray(arr, dtype.Primitive(dtype.I32, false))
	if d.IsScalar() || d.Len() != 3 || d.Array() != arr || !d.DType().Equal(dtype.Primitive(dtype.I32, false)) {
		t.Fatalf("array datum: scalar=%v len=%d dtype=%s", d.IsScalar(), d.Len(), d.DType())
	}
	shared := d.Retain() // a second owner
	d.Release()
	if shared.Array().Len() != 3 {
		t.Fatal("the array went away while a reference was held")
	}
	shared.Release() // the checked allocator sees the buffers freed
}

func TestScalarDatumBroadcasts(t *testing.T) {
	d := datum.FromScalar(scalar.Int32(7), 5)
	if !d.IsScalar() || d.Len() != 5 || d.Array() != nil {
		t.Fatalf("scalar datum: scalar=%v len=%d", d.IsScalar(), d.Len())
	}
	if v := d.Scalar().Value(); v != int64(7) {
		t.Fatalf("scalar value %v, want 7", v)
	}
	d.Retain().Release() // no array: both are no-ops, and must not panic
}
