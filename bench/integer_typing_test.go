package bench

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
)

// intColumns are the integer types, as colexpr and DuckDB name them.
var intColumns = []struct {
	name  string
	arrow arrow.DataType
	duck  string
}{
	{"u8", arrow.PrimitiveTypes.Uint8, "UTINYINT"},
	{"u16", arrow.PrimitiveTypes.Uint16, "USMALLINT"},
	{"u32", arrow.PrimitiveTypes.Uint32, "UINTEGER"},
	{"u64", arrow.PrimitiveTypes.Uint64, "UBIGINT"},
	{"i8", arrow.PrimitiveTypes.Int8, "TINYINT"},
	{"i16", arrow.PrimitiveTypes.Int16, "SMALLINT"},
	{"i32", arrow.PrimitiveTypes.Int32, "INTEGER"},
	{"i64", arrow.PrimitiveTypes.Int64, "BIGINT"},
}

// duckIntName is DuckDB's name of the integer dtype t.
func duckIntName(t dtype.DType) string {
	for _, c := range intColumns {
		if c.name == t.PType().String() {
			return c.duck
		}
	}
	return t.String()
}

// TestIntegerTyping checks, type by type, that colexpr types integer
// arithmetic as DuckDB does: every pair of integer columns and every column
// with literals that fit it and do not (+ - * and integer division, which is
// / in colexpr and // in DuckDB). Where DuckDB's result is HUGEINT (u64 with
// a signed integer, or a literal beyond i64), colexpr, which has no 128-bit
// integer, must refuse the expression instead.
func TestIntegerTyping(t *testing.T) {
	d, err := OpenDuck()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var cols []string
	var fields []arrow.Field
	for _, c := range intColumns {
		cols = append(cols, "1::"+c.duck+" AS "+c.name)
		fields = append(fields, arrow.Field{Name: c.name, Type: c.arrow, Nullable: true})
	}
	if _, err := d.DB.Exec("CREATE TABLE ints AS SELECT " + strings.Join(cols, ", ")); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema(fields, nil)

	type pair struct{ colexpr, duck string }
	var exprs []pair
	ops := []pair{{"+", "+"}, {"-", "-"}, {"*", "*"}, {"/", "//"}}
	for _, a := range intColumns {
		for _, op := range ops {
			for _, b := range intColumns {
				exprs = append(exprs, pair{a.name + " " + op.colexpr + " " + b.name, a.name + " " + op.duck + " " + b.name})
			}
			for _, lit := range []string{"1", "-1", "127", "128", "255", "256", "300", "70000", "3000000000"} {
				exprs = append(exprs, pair{a.name + " " + op.colexpr + " " + lit, a.name + " " + op.duck + " " + lit})
			}
		}
	}
	checked := 0
	for _, e := range exprs {
		var want string
		err := d.DB.QueryRow("SELECT typeof(" + e.duck + ") FROM ints").Scan(&want)
		if err != nil && err != sql.ErrNoRows {
			t.Fatalf("DuckDB: %s: %v", e.duck, err)
		}
		p, cerr := colexpr.Compile(e.colexpr, schema)
		if want == "HUGEINT" {
			if cerr == nil {
				t.Errorf("%s: DuckDB types it HUGEINT, colexpr %s (want an error: no 128-bit integer)", e.colexpr, p.DType())
			}
			continue
		}
		if cerr != nil {
			t.Errorf("%s: DuckDB types it %s, colexpr fails: %v", e.colexpr, want, cerr)
			continue
		}
		if got := duckIntName(p.DType()); got != want {
			t.Errorf("%s: colexpr types it %s (%s), DuckDB %s", e.colexpr, got, p.DType(), want)
		}
		checked++
	}
	if checked < len(exprs)/2 {
		t.Fatalf("only %d of %d expressions checked", checked, len(exprs))
	}
	t.Logf("%d expressions typed as DuckDB types them", checked)
}
