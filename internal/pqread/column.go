package pqread

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// Supported reports whether the top-level field f of a pqarrow schema
// manifest can be read by this package: a flat (not repeated, not nested)
// column whose Arrow type is one of those listed in the package
// documentation. Every physical type pqarrow maps to such an Arrow type is
// decoded, so the answer needs no more than the field.
func Supported(f *pqarrow.SchemaField) bool {
	if f == nil || f.Field == nil || len(f.Children) > 0 || !f.IsLeaf() ||
		f.LevelInfo.RepLevel != 0 || f.LevelInfo.DefLevel > 1 {
		return false
	}
	switch f.Field.Type.ID() {
	case arrow.NULL, arrow.BOOL,
		arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16,
		arrow.INT32, arrow.UINT32, arrow.INT64, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DATE32, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP,
		arrow.DECIMAL128,
		arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY,
		arrow.FIXED_SIZE_BINARY:
		return true
	}
	return false
}

// kind is how a column is decoded.
type kind uint8

const (
	kindNull    kind = iota // no data to read
	kindDirect              // values read straight into the output: same width and bits
	kindInt                 // INT32/INT64 to an integer of another width
	kindBool                // BOOLEAN to a bitmap
	kindDecimal             // INT32/INT64/FLBA/BYTE_ARRAY to decimal128
	kindBinary              // BYTE_ARRAY to int32 offsets and data
	kindLarge               // BYTE_ARRAY to int64 offsets and data
	kindFixed               // FLBA copied to fixed-width slots
	kindInt96               // INT96 to nanosecond timestamps
)

// column is one output column and how to decode it.
type column struct {
	field  arrow.Field
	leaf   int // column index in the Parquet schema
	phys   parquet.Type
	kind   kind
	width  int // bytes per output value (kindDirect, kindInt, kindFixed); FLBA length (kindDecimal)
	maxDef int16
}

// planColumn decides how to decode field f, whose leaf column is descr.
func planColumn(f *pqarrow.SchemaField, descr *schema.Column) (*column, error) {
	col := &column{field: *f.Field, leaf: f.ColIndex, phys: descr.PhysicalType(), maxDef: descr.MaxDefinitionLevel()}
	if col.maxDef > 1 || descr.MaxRepetitionLevel() != 0 {
		return nil, fmt.Errorf("column %q is nested (definition level %d, repetition level %d)", col.field.Name, col.maxDef, descr.MaxRepetitionLevel())
	}
	dt := col.field.Type
	bad := func() (*column, error) {
		return nil, fmt.Errorf("column %q: cannot read Parquet %s as %s", col.field.Name, col.phys, dt)
	}
	switch dt.ID() {
	case arrow.NULL:
		col.kind = kindNull
	case arrow.BOOL:
		if col.phys != parquet.Types.Boolean {
			return bad()
		}
		col.kind = kindBool
	case arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16,
		arrow.INT32, arrow.UINT32, arrow.INT64, arrow.UINT64,
		arrow.DATE32, arrow.TIME32, arrow.TIME64:
		col.width = dt.(arrow.FixedWidthDataType).BitWidth() / 8
		switch {
		case col.phys == parquet.Types.Int32 && col.width == 4, col.phys == parquet.Types.Int64 && col.width == 8:
			col.kind = kindDirect
		case col.phys == parquet.Types.Int32, col.phys == parquet.Types.Int64:
			col.kind = kindInt
		default:
			return bad()
		}
	case arrow.TIMESTAMP:
		col.width = 8
		switch col.phys {
		case parquet.Types.Int64:
			col.kind = kindDirect
		case parquet.Types.Int96:
			if dt.(*arrow.TimestampType).Unit != arrow.Nanosecond {
				return bad()
			}
			col.kind = kindInt96
		default:
			return bad()
		}
	case arrow.FLOAT32:
		if col.phys != parquet.Types.Float {
			return bad()
		}
		col.kind, col.width = kindDirect, 4
	case arrow.FLOAT64:
		if col.phys != parquet.Types.Double {
			return bad()
		}
		col.kind, col.width = kindDirect, 8
	case arrow.FLOAT16, arrow.FIXED_SIZE_BINARY:
		col.kind, col.width = kindFixed, dt.(arrow.FixedWidthDataType).BitWidth()/8
		if col.phys != parquet.Types.FixedLenByteArray || descr.TypeLength() != col.width {
			return bad()
		}
	case arrow.DECIMAL128:
		col.kind = kindDecimal
		switch col.phys {
		case parquet.Types.Int32, parquet.Types.Int64, parquet.Types.ByteArray:
		case parquet.Types.FixedLenByteArray:
			col.width = descr.TypeLength()
			if col.width < 1 || col.width > 16 {
				return bad()
			}
		default:
			return bad()
		}
	case arrow.STRING, arrow.BINARY:
		if col.phys != parquet.Types.ByteArray {
			return bad()
		}
		col.kind = kindBinary
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		if col.phys != parquet.Types.ByteArray {
			return bad()
		}
		col.kind = kindLarge
	default:
		return nil, fmt.Errorf("column %q: type %s is not supported", col.field.Name, dt)
	}
	return col, nil
}
