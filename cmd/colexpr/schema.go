package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scan"
)

var schemaCommand = &command{
	name:     "schema",
	synopsis: "schema [--origins] [--csv-infer-rows N] [--csv-type NAME=TYPE] [FILE...]",
	summary:  "print the columns and their dtypes",
	usage: `Usage: colexpr schema [--origins] [--csv-infer-rows N] [--csv-type NAME=TYPE] [FILE...]

Prints the schema of the FILEs (or of the demo table) as colexpr types it,
one "name: dtype" line per column. A dictionary-encoded column is listed
with the dtype of its values, which is how expressions read it. A column
whose Arrow type colexpr does not support is listed with that type; one
whose name another column has too is marked as left out, as query and
explain leave it out.

Several FILEs, globs and directories are one table, as query reads them:
their schemas unified by column name (a column some files lack is null in
them; types that differ meet at their common supertype), then the Hive
partition columns of key=value directories.

  --origins           under each column, the files it comes from and its
                      type in each, or that it is a Hive partition column
` + csvFlagsUsage,
	run: runSchema,
}

func runSchema(e *env, args []string) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	var csv csvFlags
	csv.register(fs)
	origins := fs.Bool("origins", false, "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	src, err := openInputs(e, memory.DefaultAllocator, pos, 0, &csv)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := src.Resolve(); err != nil {
		return err
	}
	sch := src.Schema()
	from := map[string]scan.Origin{}
	if *origins {
		list, err := src.Origins()
		if err != nil {
			return err
		}
		for _, o := range list {
			from[o.Name] = o
		}
	}
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
		if o, ok := from[f.Name]; ok {
			if o.Hive {
				b.WriteString("  from the files' paths (a Hive partition column)\n")
			}
			for i, file := range o.Files {
				fmt.Fprintf(&b, "  %s: %s\n", file, o.Types[i])
			}
		}
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}
