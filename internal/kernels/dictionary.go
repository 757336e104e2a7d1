package kernels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Decoding dictionaries: the plain array of a dictionary<indices, values>
// array is its values gathered by its indices (GatherData), a null index a
// null row. dtype.FromArrow types a dictionary as its values; package eval
// decodes a dictionary column where it reads it, and an output that cannot
// hold a dictionary (an Arrow IPC file, one dictionary per field) writes
// it decoded. No kernel takes a dictionary.

// HasDictionary reports whether arrays of type t are or hold a dictionary
// (as a struct field, or list elements, at any depth).
func HasDictionary(t arrow.DataType) bool {
	switch t := t.(type) {
	case *arrow.DictionaryType:
		return true
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if HasDictionary(f.Type) {
				return true
			}
		}
	case *arrow.ListType:
		return HasDictionary(t.Elem())
	case *arrow.FixedSizeListType:
		return HasDictionary(t.Elem())
	}
	return false
}

// DecodedType is t with every dictionary in it replaced by its value type:
// the type DecodeDictionaries gives arrays of type t.
func DecodedType(t arrow.DataType) arrow.DataType {
	if !HasDictionary(t) {
		return t
	}
	switch t := t.(type) {
	case *arrow.DictionaryType:
		return DecodedType(t.ValueType)
	case *arrow.StructType:
		fields := make([]arrow.Field, t.NumFields())
		for i := range fields {
			fields[i] = t.Field(i)
			fields[i].Type = DecodedType(fields[i].Type)
		}
		return arrow.StructOf(fields...)
	case *arrow.ListType:
		elem := t.ElemField()
		elem.Type = DecodedType(elem.Type)
		return arrow.ListOfField(elem)
	case *arrow.FixedSizeListType:
		elem := t.ElemField()
		elem.Type = DecodedType(elem.Type)
		return arrow.FixedSizeListOfField(t.Len(), elem)
	}
	return t
}

