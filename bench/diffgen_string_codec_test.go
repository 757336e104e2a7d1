package bench

// The functions of colexpr's fn/string_codec.go in the differential test:
// levenshtein (and editdist3) and bit_length, translate, md5, and base64
// both ways. DuckDB's to_base64 takes only a BLOB (colexpr's takes text
// too), so the generator gives it the bytes of a string: CAST(s AS BLOB) in
// colexpr, encode(s) in DuckDB (whose cast reads \xAA escapes and rejects
// other non-ASCII characters); avoidsKnown keeps the shrinker from taking
// the conversion away (blobArg). A BLOB is never cast back to text (DuckDB
// escapes bytes that are not UTF-8 as \xFF): from_base64's bytes are
// encoded again or hashed. Its arguments
// are mostly base64 (to_base64 of a string, or a pool of valid and invalid
// encodings), sometimes any string (mostly an error in both).

// base64Pool are strings from_base64 reads, valid and not (DuckDB's rules:
// a length that is a multiple of 4, '=' only in the last two places).
var base64Pool = []string{"YWJj", "YWI=", "YW==", "YW=j", "YR==", "", "5pel", "Y===", "abc", "YQ==YWJj", "YW j", "/+8="}

// translatePool are the from and to strings of translate.
var translatePool = []string{"", "a", "ab", "abc", "xyz", "ü日", "lo", " ", "aa", "%_"}

func init() {
	familyGens[gI64] = append(familyGens[gI64], func(g *gen, d int) *gnode {
		if g.pick(3) == 0 {
			return mcall(gI64, "bit_length", "", g.expr(gStr, d))
		}
		return mcall(gI64, []string{"levenshtein", "editdist3"}[g.pick(2)], "", g.expr(gStr, d), g.expr(gStr, d))
	})
	familyGens[gStr] = append(familyGens[gStr], translateGen, base64Gen)
}

// translateGen is translate(s, from, to), from and to literals or strings.
func translateGen(g *gen, d int) *gnode {
	pick := func() *gnode {
		if g.pick(2) == 0 {
			return g.expr(gStr, d)
		}
		return &gnode{t: gStr, kind: "lit", text: "'" + translatePool[g.pick(len(translatePool))] + "'"}
	}
	return mcall(gStr, "translate", "", g.expr(gStr, d), pick(), pick())
}

// blobArg are the functions whose argument must be a BLOB in DuckDB.
var blobArg = map[string]bool{"to_base64": true, "base64": true}

// blob is the bytes of a string: CAST(x AS BLOB), DuckDB's encode(x).
func blob(x *gnode) *gnode {
	return &gnode{t: gStr, kind: "castto", text: "BLOB", duck: "encode", kids: []*gnode{x}}
}

// base64Gen is md5 of a string or of bytes, to_base64 (or base64) of
// bytes, or to_base64 or md5 of from_base64.
func base64Gen(g *gen, d int) *gnode {
	switch g.pick(4) {
	case 0:
		x := g.expr(gStr, d)
		if g.pick(2) == 0 {
			x = blob(x)
		}
		return mcall(gStr, "md5", "", x)
	case 1:
		return mcall(gStr, []string{"to_base64", "base64"}[g.pick(2)], "", blob(g.expr(gStr, d)))
	}
	var x *gnode
	switch g.pick(3) {
	case 0:
		x = mcall(gStr, "to_base64", "", blob(g.expr(gStr, d)))
	case 1:
		x = &gnode{t: gStr, kind: "lit", text: "'" + base64Pool[g.pick(len(base64Pool))] + "'"}
	default:
		x = g.expr(gStr, d)
	}
	return mcall(gStr, []string{"to_base64", "md5"}[g.pick(2)], "", mcall(gStr, "from_base64", "", x))
}
