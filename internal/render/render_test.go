package render

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestTimestampText checks that timestamps print as DuckDB prints them: no
// offset without a zone (not a Z, which would claim UTC), the zone's
// offset with one, in hours unless it has minutes.
func TestTimestampText(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	at := time.Date(1995, 1, 1, 12, 0, 0, 250_000_000, time.UTC)
	cases := []struct {
		zone       string
		text, json string
	}{
		{"", "1995-01-01 12:00:00.25", `"1995-01-01 12:00:00.25"`},
		{"UTC", "1995-01-01 12:00:00.25+00", `"1995-01-01 12:00:00.25+00"`},
		{"+02:00", "1995-01-01 14:00:00.25+02", `"1995-01-01 14:00:00.25+02"`},
		{"Asia/Kolkata", "1995-01-01 17:30:00.25+05:30", `"1995-01-01 17:30:00.25+05:30"`},
	}
	for _, c := range cases {
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: c.zone})
		v, err := arrow.TimestampFromTime(at, arrow.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		b.Append(v)
		arr := b.NewArray()
		b.Release()
		if got := string(Text(arr)(nil, 0)); got != c.text {
			t.Errorf("zone %q: text %q, want %q", c.zone, got, c.text)
		}
		if got := string(JSON(arr)(nil, 0)); got != c.json {
			t.Errorf("zone %q: JSON %s, want %s", c.zone, got, c.json)
		}
		arr.Release()
	}
}

