package substrait_test

import (
	"fmt"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/substrait"
)

// Export a query as a Substrait plan: the named table lineitem, read with
// the projection of the two columns the query reads, filtered, projected
// to one output column.
func ExampleExportPlan() {
	where, scope := bind("qty > 10::i32", "struct<name: utf8?, qty: i32, price: f64>")
	sel, _ := bind("price * 2.0", "struct<name: utf8?, qty: i32, price: f64>")
	msg, err := substrait.ExportPlan(scope, substrait.PlanQuery{
		Table:  []string{"lineitem"},
		Where:  where,
		Select: []substrait.Named{{Name: "double_price", Expr: sel}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	js, err := substrait.MarshalPlanJSON(msg)
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
	//         "name": "multiply:fp64_fp64"
	//       }
	//     }
	//   ],
	//   "relations": [
	//     {
	//       "root": {
	//         "input": {
	//           "project": {
	//             "common": {
	//               "emit": {
	//                 "outputMapping": [
	//                   2
	//                 ]
	//               }
	//             },
	//             "input": {
	//               "filter": {
	//                 "common": {
	//                   "direct": {}
	//                 },
	//                 "input": {
	//                   "read": {
	//                     "common": {
	//                       "direct": {}
	//                     },
	//                     "baseSchema": {
	//                       "names": [
	//                         "name",
	//                         "qty",
	//                         "price"
	//                       ],
	//                       "struct": {
	//                         "types": [
	//                           {
	//                             "string": {
	//                               "nullability": "NULLABILITY_NULLABLE"
	//                             }
	//                           },
	//                           {
	//                             "i32": {
	//                               "nullability": "NULLABILITY_REQUIRED"
	//                             }
	//                           },
	//                           {
	//                             "fp64": {
	//                               "nullability": "NULLABILITY_REQUIRED"
	//                             }
	//                           }
	//                         ],
	//                         "nullability": "NULLABILITY_REQUIRED"
	//                       }
	//                     },
	//                     "projection": {
	//                       "select": {
	//                         "structItems": [
	//                           {
	//                             "field": 1
	//                           },
	//                           {
	//                             "field": 2
	//                           }
	//                         ]
	//                       },
	//                       "maintainSingularStruct": true
	//                     },
	//                     "namedTable": {
	//                       "names": [
	//                         "lineitem"
	//                       ]
	//                     }
	//                   }
	//                 },
	//                 "condition": {
	//                   "scalarFunction": {
	//                     "functionReference": 1,
	//                     "arguments": [
	//                       {
	//                         "value": {
	//                           "selection": {
	//                             "directReference": {
	//                               "structField": {}
	//                             },
	//                             "rootReference": {}
	//                           }
	//                         }
	//                       },
	//                       {
	//                         "value": {
	//                           "literal": {
	//                             "i32": 10
	//                           }
	//                         }
	//                       }
	//                     ],
	//                     "outputType": {
	//                       "bool": {
	//                         "nullability": "NULLABILITY_REQUIRED"
	//                       }
	//                     }
	//                   }
	//                 }
	//               }
	//             },
	//             "expressions": [
	//               {
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
	//                           "fp64": 2
	//                         }
	//                       }
	//                     }
	//                   ],
	//                   "options": [
	//                     {
	//                       "name": "rounding",
	//                       "preference": [
	//                         "TIE_TO_EVEN"
	//                       ]
	//                     }
	//                   ],
	//                   "outputType": {
	//                     "fp64": {
	//                       "nullability": "NULLABILITY_REQUIRED"
	//                     }
	//                   }
	//                 }
	//               }
	//             ]
	//           }
	//         },
	//         "names": [
	//           "double_price"
	//         ]
	//       }
	//     }
	//   ]
	// }
}

// Import a plan against the schema of the data it will run on, here with
// its columns in another order and one more: columns are found by name.
func ExampleImportPlan() {
	where, scope := bind("name LIKE 'A%' AND qty > 10::i32", "struct<name: utf8?, qty: i32, price: f64>")
	sel, _ := bind("price * 2.0", "struct<name: utf8?, qty: i32, price: f64>")
	msg, err := substrait.ExportPlan(scope, substrait.PlanQuery{
		Files:  []substrait.File{{Path: "/data/items.parquet", Format: substrait.Parquet}},
		Where:  where,
		Select: []substrait.Named{{Name: "double_price", Expr: sel}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	read, err := substrait.ReadOf(msg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("reads:", read.Files[0].Path, read.Files[0].Format)
	fmt.Println("base schema:", read.Schema)
	data, _ := dtype.Parse("struct<id: i64, price: f64, qty: i32, name: utf8?>")
	q, err := substrait.ImportPlan(msg, expr.ScopeOf(data))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("where:", q.Where)
	for _, n := range q.Select {
		fmt.Printf("select: %s AS %s\n", n.Expr, n.Name)
	}
	// Output:
	// reads: /data/items.parquet parquet
	// base schema: struct<name: utf8?, qty: i32, price: f64>
	// where: name LIKE 'A%' AND qty > 10::i32
	// select: price * 2.0::f64 AS double_price
}