// DecodeDictionaries is arr with every dictionary in it (arr itself, a
// struct field, list elements, at any depth) replaced by the plain array of
// its values: a new reference, arr itself when it holds no dictionary.
func DecodeDictionaries(mem memory.Allocator, arr arrow.Array) (arrow.Array, error) {
	if !HasDictionary(arr.DataType()) {
		arr.Retain()
		return arr, nil
	}
	d, err := decodeData(mem, arr.Data())
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// decodeData is DecodeDictionaries over array data.
func decodeData(mem memory.Allocator, d arrow.ArrayData) (arrow.ArrayData, error) {
	t := d.DataType()
	if !HasDictionary(t) {
		d.Retain()
		return d, nil
	}
	switch t := t.(type) {
	case *arrow.DictionaryType:
		return decodeDictionary(mem, d, t)
	case *arrow.StructType:
		children := make([]arrow.ArrayData, len(d.Children()))
		defer releaseData(children)
		fields := make([]arrow.Field, t.NumFields())
		for i, c := range d.Children() {
			var err error
			if children[i], err = decodeData(mem, c); err != nil {
				return nil, err
			}
			fields[i] = t.Field(i)
			fields[i].Type = children[i].DataType()
		}
		return array.NewData(arrow.StructOf(fields...), d.Len(), d.Buffers(), children, d.NullN(), d.Offset()), nil
	case *arrow.ListType, *arrow.FixedSizeListType:
		if len(d.Children()) != 1 {
			return nil, fmt.Errorf("an array of Arrow type %s without its elements", t)
		}
		elems, err := decodeData(mem, d.Children()[0])
		if err != nil {
			return nil, err
		}
		defer elems.Release()
		elem := t.(arrow.ListLikeType).ElemField()
		elem.Type = elems.DataType()
		var nt arrow.DataType
		if ft, ok := t.(*arrow.FixedSizeListType); ok {
			nt = arrow.FixedSizeListOfField(ft.Len(), elem)
		} else {
			nt = arrow.ListOfField(elem)
		}
		return array.NewData(nt, d.Len(), d.Buffers(), []arrow.ArrayData{elems}, d.NullN(), d.Offset()), nil
	}
	return nil, fmt.Errorf("cannot decode the dictionaries of Arrow type %s", t)
}

func releaseData(ds []arrow.ArrayData) {
	for _, d := range ds {
		if d != nil {
			d.Release()
		}
	}
}

// decodeDictionary is the plain array of a dictionary array's values:
// row i is value indices[i], null where the index is null. An index
// outside the dictionary is an error.
func decodeDictionary(mem memory.Allocator, d arrow.ArrayData, t *arrow.DictionaryType) (arrow.ArrayData, error) {
	dict := dictionaryData(d)
	if dict == nil {
		// arrow-go's Parquet reader gives list elements of a batch without
		// any without a dictionary: they are all null, or there are none.
		if d.Len() > 0 && NullCount(d) != d.Len() {
			return nil, fmt.Errorf("a dictionary array of Arrow type %s without its dictionary", t)
		}
		nulls := array.MakeArrayOfNull(mem, DecodedType(t.ValueType), d.Len())
		defer nulls.Release()
		nd := nulls.Data()
		nd.Retain()
		return nd, nil
	}
	values, err := decodeData(mem, dict)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	if len(d.Buffers()) < 2 {
		return nil, fmt.Errorf("a dictionary array of Arrow type %s without its indices", t)
	}
	// The indices are an integer array over the dictionary array's
	// validity and index buffers.
	id := array.NewData(t.IndexType, d.Len(), d.Buffers()[:2], nil, d.NullN(), d.Offset())
	defer id.Release()
	ind := array.MakeFromData(id)
	defer ind.Release()
	idx := make([]int32, d.Len())
	var ok bool
	switch a := ind.(type) {
	case *array.Int8:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Int16:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Int32:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Int64:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Uint8:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Uint16:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Uint32:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	case *array.Uint64:
		ok = dictIndices(idx, a.Values(), d, values.Len())
	default:
		return nil, fmt.Errorf("a dictionary array with indices of Arrow type %s", t.IndexType)
	}
	if !ok {
		return nil, fmt.Errorf("a dictionary array of Arrow type %s has an index outside its dictionary of %d values", t, values.Len())
	}
	g, err := GatherData(mem, values, idx)
	if err != nil {
		return nil, fmt.Errorf("decoding a dictionary of Arrow type %s: %w", t, err)
	}
	return g, nil
}

// dictIndices fills idx with the indices of the dictionary array d (vals
// are its index values, its offset applied), -1 where d is null, and
// reports whether every valid index is below n.
func dictIndices[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](idx []int32, vals []T, d arrow.ArrayData, n int) bool {
	if len(vals) < len(idx) {
		return false
	}
	validity := BufferBytes(d, 0)
	hasNulls := validity != nil && NullCount(d) > 0
	off := d.Offset()
	for i := range idx {
		if hasNulls && !bitutil.BitIsSet(validity, off+i) {
			idx[i] = -1
			continue
		}
		v := vals[i]
		if v < 0 || uint64(v) >= uint64(n) {
			return false
		}
		idx[i] = int32(v)
	}
	return true
}

// dictionaryData is the dictionary of a dictionary array's data, or nil
// when it has none (arrow-go keeps a nil *array.Data there).
func dictionaryData(d arrow.ArrayData) arrow.ArrayData {
	if dd, ok := d.Dictionary().(*array.Data); !ok || dd == nil {
		return nil
	}
	return d.Dictionary()
}

// missingDictionary reports whether arr, or an array in it (a struct
// field, list elements), is a dictionary array without its dictionary.
func missingDictionary(d arrow.ArrayData) bool {
	switch d.DataType().(type) {
	case *arrow.DictionaryType:
		return dictionaryData(d) == nil
	case *arrow.StructType, *arrow.ListType, *arrow.FixedSizeListType:
		for _, c := range d.Children() {
			if missingDictionary(c) {
				return true
			}
		}
	}
	return false
}

// FillMissingDictionaries is arr with an empty dictionary given to each
// dictionary array in it (arr itself, a struct field, list elements) that
// has none — arrow-go's Parquet reader makes such arrays for the list
// elements of a batch that has none, and its Parquet writer, like other
// readers of the batch, fails on them. A new reference: arr itself when no
// dictionary is missing. A dictionary array without a dictionary whose
// indices are not all null is an error. The empty dictionaries come from
// mem.
func FillMissingDictionaries(mem memory.Allocator, arr arrow.Array) (arrow.Array, error) {
	if !HasDictionary(arr.DataType()) || !missingDictionary(arr.Data()) {
		arr.Retain()
		return arr, nil
	}
	d, err := fillData(mem, arr.Data())
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func fillData(mem memory.Allocator, d arrow.ArrayData) (arrow.ArrayData, error) {
	if !missingDictionary(d) {
		d.Retain()
		return d, nil
	}
	if t, ok := d.DataType().(*arrow.DictionaryType); ok {
		if d.Len() > 0 && NullCount(d) != d.Len() {
			return nil, fmt.Errorf("a dictionary array of Arrow type %s without its dictionary", t)
		}
		// A builder's empty array has every buffer (a string's one
		// offset), which readers of the dictionary index.
		b := array.NewBuilder(mem, t.ValueType)
		empty := b.NewArray()
		b.Release()
		defer empty.Release()
		return array.NewDataWithDictionary(t, d.Len(), d.Buffers(), d.NullN(), d.Offset(), empty.Data().(*array.Data)), nil
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	defer releaseData(children)
	for i, c := range d.Children() {
		var err error
		if children[i], err = fillData(mem, c); err != nil {
			return nil, err
		}
	}
	return array.NewData(d.DataType(), d.Len(), d.Buffers(), children, d.NullN(), d.Offset()), nil
}

// NullValuesInIndices is the dictionary array arr with the rows whose
// index picks a null value of its dictionary made null by their index,
// and the dictionary's validity dropped (no index left points at one of
// its null slots, which keep whatever they hold): the same values, for a
// writer that takes no null in a dictionary (arrow-go's Parquet writer). A
// new reference; arr itself when its dictionary has no null, or arr is no
// dictionary array.
func NullValuesInIndices(mem memory.Allocator, arr arrow.Array) arrow.Array {
	d, ok := arr.(*array.Dictionary)
	if !ok || d.Dictionary().NullN() == 0 {
		arr.Retain()
		return arr
	}
	dict := d.Dictionary()
	data := d.Data()
	off, n := data.Offset(), data.Len()
	validity := ZeroedBitmap(mem, off+n)
	defer validity.Release()
	bits := validity.Bytes()
	nulls := 0
	for i := range n {
		if d.IsValid(i) && dict.IsValid(d.GetValueIndex(i)) {
			bitutil.SetBit(bits, off+i)
		} else {
			nulls++
		}
	}
	dd := dict.Data()
	bufs := append([]*memory.Buffer{nil}, dd.Buffers()[1:]...)
	values := array.NewData(dd.DataType(), dd.Len(), bufs, dd.Children(), 0, dd.Offset())
	defer values.Release()
	nd := array.NewDataWithDictionary(data.DataType(), n, []*memory.Buffer{validity, data.Buffers()[1]}, nulls, off, values)
	defer nd.Release()
	return array.MakeFromData(nd)
}