// TestAppendBlob checks binary as DuckDB writes a BLOB as text.
func TestAppendBlob(t *testing.T) {
	cases := map[string]string{
		"":                  "",
		"abc":               "abc",
		"\x00\xff":          `\x00\xFF`,
		"a\\b'c\"d\n\x7f é": `a\x5Cb\x27c\x22d\x0A\x7F \xC3\xA9`,
	}
	for in, want := range cases {
		if got := string(appendBlob(nil, []byte(in))); got != want {
			t.Errorf("appendBlob(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestNullTypeIsNull checks that every row of an array of type null is
// null to the text formats, as a null of any other type is.
func TestNullTypeIsNull(t *testing.T) {
	arr := array.NewNull(3)
	defer arr.Release()
	for i := 0; i < 3; i++ {
		if !IsNull(arr, i) {
			t.Errorf("row %d of a null array is not null", i)
		}
	}
}

// TestDatesBeforeYearOne: a year before 1 prints as DuckDB prints it, as
// the cast to text writes it: year 0 is 0001 (BC), the time after the (BC).
func TestDatesBeforeYearOne(t *testing.T) {
	for _, tc := range []struct {
		t      time.Time
		layout string
		want   string
	}{
		{time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC), "2006-01-02", "0001-12-31 (BC)"},
		{time.Date(-1, 11, 28, 0, 0, 0, 0, time.UTC), "2006-01-02", "0002-11-28 (BC)"},
		{time.Date(0, 12, 31, 23, 0, 0, 0, time.UTC), timestampLayout, "0001-12-31 (BC) 23:00:00"},
		{time.Date(1995, 3, 1, 12, 0, 0, 500, time.UTC), timestampLayout, "1995-03-01 12:00:00.0000005"},
	} {
		if got := string(appendTime(nil, tc.t, tc.layout)); got != tc.want {
			t.Errorf("appendTime(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	cases := []struct {
		v          float64
		bits       int
		json, text string
	}{
		{1.5, 64, "1.5", "1.5"},
		{0, 64, "0", "0"},
		{-2, 64, "-2", "-2"},
		{1e6, 64, "1000000", "1000000"},
		{1e21, 64, "1e+21", "1e+21"},
		{1e-7, 64, "1e-7", "1e-7"},
		{0.000001, 64, "0.000001", "0.000001"},
		{0.1, 32, "0.1", "0.1"},
		{math.NaN(), 64, `"NaN"`, "NaN"},
		{math.Inf(1), 64, `"Infinity"`, "Infinity"},
		{math.Inf(-1), 32, `"-Infinity"`, "-Infinity"},
	}
	for _, c := range cases {
		v := c.v
		if c.bits == 32 {
			v = float64(float32(v))
		}
		if got := string(appendFloat(nil, v, c.bits, true)); got != c.json {
			t.Errorf("JSON of %v (f%d) is %s, want %s", c.v, c.bits, got, c.json)
		}
		if got := string(appendFloat(nil, v, c.bits, false)); got != c.text {
			t.Errorf("text of %v (f%d) is %s, want %s", c.v, c.bits, got, c.text)
		}
	}
}

func TestAppendDecimal(t *testing.T) {
	big, _ := decimal128.FromString("12345678901234567890123.45", 38, 2)
	cases := []struct {
		n     decimal128.Num
		scale int32
		want  string
	}{
		{decimal128.FromI64(5), 2, "0.05"},
		{decimal128.FromI64(-5), 2, "-0.05"},
		{decimal128.FromI64(105), 2, "1.05"},
		{decimal128.FromI64(0), 2, "0.00"},
		{decimal128.FromI64(10000), 2, "100.00"},
		{decimal128.FromI64(-310), 2, "-3.10"},
		{decimal128.FromI64(42), 0, "42"},
		{decimal128.FromI64(math.MinInt64), 0, "-9223372036854775808"},
		{decimal128.FromI64(7), 5, "0.00007"},
		{big, 2, "12345678901234567890123.45"},
		{big.Negate(), 2, "-12345678901234567890123.45"},
	}
	for _, c := range cases {
		if got := string(appendDecimal(nil, c.n, c.scale)); got != c.want {
			t.Errorf("decimal %v scale %d is %s, want %s", c.n, c.scale, got, c.want)
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", `q"uo\te`, "line\nbreak\r\t", "\x00\x01\x1f", "ünïcødé ✓", "bad \xff utf8", "\u2028\u2029", "</script>"}
	for _, s := range cases {
		b := AppendJSONString(nil, s)
		if !json.Valid(b) {
			t.Errorf("%q renders as invalid JSON %s", s, b)
			continue
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if back != want {
			t.Errorf("%q renders as %s, which reads back as %q", s, b, back)
		}
	}
}

// TestDictionaryCells: a dictionary column prints its values, and a row
// whose index picks a null value is null — IsNull for the text formats,
// null in JSON — at the top and as list elements.
func TestDictionaryCells(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["a", null, "c\"q"]`))
	if err != nil {
		t.Fatal(err)
	}
	defer vals.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int16, strings.NewReader(`[0, 1, 2, null, 2]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	dict := array.NewDictionaryArray(dt, idx, vals)
	defer dict.Release()
	var text, js []string
	textCell, jsonCell := Text(dict), JSON(dict)
	for i := range dict.Len() {
		if IsNull(dict, i) {
			text = append(text, "NULL")
		} else {
			text = append(text, string(textCell(nil, i)))
		}
		js = append(js, string(jsonCell(nil, i)))
	}
	if got := strings.Join(text, " "); got != `a NULL c"q NULL c"q` {
		t.Errorf("text: %s", got)
	}
	if got := strings.Join(js, " "); got != `"a" null "c\"q" null "c\"q"` {
		t.Errorf("JSON: %s", got)
	}

	offsets, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[0, 3, 5]`))
	if err != nil {
		t.Fatal(err)
	}
	defer offsets.Release()
	ld := array.NewData(arrow.ListOf(dt), 2, []*memory.Buffer{nil, offsets.Data().Buffers()[1]}, []arrow.ArrayData{dict.Data()}, 0, 0)
	defer ld.Release()
	list := array.MakeFromData(ld)
	defer list.Release()
	lc := Text(list)
	if got := string(lc(nil, 0)) + " " + string(lc(nil, 1)); got != `["a",null,"c\"q"] [null,"c\"q"]` {
		t.Errorf("list: %s", got)
	}
}
