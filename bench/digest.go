package bench

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/google/cel-go/common/types/ref"
)

// Digest summarises a workload's output so that engines can be checked
// against each other: the number of values, the number of nulls and a hash
// of every value's canonical text in order. Canonical text is engine-neutral:
// integers in decimal, decimals with exactly their scale's digits, booleans as
// t/f, strings quoted, lists in brackets, null as ∅.
type Digest struct {
	Rows, Nulls int
	h           hash.Hash64
	first       []string // the first few values, for messages
}

// NewDigest returns an empty digest.
func NewDigest() *Digest { return &Digest{h: fnv.New64a()} }

func (d *Digest) add(s string) {
	d.Rows++
	if s == nullText {
		d.Nulls++
	}
	if len(d.first) < 4 {
		d.first = append(d.first, s)
	}
	d.h.Write([]byte(s))
	d.h.Write([]byte{0})
}

// String prints the digest; two engines agree when their strings are equal.
func (d *Digest) String() string {
	return fmt.Sprintf("rows=%d nulls=%d hash=%016x first=[%s]", d.Rows, d.Nulls, d.h.Sum64(), strings.Join(d.first, " "))
}

const nullText = "∅"

// AddArray adds every value of arr.
func (d *Digest) AddArray(arr arrow.Array) error {
	for i := 0; i < arr.Len(); i++ {
		s, err := arrowText(arr, i)
		if err != nil {
			return err
		}
		d.add(s)
	}
	return nil
}

// AddValue adds one Go value as a database/sql driver, cel-go or expr-lang
// returns it.
func (d *Digest) AddValue(v any) error {
	s, err := goText(v)
	if err != nil {
		return err
	}
	d.add(s)
	return nil
}

// Scaled is an unscaled integer with a decimal scale: the row-wise engines
// compute decimals as scaled integers.
type Scaled struct {
	Unscaled int64
	Scale    int
}

func arrowText(arr arrow.Array, i int) (string, error) {
	if arr.IsNull(i) {
		return nullText, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return boolText(a.Value(i)), nil
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Float32:
		return strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 32), nil
	case *array.Date32:
		return a.Value(i).FormattedString(), nil
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), nil
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10), nil
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64), nil
	case *array.String:
		return strconv.Quote(a.Value(i)), nil
	case *array.Decimal128:
		return decimalText(a.Value(i).BigInt(), int(a.DataType().(*arrow.Decimal128Type).Scale)), nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		parts := make([]string, 0, end-start)
		for j := start; j < end; j++ {
			s, err := arrowText(vals, int(j))
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	}
	return "", fmt.Errorf("bench: digest of %s arrays is not implemented", arr.DataType())
}

func goText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return nullText, nil
	case ref.Val:
		return goText(v.Value())
	case bool:
		return boolText(v), nil
	case int:
		return strconv.FormatInt(int64(v), 10), nil
	case int8:
		return strconv.FormatInt(int64(v), 10), nil
	case int16:
		return strconv.FormatInt(int64(v), 10), nil
	case uint8:
		return strconv.FormatUint(uint64(v), 10), nil
	case uint16:
		return strconv.FormatUint(uint64(v), 10), nil
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32), nil
	case *big.Int:
		return v.String(), nil
	case time.Time:
		return v.UTC().Format("2006-01-02"), nil
	case int32:
		return strconv.FormatInt(int64(v), 10), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case uint32:
		return strconv.FormatUint(uint64(v), 10), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case string:
		return strconv.Quote(v), nil
	case Scaled:
		return decimalText(big.NewInt(v.Unscaled), v.Scale), nil
	case duckdb.Decimal:
		return decimalText(v.Value, int(v.Scale)), nil
	case []any:
		return listText(len(v), func(i int) any { return v[i] })
	case []ref.Val:
		return listText(len(v), func(i int) any { return v[i] })
	case []int64:
		return listText(len(v), func(i int) any { return v[i] })
	}
	return "", fmt.Errorf("bench: digest of %T values is not implemented", v)
}

func listText(n int, at func(int) any) (string, error) {
	parts := make([]string, n)
	for i := range n {
		s, err := goText(at(i))
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, ",") + "]", nil
}

func boolText(b bool) string {
	if b {
		return "t"
	}
	return "f"
}

// decimalText prints unscaled × 10^-scale with exactly scale fraction digits.
func decimalText(unscaled *big.Int, scale int) string {
	s := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}
