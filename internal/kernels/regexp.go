package kernels

// Regular expressions: regexp_matches, regexp_replace, regexp_extract,
// regexp_count and regexp_split_to_array, with Go's regexp package, whose syntax is RE2's (DuckDB's engine): the
// same leftmost-first matching, the same classes and flags.
//
// A pattern is compiled once per kernel call when it is a scalar (the usual
// case), and per row otherwise, reusing the last compilation while the
// pattern repeats. A scalar pattern that does not compile is an error
// before any row is read, as DuckDB rejects a constant pattern when it
// binds; a pattern of an array is an error at the first row that needs it
// (a row where an argument is null never does).
//
// Options are one constant string of letters, as in DuckDB: 'c'
// case-sensitive (the default), 'i' case-insensitive, 's' '.' matches a
// newline, 'm', 'n' and 'p' newline-sensitive ('.' does not match a
// newline: the default), 'l' the pattern is a literal string, and for
// regexp_replace only, 'g' replaces every match instead of the first. A
// later letter overrides an earlier one ('ic' is case-sensitive).

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// regexOptions are the parsed options of a regexp call.
type regexOptions struct {
	fold, dotNL, literal, global bool
	// whole: the pattern must match all of s (regexp_full_match)
	whole bool
}

// parseRegexOptions reads the options argument, a constant.
func parseRegexOptions(d datum.Datum, allowGlobal bool) (regexOptions, error) {
	var o regexOptions
	if !d.IsScalar() {
		return o, fmt.Errorf("the options must be a constant string: %w", errs.ErrInvalidArgument)
	}
	if d.Scalar().IsNull() {
		return o, fmt.Errorf("the options must not be null: %w", errs.ErrInvalidArgument)
	}
	for _, c := range d.Scalar().Value().(string) {
		switch c {
		case 'c':
			o.fold = false
		case 'i':
			o.fold = true
		case 's':
			o.dotNL = true
		case 'm', 'n', 'p':
			o.dotNL = false
		case 'l':
			o.literal = true
		case 'g':
			if !allowGlobal {
				return o, fmt.Errorf("option 'g' (replace every match) is only valid for regexp_replace: %w", errs.ErrInvalidArgument)
			}
			o.global = true
		default:
			return o, fmt.Errorf("unrecognized option %q (want letters among c, i, s, m, n, p, l%s): %w", c, map[bool]string{true: ", g"}[allowGlobal], errs.ErrInvalidArgument)
		}
	}
	return o, nil
}

// regexCache compiles the patterns of one kernel call: a scalar pattern
// once, an array's per row while it changes.
type regexCache struct {
	opts regexOptions
	pat  strArg
	last []byte
	re   *regexp.Regexp
	err  error
	done bool
}

// at is the compiled pattern of row i.
func (c *regexCache) at(i int) (*regexp.Regexp, error) {
	p := c.pat.at(i)
	if c.done && (c.pat.arr == nil || string(p) == string(c.last)) {
		return c.re, c.err
	}
	c.done, c.last = true, p
	src := string(p)
	if c.opts.literal {
		src = regexp.QuoteMeta(src)
	}
	var flags string
	if c.opts.fold {
		flags += "i"
	}
	if c.opts.dotNL {
		flags += "s"
	}
	if c.opts.whole {
		src = `\A(?:` + src + `)\z`
	}
	if flags != "" {
		src = "(?" + flags + ")" + src
	}
	c.re, c.err = regexp.Compile(src)
	if c.err != nil {
		c.err = fmt.Errorf("invalid regular expression %s: %v: %w", quoteBytes(p), strings.TrimPrefix(c.err.Error(), "error parsing regexp: "), errs.ErrInvalidArgument)
	}
	return c.re, c.err
}

