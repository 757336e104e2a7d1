package eval

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/internal/kernels"
)

// Dictionary-encoded input. dtype.FromArrow types a dictionary<indices,
// values> as its values, so a program bound against a schema with a
// dictionary column reads that column as plain values. The evaluator
// decodes such an array where it first reads it — a record batch's column
// bound to $.field, a struct child read with get_item, $ or a variable
// read whole — into the plain array of its values (kernels.
// DecodeDictionaries: the values gathered by the indices, a null index a
// null row), once per batch: the binding keeps the decoded array. Kernels
// never see a dictionary. Filter gathers the record's own columns, so a
// dictionary column stays one in its output.

// hasDictionary reports whether arrays of type t are or hold a dictionary.
func hasDictionary(t arrow.DataType) bool { return kernels.HasDictionary(t) }

// decodeDictionaries is arr with its dictionaries decoded (a new
// reference; arr itself when it holds none).
func decodeDictionaries(mem memory.Allocator, arr arrow.Array) (arrow.Array, error) {
	d, err := kernels.DecodeDictionaries(mem, arr)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return d, nil
}
