package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scan"
)

// csvFlags are the flags that say how a CSV file is read (query and schema
// take them): --csv-infer-rows N and --csv-type NAME=TYPE, any number of
// times.
type csvFlags struct {
	inferRows int
	types     csvTypes
	set       bool // one of them was given
	// noHive reads key=value directories as plain ones (--no-hive, which
	// the commands that take the CSV flags take too).
	noHive bool
}

// csvFlagsUsage is their part of a command's usage text.
const csvFlagsUsage = `  --no-hive           read key=value directories as plain directories, not as
                      Hive partitions (no partition columns)
  --csv-infer-rows N  infer the column types of a CSV file from its first N
                      rows (default 1000); 0 infers them from every row
                      (the file is then read twice)
  --csv-type NAME=TYPE
                      read CSV column NAME as TYPE (i64, f64, decimal(12,2),
                      utf8, date, timestamp(us), …) instead of inferring it;
                      may be given for several columns
`

func (c *csvFlags) register(fs *flag.FlagSet) {
	c.inferRows = scan.CSVInferRows
	fs.BoolVar(&c.noHive, "no-hive", false, "")
	fs.Func("csv-infer-rows", "", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of rows, 0 or more")
		}
		c.inferRows, c.set = n, true
		return nil
	})
	fs.Func("csv-type", "", func(s string) error {
		c.set = true
		return c.types.set(s)
	})
}

// options are the scan's CSV options the flags give.
func (c *csvFlags) options() scan.CSVOptions {
	o := scan.CSVOptions{InferRows: c.inferRows, Types: c.types.m}
	if c.inferRows == 0 {
		o.InferRows = -1 // every row
	}
	return o
}

// csvTypes are the --csv-type flags.
type csvTypes struct{ m map[string]arrow.DataType }

func (t *csvTypes) set(s string) error {
	eq := strings.LastIndexByte(s, '=')
	if eq <= 0 {
		return fmt.Errorf("want NAME=TYPE, such as amount=decimal(12,2)")
	}
	name, typ := strings.TrimSpace(s[:eq]), strings.TrimSpace(s[eq+1:])
	d, err := dtype.Parse(typ)
	if err != nil {
		return err
	}
	if t.m == nil {
		t.m = map[string]arrow.DataType{}
	}
	if _, dup := t.m[name]; dup {
		return fmt.Errorf("column %s is given a type twice", name)
	}
	t.m[name] = dtype.ToArrow(d)
	return nil
}

// openInputs opens the inputs as one table (scan.OpenDataset: files,
// globs, directories, - for the standard input), or the demo table of
// demoRows rows when there are none. The CSV flags apply to CSV files; a
// single file named as another format is a usage error with them.
func openInputs(e *env, mem memory.Allocator, inputs []string, demoRows int64, c *csvFlags) (*scan.Source, error) {
	if len(inputs) == 0 {
		if c.set {
			return nil, usagef("--csv-infer-rows and --csv-type are for CSV files (FILE.csv)")
		}
		return scan.Demo(mem, demoRows), nil
	}
	if f := scan.FormatOfName(inputs[0]); c.set && len(inputs) == 1 && f != scan.FormatUnknown && f != scan.FormatCSV {
		if st, err := os.Stat(inputs[0]); err == nil && !st.IsDir() {
			return nil, usagef("--csv-infer-rows and --csv-type are for CSV files (FILE.csv)")
		}
	}
	src, err := scan.OpenDataset(mem, inputs, scan.DatasetOptions{CSV: c.options(), Stdin: e.stdin, NoHive: c.noHive})
	if err != nil {
		return nil, csvHint(err)
	}
	return src, nil
}

// csvHint words the fix of a CSV value that does not fit its column's type
// with the command's flags.
func csvHint(err error) error {
	var ve *scan.CSVValueError
	if !errors.As(err, &ve) {
		return err
	}
	name := ve.Name
	if strings.ContainsAny(name, " \t'\"=") {
		name = strconv.Quote(name)
	}
	fix := fmt.Sprintf("--csv-type %s=%s", name, scan.CSVTypeName(ve.Fits))
	if ve.Given {
		return fmt.Errorf("%s\nto read it, give the column a type that holds it: %s", ve.Problem(), fix)
	}
	return fmt.Errorf("%s\nto read it, give the column a type that holds it (%s) or infer the types from more rows (--csv-infer-rows N, 0 for every row)", ve.Problem(), fix)
}
