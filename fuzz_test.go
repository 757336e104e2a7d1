package colexpr_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// pipelineBatch is a small batch with nulls and extreme values in columns of
// most kinds, for the pipeline fuzzer.
func pipelineBatch(mem memory.Allocator) arrow.RecordBatch {
	root, err := dtype.Parse("struct<a: i32?, b: i64, u: u8?, f: f64?, d: decimal(15,2)?, s: utf8?, ok: bool?, dt: date?, xs: list<i32?>?, st: struct<x: i16?, y: utf8>?>")
	if err != nil {
		panic(err)
	}
	schema, err := dtype.ToArrowSchema(root)
	if err != nil {
		panic(err)
	}
	const rows = `[
	{"a": 1, "b": 9223372036854775807, "u": 255, "f": 1.5, "d": "12.34", "s": "abc", "ok": true, "dt": "1995-01-01", "xs": [1, null, 3], "st": {"x": 7, "y": "q"}},
	{"a": null, "b": -9223372036854775808, "u": null, "f": null, "d": null, "s": null, "ok": null, "dt": null, "xs": null, "st": null},
	{"a": -2147483648, "b": 0, "u": 0, "f": -0.0, "d": "-0.01", "s": "", "ok": false, "dt": "1970-01-01", "xs": [], "st": {"x": null, "y": ""}},
	{"a": 2147483647, "b": 5, "u": 17, "f": 1e300, "d": "9999999999999.99", "s": "ÅÄÖ_%", "ok": true, "dt": "2038-01-19", "xs": [2147483647], "st": {"x": -32768, "y": "é"}}
	]`
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(rows))
	if err != nil {
		panic(err)
	}
	return rec
}

// FuzzPipeline runs text through the whole pipeline (parse, coerce, bind,
// optimize, evaluate) over a small batch. Nothing may panic or leak, and
// where the unoptimized expression evaluates, the optimized one must give
// the identical result with the identical type.
func FuzzPipeline(f *testing.F) {
	for _, seed := range pipelineSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		rec := pipelineBatch(mem)
		defer rec.Release()

		p, err := colexpr.Compile(src, rec.Schema())
		if err != nil {
			return // parse and type errors are fine; panics are not
		}
		e, err := parse.Parse(src)
		if err != nil {
			t.Fatalf("Compile accepted %q but Parse fails: %v", src, err)
		}
		root, _ := dtype.FromArrowSchema(rec.Schema())
		plain, err := coerce.Bind(e, expr.ScopeOf(root))
		if err != nil {
			t.Fatalf("Compile accepted %q but coerce.Bind fails: %v", src, err)
		}
		if !plain.DType().Equal(p.DType()) {
			t.Fatalf("%q: optimizing changed the type from %s to %s", src, plain.DType(), p.DType())
		}
		want, werr := eval.EvalRecord(mem, plain, rec)
		got, gerr := p.Eval(mem, rec)
		if got != nil {
			defer got.Release()
		}
		if werr != nil {
			// Only a runtime error of a function on some row is acceptable:
			// a missing kernel or a malformed tree is a bug.
			var eerr *eval.Error
			if !errors.As(werr, &eerr) {
				t.Fatalf("%q: the unoptimized expression fails outside a kernel: %v", src, werr)
			}
			return // the optimizer may fold away a failing branch
		}
		defer want.Release()
		if gerr != nil {
			t.Fatalf("%q: the unoptimized expression evaluates, the optimized %q fails: %v", src, p.String(), gerr)
		}
		if !array.Equal(want, got) && !array.ApproxEqual(want, got, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Fatalf("%q: optimized %q gives\n%v\nunoptimized gives\n%v", src, p.String(), got, want)
		}
	})
}

