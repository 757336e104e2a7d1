package fn

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the functions of string_codec.go, over internal/kernels
// (string_codec.go).

var _ Kernel = bytesFn{}

// Eval evaluates the bytesFn functions.
func (f bytesFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	mem := ctxMem(ctx)
	var (
		out datum.Datum
		err error
	)
	switch f.id {
	case IDLevenshtein:
		out, err = kernels.Levenshtein(mem, args, ret)
	case IDBitLength:
		out, err = kernels.BitLength(mem, args, ret)
	case IDTranslate:
		out, err = kernels.Translate(mem, args, ret)
	case IDMD5:
		out, err = kernels.MD5(mem, args, ret)
	case IDToBase64:
		out, err = kernels.ToBase64(mem, args, ret)
	case IDFromBase64:
		out, err = kernels.FromBase64(mem, args, ret)
	default:
		return datum.Datum{}, fmt.Errorf("%s: no kernel", f.id)
	}
	return out, kernelError(f.ID(), err)
}
