package fn

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// DuckDB's everyday JSON functions over utf8 documents (DuckDB's JSON type
// is text), with DuckDB's semantics (checked against DuckDB 2.0):
//
//	json_extract_string(j, path)   the value at path as text: a string's characters, null for
//	                               JSON null, any other value its JSON text (the operator j ->> path)
//	json_extract(j, path)          the JSON text of the value at path ('null' for JSON null)
//	json_valid(j)                  whether j is a JSON document (false, never an error, when not)
//	json_array_length(j[, path])   u64 number of elements of the array at path; 0 for another value
//	json_type(j[, path])           DuckDB's name of the value's type: OBJECT, ARRAY, VARCHAR,
//	                               UBIGINT (an integer >= 0), BIGINT (a negative one), DOUBLE,
//	                               BOOLEAN, NULL
//
// All but json_valid are null where the path leads nowhere (a missing key,
// an index past the end), and an error on a malformed document ("malformed
// JSON at byte 0 of input: unexpected character") or path. JSON text is
// written as DuckDB (yyjson) writes it: minified, object members in input
// order (duplicates kept; a path finds the first), numbers re-serialized
// (3.0, 1e21, 1e-7, 100000000000000000000.0; integers beyond 64 bits, nan
// and inf as written). The paths and the number rules are in
// internal/kernels/json.go and json_funcs.go. A path is utf8; for
// json_extract and json_extract_string it may also be an integer, an
// array index (negative from the end), as in DuckDB.
var (
	JSONExtractString Function = jsonFn{simple{IDJSONExtractString}, 2, true}
	JSONExtract       Function = jsonFn{simple{IDJSONExtract}, 2, true}
	JSONValid         Function = jsonFn{simple{IDJSONValid}, 1, false}
	JSONArrayLength   Function = jsonFn{simple{IDJSONArrayLength}, 1, false}
	JSONType          Function = jsonFn{simple{IDJSONType}, 1, false}
	jsonFuns                   = []Function{JSONExtractString, JSONExtract, JSONValid, JSONArrayLength, JSONType}
)

// The ids of the JSON functions.
const (
	IDJSONExtractString = "json_extract_string"
	IDJSONExtract       = "json_extract"
	IDJSONValid         = "json_valid"
	IDJSONArrayLength   = "json_array_length"
	IDJSONType          = "json_type"
)

func init() {
	text := dtype.Utf8(true)
	for _, f := range jsonFuns {
		builtinProperties[f.ID()] = &Properties{Prec: PrecPostfix, Coercion: CoerceNullLiterals, NullArgs: []dtype.DType{text}}
		mustRegister(f)
	}
}

// jsonFn is a JSON function of a utf8 document and, from argument
// min on, an optional path (required when min is 2); intPath: the path
// may be an integer.
type jsonFn struct {
	simple
	min     int
	intPath bool
}

func (f jsonFn) Arity() Arity {
	if f.id == IDJSONValid {
		return Exactly(1)
	}
	return Arity{f.min, 2}
}

func (f jsonFn) Fallible() bool { return f.id != IDJSONValid }

func (f jsonFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsUtf8() {
		return dtype.DType{}, argErr(f, 0, "has type %s, want utf8 (a JSON document)", args[0])
	}
	if len(args) > 1 && !args[1].IsUtf8() && !(f.intPath && args[1].IsInt()) {
		want := "utf8 (a JSON path)"
		if f.intPath {
			want = "utf8 (a JSON path) or an integer (an array index)"
		}
		return dtype.DType{}, argErr(f, 1, "has type %s, want %s", args[1], want)
	}
	// A path may lead nowhere: the result is nullable whenever there is one.
	nullable := anyNullable(args) || len(args) > 1 || f.id == IDJSONExtractString
	switch f.id {
	case IDJSONValid:
		return dtype.Bool(anyNullable(args)), nil
	case IDJSONArrayLength:
		return dtype.Primitive(dtype.U64, nullable), nil
	}
	return dtype.Utf8(nullable), nil
}

var _ Kernel = jsonFn{}

// Eval evaluates the JSON functions.
func (f jsonFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	mem := ctxMem(ctx)
	var (
		out datum.Datum
		err error
	)
	switch f.id {
	case IDJSONExtractString:
		out, err = kernels.JSONExtract(mem, args, true, ret)
	case IDJSONExtract:
		out, err = kernels.JSONExtract(mem, args, false, ret)
	case IDJSONValid:
		out, err = kernels.JSONValid(mem, args, ret)
	case IDJSONArrayLength:
		out, err = kernels.JSONArrayLength(mem, args, ret)
	case IDJSONType:
		out, err = kernels.JSONType(mem, args, ret)
	default:
		return datum.Datum{}, fmt.Errorf("%s: no kernel", f.id)
	}
	return out, kernelError(f.ID(), err)
}
