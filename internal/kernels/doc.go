// Package kernels holds colexpr's vectorized evaluation loops over Arrow
// arrays. Package fn's kernels (the Kernel interface) are thin wrappers:
// they pick the instantiation for an argument's physical type and name the
// function in errors; everything that touches a value lives here. This page
// describes the fixed-width kernels (arithmetic, comparison, boolean, null
// tests, casts); the string, LIKE, list and struct kernels (the files
// string*, like*, list*, struct*) and the numeric functions (math*.go:
// rounding, the f64 functions, sign, greatest and least, the bitwise
// operators, each file's doc says what it computes and raises) follow the
// same conventions.
//
// Package eval moves rows between arrays with this package too: Gather
// takes rows by position (filters, CASE branches, lambdas) and Scatter
// merges the values CASE branches and coalesce arguments computed for
// their own rows back into one array. The helpers that read an array's
// buffers and validity row by row and allocate buffers (buffers.go) are
// the module's one set, shared with eval.
//
// # Values
//
// A kernel receives datums (package datum): an Arrow array, possibly sliced
// (a nonzero offset applies to values and bitmaps alike), or a scalar that
// stands for every row. Fixed-width values are read through Fixed[T], a
// view of an array's values as a Go slice (offset applied) or of a scalar's
// single value. The Go type T is the physical layout of the dtype: the
// primitive's type, int32 or int64 for dates, times and timestamps,
// decimal128.Num for decimals, and a uint16 bit pattern for f16 (computed
// in float32; this package rounds to f16 itself, to nearest and ties to
// even, since Arrow's float16 package truncates).
//
// # Scalars stay scalars
//
// A kernel whose arguments are all scalars returns a scalar. A scalar
// argument next to an array is never broadcast: the loops have
// array-scalar forms. A kernel whose result is constant may return a
// scalar too (x AND false, x IS NULL for an x without nulls), and true AND
// x returns x itself. Callers must therefore accept a scalar datum from any
// kernel.
//
// # Nulls
//
// The validity of a null-propagating result is the AND of its inputs'
// validity bitmaps, computed 64 rows at a time (AndBitmaps); when no input
// has nulls no bitmap is read or allocated. The values under null rows are
// computed like any other (they are arbitrary in Arrow) but never raise an
// error: a checked loop only records that some row may have failed, and
// the rare rescan that looks for the failing row skips null rows.
//
// Bool results are bit-packed 64 rows per word. Null-aware kernels (Kleene
// AND and OR, IS [NOT] DISTINCT FROM, BETWEEN, IN, IS NULL) combine value
// and validity words with formulas documented where they are defined.
//
// # Errors
//
// A row that fails is reported as a *RowError (the row relative to the
// datum, and an error wrapping a sentinel of package errs); package fn
// wraps it into an *fn.EvalError with the function's name:
//
//	add: row 1: overflow: 2147483647 + 1 does not fit i32
//
// Integer arithmetic is checked (errs.ErrOverflow; errs.ErrDivideByZero for
// a zero divisor). MIN / -1 and MIN % -1 overflow, as in DuckDB 1.5, which
// raises "Overflow in division" for both. Decimal arithmetic overflows when
// a result reaches 10^precision of the result type. Float arithmetic
// follows IEEE 754 and never fails. Casts fail with errs.ErrInvalidCast (and
// errs.ErrOverflow for a value out of range), worded by scalar.Cast.
// substring never fails: an offset or length of any size selects what its
// exact value selects under DuckDB's window rule (substringRange).
//
// # Comparisons
//
// Comparisons follow IEEE 754 on floats (NaN = NaN is false, NaN != NaN is
// true, every ordered comparison with NaN is false). IS [NOT] DISTINCT FROM
// treats two nulls as not distinct and, as DuckDB does, NaN as not distinct
// from NaN. Struct and list equality is row by row with DuckDB's rule for
// what is inside: nulls in the same place are equal ([1, null] = [1, null]
// is true), a null differs from a value, and floats inside compare as by
// IS NOT DISTINCT FROM. IN is SQL's: true if some value is equal, else
// null when x or some value is null, else false (so NaN IN (NaN) is false).
// list_contains is DuckDB's, not IN's: null elements are skipped, so a
// miss is false even when the list holds a null, and values compare as by
// = (NaN matches nothing), nested ones with nulls inside them equal.
//
// # Memory
//
// Every buffer comes from the caller's allocator and is owned by the
// result; error paths release what they made. Temporary buffers (a copy of
// f16 values widened to float32, a comparison's second bitmap) come from the
// allocator too and are released before return. The bitmap of failed rows
// of a cast is plain Go memory, allocated only when a row fails.
//
// # SIMD
//
// On amd64 the hottest loops have SIMD kernels (simd_amd64.s):
//
//   - comparisons (=, !=, <, <=, >, >=) of every integer width, f32, f64
//     and decimals of at most 18 digits (dates, times and timestamps by
//     their storage), column with scalar and column with column, into a
//     bitmap;
//   - checked addition, subtraction and multiplication of every integer
//     width (8- and 64-bit multiplication on AVX-512 only: AVX2 has no
//     8-bit lane multiply and no 64-bit low product, VPMULLQ being
//     AVX-512 DQ, so there the portable loop, whose 64-bit product is
//     one IMUL with its overflow flag through math/bits, does them), overflow
//     flagged per lane and tested once per call; the failing row is still
//     found by the portable rescan, so errors are the same. The 64-bit
//     product has no vector instruction for its high word, so its flag is
//     a bound on the operands' significant bits, exact test left to the
//     rescan;
//   - Kleene AND and OR of word-aligned bitmaps with nulls on both sides
//     or one, AND and OR without nulls, NOT and IS NULL;
//   - list_element of lists of 32- and 64-bit values by a column of
//     indices: VPGATHERDD of 16 rows a step (VPGATHERDQ of 8), the index
//     checked against the list and the position against the values in
//     masks (AVX-512 only);
//   - LIKE 'lit%' and LIKE 'lit' with a literal of at most 8 bytes
//     (prefixWords): 16 rows a step, the starts clamped to len(data)-8 by
//     VPMINUD, the 8 bytes at each fetched by two VPGATHERDQ, compared
//     with the literal under its mask (VPTESTNMQ of the XOR) and the
//     lengths with it (VPCMPD), decreasing offsets noted in a mask as
//     the portable loop notes them (AVX-512 only). Both gather kernels
//     were measured on a CPU that Gather Data Sampling does not affect;
//     where microcode mitigates it (Intel Skylake to Ice Lake) a gather
//     is several times slower and they may gain little over the portable
//     loops — unmeasured;
//   - bitmap → selection vector (SelectRows): AVX-512 compresses the row
//     numbers of 16 bits a step with VPCOMPRESSD; AVX2, which has no
//     compress, adds each byte's first row to its entry in a table of the
//     set-bit positions of the 256 byte values and stores 8 lanes, moving
//     on by the byte's popcount. Both store whole vectors, so below one
//     set row in 16 the portable loop (one step per set bit) is faster and
//     is used instead;
//   - filtering a fixed-width column by a bitmap (CompressData, which
//     eval's Filter uses when more than a quarter of the rows are kept):
//     AVX-512 packs 16 32-bit values, 8 64-bit ones or 4 128-bit ones (as
//     pairs of 64-bit lanes, the bitmap's bits doubled by PDEP) a step
//     with VPCOMPRESSD/Q and stores exactly the lanes kept under a BZHI
//     mask, so it never writes past them; AVX2 permutes 8 32-bit values
//     by selectRows' table of byte values (VPERMD), or 4 64-bit ones by a
//     table of 16 nibbles, and stores whole vectors, so it stops a word
//     before dst lacks a vector's room past the word's values. A word of
//     ones is copied, a zero word skipped. 8-, 16- and 256-bit values, and
//     128-bit ones on AVX2, have the portable loop only (avo has no
//     VPCOMPRESSB/W, AVX-512 VBMI2). The validity bitmap (and bool values)
//     are compressed a word at a time by a portable PEXT (compressBits).
//
// Each kernel does the whole blocks it can (64 rows for a comparison, four
// vectors for arithmetic) and returns how far it got; the portable Go loop
// does the rest, so the kernels never read or write past their slices and
// the portable loop stays the definition of every result.
//
// Dispatch is decided once, at start-up (simd_amd64.go), from
// golang.org/x/sys/cpu: AVX-512 (F, BW) where present, else AVX2, else
// the portable loops, which are also what every other architecture and
// the purego build tag get. A kernel that needs more than its set (the
// AVX-512 Kleene kernels VPOPCNTDQ, 64-bit multiplication DQ and CD, the
// compress and list_element kernels BMI2) is replaced by the AVX2 one or
// the portable loop where that is missing.
// The loops call the kernels through the active set's tables (one
// indirect call per call, none per row), so callers do not change.
// Setting the environment variable COLEXPR_NOSIMD (to anything but "" or
// "0") before the program starts forces the portable loops on any
// machine, and COLEXPR_SIMD=avx2 keeps to the AVX2 kernels on a machine
// with AVX-512; SIMDLevel reports the choice. The tests run both: each
// kernel against the portable loop for every length 0…300 and offset
// 0…63, whatever the environment says, and .ci/run runs this package's
// tests a second time with COLEXPR_NOSIMD=1.
//
// The kernels are Go assembly generated by internal/asmgen with
// github.com/mmcloughlin/avo (go generate ./internal/kernels); the
// generated .s, stubs and tables are checked in, so users build with
// plain go build, and vet checks the assembly's frames against the stubs.
// Go 1.26's simd/archsimd was the other candidate, but it exists only
// when the program is built with GOEXPERIMENT=simd, which a library cannot
// ask of its users; avo gives every instruction (AVX-512 mask registers,
// VPTERNLOG, VPCOMPRESSD, VPERMT2Q) today, with register allocation and
// the frame layout done by the generator.
package kernels
