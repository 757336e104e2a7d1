package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
)

var schemaCommand = &command{
	name:     "schema",
	synopsis: "schema [--csv-infer-rows N] [--csv-type NAME=TYPE] [FILE]",
	summary:  "print the columns and their dtypes",
	usage: `Usage: colexpr schema [--csv-infer-rows N] [--csv-type NAME=TYPE] [FILE]

Prints the schema of FILE (or of the demo table) as colexpr types it, one
"name: dtype" line per column. A column whose Arrow type colexpr does not
support is listed with that type; one whose name another column has too is
marked as left out, as query and explain leave it out.

` + csvFlagsUsage,
	run: runSchema,
}

func runSchema(e *env, args []string) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	var csv csvFlags
	csv.register(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("one FILE at most, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	file := ""
	if len(pos) == 1 {
		file = pos[0]
	}
	src, err := openInputWith(memory.DefaultAllocator, file, 0, &csv)
	if err != nil {
		return err
	}
	defer src.Close()
	sch := src.Schema()
	var b strings.Builder
	for _, f := range sch.Arrow.Fields() {
		name := dtype.QuoteFieldName(f.Name)
		t, err := dtype.FromArrow(f.Type, f.Nullable)
		switch why, left := sch.LeftOut[f.Name]; {
		case err != nil:
			fmt.Fprintf(&b, "%s: unsupported Arrow type %s\n", name, f.Type)
		case left:
			// Its type is fine, but query leaves it out all the same.
			fmt.Fprintf(&b, "%s: %s (left out: %s)\n", name, t, why)
		default:
			fmt.Fprintf(&b, "%s: %s\n", name, t)
		}
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}
