package substrait_test

import (
	"fmt"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/substrait"
)

func bind(src, schema string) (*expr.Bound, expr.Scope) {
	root, err := dtype.Parse(schema)
	if err != nil {
		panic(err)
	}
	scope := expr.ScopeOf(root)
	e, err := parse.Parse(src)
	if err != nil {
		panic(err)
	}
	b, err := coerce.Bind(e, scope)
	if err != nil {
		panic(err)
	}
	return b, scope
}

// Export an expression and print it as Substrait's protobuf JSON: the
// functions come from the standard extensions, declared with their
// signatures, and called with the options that say colexpr's semantics
// (here checked overflow); fields are referenced by position in the base
// schema.
func ExampleExportJSON() {
	b, scope := bind("qty * 2::i32 > 10::i32", "struct<name: utf8?, qty: i32>")
	js, err := substrait.ExportJSON(b, scope)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(js))
	// Output:
	// {
	//   "version": {
	//     "minorNumber": 85,
	//     "producer": "colexpr"
	//   },
	//   "extensionUrns": [
	//     {
	//       "extensionUrnAnchor": 1,
	//       "urn": "extension:io.substrait:functions_comparison"
	//     },
	//     {
	//       "extensionUrnAnchor": 2,
	//       "urn": "extension:io.substrait:functions_arithmetic"
	//     }
	//   ],
	//   "extensions": [
	//     {
	//       "extensionFunction": {
	//         "extensionUrnReference": 1,
	//         "functionAnchor": 1,
	//         "name": "gt:any_any"
	//       }
	//     },
	//     {
	//       "extensionFunction": {
	//         "extensionUrnReference": 2,
	//         "functionAnchor": 2,
	//         "name": "multiply:i32_i32"
	//       }
	//     }
	//   ],
	//   "referredExpr": [
	//     {
	//       "expression": {
	//         "scalarFunction": {
	//           "functionReference": 1,
	//           "arguments": [
	//             {
	//               "value": {
	//                 "scalarFunction": {
	//                   "functionReference": 2,
	//                   "arguments": [
	//                     {
	//                       "value": {
	//                         "selection": {
	//                           "directReference": {
	//                             "structField": {
	//                               "field": 1
	//                             }
	//                           },
	//                           "rootReference": {}
	//                         }
	//                       }
	//                     },
	//                     {
	//                       "value": {
	//                         "literal": {
	//                           "i32": 2
	//                         }
	//                       }
	//                     }
	//                   ],
	//                   "options": [
	//                     {
	//                       "name": "overflow",
	//                       "preference": [
	//                         "ERROR"
	//                       ]
	//                     }
	//                   ],
	//                   "outputType": {
	//                     "i32": {
	//                       "nullability": "NULLABILITY_REQUIRED"
	//                     }
	//                   }
	//                 }
	//               }
	//             },
	//             {
	//               "value": {
	//                 "literal": {
	//                   "i32": 10
	//                 }
	//               }
	//             }
	//           ],
	//           "outputType": {
	//             "bool": {
	//               "nullability": "NULLABILITY_REQUIRED"
	//             }
	//           }
	//         }
	//       },
	//       "outputNames": [
	//         "expr"
	//       ]
	//     }
	//   ],
	//   "baseSchema": {
	//     "names": [
	//       "name",
	//       "qty"
	//     ],
	//     "struct": {
	//       "types": [
	//         {
	//           "string": {
	//             "nullability": "NULLABILITY_NULLABLE"
	//           }
	//         },
	//         {
	//           "i32": {
	//             "nullability": "NULLABILITY_REQUIRED"
	//           }
	//         }
	//       ],
	//       "nullability": "NULLABILITY_REQUIRED"
	//     }
	//   }
	// }
}

// Import reads a message back, here against the data's schema, which has
// its columns in another order: root fields are found by name.
func ExampleImportJSON() {
	b, scope := bind("name LIKE 'A%' AND qty BETWEEN 1 AND 9", "struct<name: utf8?, qty: i32>")
	js, err := substrait.ExportJSON(b, scope)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, _ := dtype.Parse("struct<id: i64, qty: i32, name: utf8?>")
	exprs, err := substrait.ImportJSON(js, expr.ScopeOf(data))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range exprs {
		fmt.Printf("%s: %s\n", n.Name, n.Expr)
	}
	// Output:
	// expr: name LIKE 'A%' AND qty BETWEEN 1 AND 9
}

// A construct with no Substrait form is an error that names it.
func ExampleExport_unsupported() {
	b, scope := bind("list_contains(xs, 3)", "struct<xs: list<i32>>")
	_, err := substrait.Export(b, scope)
	fmt.Println(err)
	// Output:
	// substrait: export: at the root `list_contains(xs, 3)`: unsupported: list_contains has no Substrait form: Substrait's standard extensions have no list membership test with SQL's null rule
}

// PruneSchema keeps only the referenced fields in the base schema, so an
// expression exports even when the scope has a field Substrait cannot type.
func ExampleOptions_Export() {
	b, scope := bind("s = 'x'", "struct<flags: u8, s: utf8>")
	if _, err := substrait.Export(b, scope); err != nil {
		fmt.Println(err)
	}
	msg, err := substrait.Options{PruneSchema: true}.Export(b, scope)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(msg.BaseSchema.Names)
	// Output:
	// substrait: export: at base schema: field $.flags: unsupported: type u8: Substrait has no unsigned integers (cast to a signed type wide enough first); if the expression does not use that field, export with Options{PruneSchema: true}
	// [s]
}