// newRegexCache compiles a scalar pattern at once: as in DuckDB, a
// constant pattern that does not compile is an error even when no row
// needs it (a plain error, not a row's).
func newRegexCache(pattern datum.Datum, opts regexOptions) (*regexCache, error) {
	pat, err := newStrArg(pattern)
	if err != nil {
		return nil, err
	}
	c := &regexCache{pat: pat, opts: opts}
	if pattern.IsScalar() && !pattern.Scalar().IsNull() {
		if _, err := c.at(0); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// RegexpMatches is regexp_matches(s, pattern[, options]): whether pattern
// matches somewhere in s (the operator s ~ pattern); with whole,
// regexp_full_match: whether it matches all of s (s SIMILAR TO pattern).
func RegexpMatches(mem memory.Allocator, args []datum.Datum, whole bool, ret dtype.DType) (datum.Datum, error) {
	var opts regexOptions
	if len(args) > 2 {
		var err error
		if opts, err = parseRegexOptions(args[2], false); err != nil {
			return datum.Datum{}, err
		}
		args = args[:2]
	}
	opts.whole = whole
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	cache, err := newRegexCache(args[1], opts)
	if err != nil {
		return datum.Datum{}, err
	}
	return boolRows(mem, args, ret, func(i int) (bool, error) {
		re, err := cache.at(i)
		if err != nil {
			return false, err
		}
		return re.Match(s.at(i)), nil
	})
}

// rewrite is a checked replacement of regexp_replace: RE2's syntax, where
// \0 to \9 stand for the match and its groups and \\ for a backslash.
type rewrite struct {
	src  []byte
	refs bool // holds a group reference
}

// checkRewrite validates repl against re's groups.
func checkRewrite(repl []byte, re *regexp.Regexp) (rewrite, error) {
	rw := rewrite{src: repl}
	for j := 0; j < len(repl); j++ {
		if repl[j] != '\\' {
			continue
		}
		if j+1 >= len(repl) {
			return rw, fmt.Errorf("the replacement %s ends with a lone backslash: %w", quoteBytes(repl), errs.ErrInvalidArgument)
		}
		c := repl[j+1]
		switch {
		case c == '\\':
		case c >= '0' && c <= '9':
			if k := int(c - '0'); k > re.NumSubexp() {
				return rw, fmt.Errorf("the replacement %s refers to group %d, but the pattern has %d groups: %w", quoteBytes(repl), k, re.NumSubexp(), errs.ErrInvalidArgument)
			}
			rw.refs = true
		default:
			return rw, fmt.Errorf("the replacement %s has %q, which is neither \\0…\\9 nor \\\\: %w", quoteBytes(repl), repl[j:j+2], errs.ErrInvalidArgument)
		}
		j++
	}
	return rw, nil
}

// expand writes the replacement for one match (m: its submatch indices in s).
func (rw *rewrite) expand(b *strBuilder, s []byte, m []int) {
	if !rw.refs && !containsByte(rw.src, '\\') {
		b.write(rw.src)
		return
	}
	src := rw.src
	for j := 0; j < len(src); j++ {
		c := src[j]
		if c != '\\' {
			b.write(src[j : j+1])
			continue
		}
		j++
		if src[j] == '\\' {
			b.write(src[j : j+1])
			continue
		}
		k := int(src[j] - '0')
		if lo, hi := m[2*k], m[2*k+1]; lo >= 0 {
			b.write(s[lo:hi])
		}
	}
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// RegexpReplace is regexp_replace(s, pattern, replacement[, options]): the
// first match of pattern in s replaced (every match with option 'g'; an
// empty match next to the previous match is skipped, as in RE2's
// GlobalReplace). The replacement refers to the match as \0 and to its
// groups as \1 to \9; \\ is a backslash; a reference to a group the
// pattern does not have is an error.
func RegexpReplace(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	var opts regexOptions
	if len(args) > 3 {
		var err error
		if opts, err = parseRegexOptions(args[3], true); err != nil {
			return datum.Datum{}, err
		}
		args = args[:3]
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	cache, err := newRegexCache(args[1], opts)
	if err != nil {
		return datum.Datum{}, err
	}
	repl, err := newStrArg(args[2])
	if err != nil {
		return datum.Datum{}, err
	}
	var (
		rw     rewrite
		rwRe   *regexp.Regexp
		rwLast []byte
		rwDone bool
	)
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		re, err := cache.at(i)
		if err != nil {
			return err
		}
		r := repl.at(i)
		if !rwDone || re != rwRe || (repl.arr != nil && string(r) != string(rwLast)) {
			if rw, err = checkRewrite(r, re); err != nil {
				return err
			}
			rwDone, rwRe, rwLast = true, re, r
		}
		v := s.at(i)
		if !opts.global {
			m := re.FindSubmatchIndex(v)
			if m == nil {
				b.write(v)
				return nil
			}
			b.write(v[:m[0]])
			rw.expand(b, v, m)
			b.write(v[m[1]:])
			return nil
		}
		last := 0
		for _, m := range re.FindAllSubmatchIndex(v, -1) {
			b.write(v[last:m[0]])
			rw.expand(b, v, m)
			last = m[1]
		}
		b.write(v[last:])
		return nil
	})
}

// RegexpExtract is regexp_extract(s, pattern[, group[, options]]): group
// (a constant from 0, the whole match, to 9) of the first match of pattern
// in s; ” when nothing matches, when the pattern has no such group or the
// group took no part in the match, and for a null group.
func RegexpExtract(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	opts, group, null, err := extractArgs(args)
	switch {
	case err != nil:
		return datum.Datum{}, err
	case null:
		group = -1 // DuckDB: the empty string for every string
	case group < 0 || group > 9:
		return datum.Datum{}, fmt.Errorf("the group index %d is not between 0 and 9: %w", group, errs.ErrInvalidArgument)
	}
	args = args[:2]
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	cache, err := newRegexCache(args[1], opts)
	if err != nil {
		return datum.Datum{}, err
	}
	k := int(group)
	return utf8Rows(mem, args, ret, s.size(args[0].Len())/2, func(i int, b *strBuilder) error {
		if k < 0 {
			return nil
		}
		re, err := cache.at(i)
		if err != nil {
			return err
		}
		if k > re.NumSubexp() {
			return nil
		}
		v := s.at(i)
		var m []int
		if k == 0 {
			m = re.FindIndex(v)
		} else {
			m = re.FindSubmatchIndex(v)
		}
		if m != nil && m[2*k] >= 0 {
			b.write(v[m[2*k]:m[2*k+1]])
		}
		return nil
	})
}

// extractArgs reads the options and the group of regexp_extract and
// regexp_extract_all (s, pattern[, group[, options]]), both constants:
// group 0 when absent, null reports a null group.
func extractArgs(args []datum.Datum) (opts regexOptions, group int64, null bool, err error) {
	if len(args) > 3 {
		if opts, err = parseRegexOptions(args[3], false); err != nil {
			return opts, 0, false, err
		}
	}
	if len(args) <= 2 {
		return opts, 0, false, nil
	}
	g := args[2]
	if !g.IsScalar() {
		return opts, 0, false, fmt.Errorf("the group must be a constant integer: %w", errs.ErrInvalidArgument)
	}
	if g.Scalar().IsNull() {
		return opts, 0, true, nil
	}
	gi, err := newIntArg(g)
	return opts, gi.sc, false, err
}

// RegexpExtractAll is regexp_extract_all(s, pattern[, group[, options]]):
// group (a constant; 0, the default, is the whole match) of every match of
// pattern in s, left to right, as DuckDB finds them: after a match the
// search goes on where it ended, and after an empty match one character
// further, so an empty match right after a match counts (Go's FindAll
// skips it: 'a1b22c' at '[0-9]*' gives six matches here and in DuckDB,
// four of them empty, where FindAll gives four). A group that took no part in a match is a null element; a
// negative group gives an empty list and a group beyond the pattern's is
// an error, as in DuckDB.
func RegexpExtractAll(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	opts, group, _, err := extractArgs(args) // a null group is a null result, below
	if err != nil {
		return datum.Datum{}, err
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	cache, err := newRegexCache(args[1], opts)
	if err != nil {
		return datum.Datum{}, err
	}
	checkGroup := func(re *regexp.Regexp) error {
		if group > int64(re.NumSubexp()) {
			return fmt.Errorf("the pattern has %d groups: there is no group %d: %w", re.NumSubexp(), group, errs.ErrInvalidArgument)
		}
		return nil
	}
	if args[1].IsScalar() && !args[1].Scalar().IsNull() {
		re, _ := cache.at(0) // compiled by newRegexCache
		if err := checkGroup(re); err != nil {
			return datum.Datum{}, err
		}
	}
	var after *regexp.Regexp // the pattern after one character of context
	var afterOf *regexp.Regexp
	return utf8ListRows(mem, args, ret, s.size(args[0].Len())/2, func(i int, b *listBuilder) error {
		re, err := cache.at(i)
		if err != nil {
			return err
		}
		if err := checkGroup(re); err != nil {
			return err
		}
		v := s.at(i)
		if group < 0 {
			return nil
		}
		if afterOf != re {
			// Searching from pos > 0 must see the text before pos, for ^,
			// \b and \B: the pattern is run on v from the character
			// before pos, which a non-capturing (?s:.) consumes.
			if after, err = regexp.Compile(`(?s:.)(?:` + re.String() + `)`); err != nil {
				return fmt.Errorf("the pattern after a character: %v: %w", err, errs.ErrInvalidArgument)
			}
			afterOf = re
		}
		k := int(group)
		for pos := 0; pos <= len(v); {
			var m []int
			if pos == 0 {
				m = re.FindSubmatchIndex(v)
			} else {
				_, w := utf8.DecodeLastRune(v[:pos])
				from := pos - w
				if m = after.FindSubmatchIndex(v[from:]); m != nil {
					for j := range m {
						if m[j] >= 0 {
							m[j] += from
						}
					}
					// The match of the pattern starts after the character
					// (?s:.) took.
					_, w := utf8.DecodeRune(v[m[0]:])
					m[0] += w
				}
			}
			if m == nil {
				break
			}
			if m[2*k] < 0 {
				err = b.addNull()
			} else {
				err = b.add(v[m[2*k]:m[2*k+1]])
			}
			if err != nil {
				return err
			}
			if m[1] > m[0] {
				pos = m[1]
			} else if pos = m[1]; pos < len(v) {
				_, w := utf8.DecodeRune(v[pos:])
				pos += w
			} else {
				break
			}
		}
		return nil
	})
}

// regexpArgs reads the arguments of regexp_count and regexp_split_to_array,
// (s, pattern[, options]): the string view and the pattern cache.
func regexpArgs(args []datum.Datum) ([]datum.Datum, strArg, *regexCache, error) {
	var opts regexOptions
	if len(args) > 2 {
		var err error
		if opts, err = parseRegexOptions(args[2], false); err != nil {
			return nil, strArg{}, nil, err
		}
		args = args[:2]
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return nil, strArg{}, nil, err
	}
	cache, err := newRegexCache(args[1], opts)
	if err != nil {
		return nil, strArg{}, nil, err
	}
	return args, s, cache, nil
}

// RegexpCount is regexp_count(s, pattern[, options]): the number of
// non-overlapping matches of pattern in s, found left to right as
// regexp_replace's every match finds them (an empty match next to the
// previous match is not one).
func RegexpCount(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	args, s, cache, err := regexpArgs(args)
	if err != nil {
		return datum.Datum{}, err
	}
	return intRows(mem, args, ret, func(i int) (int64, error) {
		re, err := cache.at(i)
		if err != nil {
			return 0, err
		}
		return int64(len(re.FindAllIndex(s.at(i), -1))), nil
	})
}

// RegexpSplit is regexp_split_to_array(s, pattern[, options]): the parts
// of s between the matches of pattern, as a list of utf8, as Go's
// Regexp.Split gives them: a pattern that matches the empty string splits
// s into its characters (no empty part before the first or after the
// last), and an empty s is a list of one empty part.
func RegexpSplit(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	args, s, cache, err := regexpArgs(args)
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8ListRows(mem, args, ret, s.size(args[0].Len()), func(i int, b *listBuilder) error {
		re, err := cache.at(i)
		if err != nil {
			return err
		}
		for _, part := range re.Split(string(s.at(i)), -1) {
			if err := b.add([]byte(part)); err != nil {
				return err
			}
		}
		return nil
	})
}