// builtinSeeds cover every function family, over pipelineBatch's columns.
var builtinSeeds = []string{
	"a + 1 > b AND s IS NOT NULL",
	"a * 2 - u % 3", "CASE WHEN a <> 0 THEN b / a ELSE 0 END",
	"coalesce(a, 0) BETWEEN -5 AND 5 OR f IS NULL",
	"d * 2 + 0.5 > 10", "s LIKE 'a%' OR s ILIKE '%Ö_%'", "lower(s) = upper(s)",
	"concat(substring(s, 2, 1), 'x')", "s || '-' || lower(s) IS NULL", "concat(s, '!', s)", "length(s) + byte_length(s)",
	"dt < DATE '2000-01-01' AND dt IS NOT DISTINCT FROM dt",
	"TRY_CAST(s AS i32) IS NULL", "CAST(f AS i64)", "a::f64 / 0",
	"list_transform(xs, x -> x + a)", "list_filter(xs, x -> x > 1)",
	"list_any(xs, x -> x IS NULL) OR list_all(xs, x -> x < 3)",
	"list_contains(xs, 3) AND list_length(xs) > 0", "list_element(xs, -1)",
	"{p: a, q: st.y}.p = a", "st.x IN (7, -32768, null)", "NOT NOT ok",
	"u + 1", "u + 300", "a = 1 OR a = 2 OR a = 3", "-a", "abs(a)",
	"CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END", "ok AND null", "NOT (a < b)",
	"merge(st, {z: 1}).z", "struct_select(st, 'y')", "starts_with(s, 'a') AND ends_with(s, 'c') AND contains(s, 'b')",
	"round(d, 1) + floor(d) - round(a, -1)", "sqrt(abs(f)) + ln(f) + power(a, 2) + sign(d)",
	"greatest(a, b, 0) - least(u, 3)", "(a & 7 | u << 1) >> 2 = ~a // 2", "xor(a, b) + mod(a, 3)",
	"extract(year FROM dt) * 100 + month(dt) > 199501 AND dt > '1995-01-01'",
	"date_diff('day', dt, date_trunc('month', dt)) + (dt - DATE '1970-01-01') + epoch(dt + a)",
	"strftime(last_day(dt), '%Y-%m-%d %a') || strftime(strptime(s, '%d/%m/%Y'), '%j')",
	"s GLOB '[a-c]*?' OR s NOT SIMILAR TO 'a.c' OR s ~ '^a' OR s !~~ '%b' OR s ^@ 'x'",
	"len(regexp_extract_all(s, '([a-z])|x*', 1)) + regexp_count(s, '.')",
	"time_bucket(INTERVAL '7 days', dt, INTERVAL '2 hours') < current_date - INTERVAL 1 MONTH",
	"json_extract_string('{\"a\":[1,2.5e21,\"x\"]}', '$.a[' || a || ']') = s OR json_valid(s) AND json_type(s, '$.k') = 'ARRAY'",
	"coalesce(s ->> 'k' ->> -1, json_extract('[' || d || ',' || f || ']', '$[#-1]')) || json_array_length(s, '/k')",
	"epoch_us(dt) + epoch_ns(dt) / 1000 + epoch_ms(now()) * 0",
}

// TestPipelineSeedsCompile keeps the fuzzer's built-in seeds meaningful:
// each compiles, so each reaches evaluation.
func TestPipelineSeedsCompile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := pipelineBatch(mem)
	defer rec.Release()
	for _, src := range builtinSeeds {
		if _, err := colexpr.Compile(src, rec.Schema()); err != nil {
			t.Errorf("seed %q does not compile: %v", src, err)
		}
	}
}

// pipelineSeeds are the checked-in corpus plus builtinSeeds.
func pipelineSeeds(tb testing.TB) []string {
	seeds := append([]string(nil), builtinSeeds...)
	dir := filepath.Join("testdata", "fuzz", "FuzzPipeline")
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		tb.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		// The corpus file format: a header line, then string("…").
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) == 2 && strings.HasPrefix(lines[1], "string(") {
			if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")")); err == nil {
				seeds = append(seeds, s)
			}
		}
	}
	return seeds
}
