package substrait

import (
	"fmt"

	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Substrait's regular expression functions, imported as colexpr's
// (fn/string_more.go), which read the pattern in RE2's syntax (DuckDB's
// and Go's) where Substrait names ICU's:
//
//	regexp_replace(s, p, r)                 regexp_replace(s, p, r, 'g'): every match
//	regexp_replace(s, p, r, 1, 0)           the same (position 1, every occurrence)
//	regexp_replace(s, p, r, 1, 1)           regexp_replace(s, p, r): the first match
//	regexp_match_substring(s, p)            regexp_extract(s, p): the first match
//	regexp_match_substring(s, p, 1, 1, g)   regexp_extract(s, p, g), g a constant 0…9
//	regexp_count_substring(s, p[, 1])       regexp_count(s, p)
//	regexp_string_split(s, p)               regexp_split_to_array(s, p)
//
// The options become RE2 flags written before the pattern (p is then
// '(?flags)' || p): case_sensitivity CASE_INSENSITIVE is i, multiline
// MULTILINE_ENABLED is m (^ and $ at line ends), dotall DOTALL_ENABLED is
// s. Refused: a position other than a literal 1, an occurrence other than
// a literal 0 or 1 (replace) or 1 (match), CASE_INSENSITIVE_ASCII, and
// lookaround (RE2 has none; it is not an option of the standard YAML but
// the test cases give it).
//
// RE2 finds every match as ICU does but for an empty match right after
// the previous one, which RE2 skips and ICU counts: regexp_count_substring
// of '(.*)c?' in 'abcdefc' is 1 in colexpr (the whole string), 2 in ICU
// (and an empty match at the end).
//
// Where ICU and RE2 differ the result is RE2's: \d, \s, \w and \b are
// ASCII classes in RE2 and Unicode ones in ICU; ICU's . and $ count \r,
// U+0085, U+2028 and U+2029 as line ends, RE2's only \n; a pattern with
// ICU-only syntax (lookaround, possessive quantifiers, backreferences in
// the pattern) does not compile, which is an evaluation error. A match
// that is not found gives ” (regexp_extract's, as DuckDB's), where
// Substrait does not say. Export writes none of these functions: colexpr's
// regular expressions are refused there (see the refusals).
func init() {
	opts := map[string][]string{
		"case_sensitivity": {"CASE_SENSITIVE", "CASE_INSENSITIVE"},
		"multiline":        {"MULTILINE_DISABLED", "MULTILINE_ENABLED"},
		"dotall":           {"DOTALL_DISABLED", "DOTALL_ENABLED"},
		"lookaround":       {"FALSE"},
	}
	imports[extensions.ID{URN: urnString, Name: "regexp_replace"}] = importSpec{allowed: allow(opts), build: importRegexpReplace}
	imports[extensions.ID{URN: urnString, Name: "regexp_match_substring"}] = importSpec{allowed: allow(opts), build: importRegexpMatch}
	imports[extensions.ID{URN: urnString, Name: "regexp_count_substring"}] = importSpec{allowed: allow(opts), build: importRegexpCount}
	imports[extensions.ID{URN: urnString, Name: "regexp_string_split"}] = importSpec{allowed: allow(opts), build: importRegexpSplit}
}

func importRegexpCount(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, fmt.Errorf("regexp_count_substring takes 2 or 3 arguments, got %d", len(args))
	}
	if len(args) == 3 {
		if err := literalInt(args[2], "position", 1); err != nil {
			return nil, err
		}
	}
	p, err := withFlags(args[1], chosen)
	if err != nil {
		return nil, err
	}
	return expr.NewCall(fn.RegexpCount, args[0], p)
}

func importRegexpSplit(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("regexp_string_split takes 2 arguments, got %d", len(args))
	}
	p, err := withFlags(args[1], chosen)
	if err != nil {
		return nil, err
	}
	return expr.NewCall(fn.RegexpSplit, args[0], p)
}

func importRegexpReplace(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	if len(args) != 3 && len(args) != 5 {
		return nil, fmt.Errorf("regexp_replace takes 3 or 5 arguments, got %d", len(args))
	}
	flags := "g"
	if len(args) == 5 {
		if err := literalInt(args[3], "position", 1); err != nil {
			return nil, err
		}
		if err := literalInt(args[4], "occurrence", 0, 1); err != nil {
			return nil, err
		}
		if v, _ := args[4].Literal(); v.Value().(int64) == 1 {
			flags = ""
		}
	}
	p, err := withFlags(args[1], chosen)
	if err != nil {
		return nil, err
	}
	call := []*expr.Bound{args[0], p, args[2]}
	if flags != "" {
		call = append(call, expr.NewLiteral(scalar.String(flags)))
	}
	return expr.NewCall(fn.RegexpReplace, call...)
}

func importRegexpMatch(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	if len(args) != 2 && len(args) != 5 {
		return nil, fmt.Errorf("regexp_match_substring takes 2 or 5 arguments, got %d", len(args))
	}
	p, err := withFlags(args[1], chosen)
	if err != nil {
		return nil, err
	}
	call := []*expr.Bound{args[0], p}
	if len(args) == 5 {
		if err := literalInt(args[2], "position", 1); err != nil {
			return nil, err
		}
		if err := literalInt(args[3], "occurrence", 1); err != nil {
			return nil, err
		}
		if err := literalInt(args[4], "group", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9); err != nil {
			return nil, err
		}
		call = append(call, args[4])
	}
	return expr.NewCall(fn.RegexpExtract, call...)
}

// withFlags is the pattern p preceded by the RE2 flags the options ask
// for, as '(?flags)' || p.
func withFlags(p *expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	flags := ""
	if chosen["case_sensitivity"] == "CASE_INSENSITIVE" {
		flags += "i"
	}
	if chosen["multiline"] == "MULTILINE_ENABLED" {
		flags += "m"
	}
	if chosen["dotall"] == "DOTALL_ENABLED" {
		flags += "s"
	}
	if flags == "" {
		return p, nil
	}
	return expr.NewCall(fn.StringConcat, expr.NewLiteral(scalar.String("(?"+flags+")")), p)
}

// literalInt checks that b is a non-null integer literal with one of the
// values colexpr computes the function for.
func literalInt(b *expr.Bound, what string, want ...int64) error {
	v, ok := b.Literal()
	if ok && !v.IsNull() && b.DType().IsInt() && !b.DType().PType().IsUnsigned() {
		for _, w := range want {
			if v.Value().(int64) == w {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: the %s must be a literal %s (colexpr computes no other)", ErrUnsupported, what, intList(want))
}

func intList(v []int64) string {
	if len(v) > 3 {
		return fmt.Sprintf("%d…%d", v[0], v[len(v)-1])
	}
	s := ""
	for i, x := range v {
		if i > 0 {
			s += " or "
		}
		s += fmt.Sprint(x)
	}
	return s
}
