package kernels

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestRowValidity: NullCount counts a slice's nulls when its count is
// unknown, RowValidityOf reads rows at the slice's offset, and an array of
// the null type is null throughout.
func TestRowValidity(t *testing.T) {
	mem := checkedMem(t)
	whole := arrowJSON(t, mem, arrow.PrimitiveTypes.Int32, `[null, 1, null, 3, 4]`)
	defer whole.Release()
	sd := array.NewSliceData(whole.Data(), 1, 5) // [1, null, 3, 4]
	defer sd.Release()
	if n := NullCount(sd); n != 1 {
		t.Errorf("NullCount of the slice = %d, want 1", n)
	}
	v := RowValidityOf(sd)
	if v.AllValid() {
		t.Error("AllValid of a slice with a null")
	}
	for i, want := range []bool{true, false, true, true} {
		if v.Valid(i) != want {
			t.Errorf("Valid(%d) = %v, want %v", i, !want, want)
		}
	}
	tail := array.NewSliceData(whole.Data(), 3, 5) // [3, 4]
	defer tail.Release()
	if n := NullCount(tail); n != 0 || !RowValidityOf(tail).AllValid() {
		t.Errorf("the slice [3, 4]: NullCount %d, AllValid %v", n, RowValidityOf(tail).AllValid())
	}

	nulls := array.NewNull(3)
	defer nulls.Release()
	nv := RowValidityOf(nulls.Data())
	if NullCount(nulls.Data()) != 3 || nv.AllValid() || nv.Valid(0) || nv.Valid(2) {
		t.Errorf("null type: NullCount %d, AllValid %v, Valid(0) %v", NullCount(nulls.Data()), nv.AllValid(), nv.Valid(0))
	}

	buf, nn := CopyValidity(mem, sd)
	if nn != 1 || buf == nil || buf.Bytes()[0]&0b1111 != 0b1101 {
		t.Errorf("CopyValidity = %v, %d", buf, nn)
	}
	ReleaseBuffer(buf)
	if buf, nn := CopyValidity(mem, tail); buf != nil || nn != 0 {
		t.Errorf("CopyValidity without nulls = %v, %d", buf, nn)
	}
	ReleaseBuffer(nil)
}

// TestReinterpret: the length is rounded down, and a buffer shorter than
// one value gives nil.
func TestReinterpret(t *testing.T) {
	b := []byte{1, 0, 0, 0, 2, 0, 0, 0, 9}
	if got := Reinterpret[int32](b); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("Reinterpret[int32] = %v, want [1 2]", got)
	}
	if got := Reinterpret[int64](b[:7]); got != nil {
		t.Errorf("Reinterpret[int64] of 7 bytes = %v, want nil", got)
	}
	if got := Reinterpret[int64](nil); got != nil {
		t.Errorf("Reinterpret[int64](nil) = %v, want nil", got)
	}
}
