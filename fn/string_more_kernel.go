package fn

// Kernels of the DuckDB-dialect string functions (string_more.go), over
// internal/kernels.

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

var (
	_ Kernel = textFn{}
	_ Kernel = stringSplit{}
	_ Kernel = concatWS{}
	_ Kernel = formatFn{}
)

// Eval evaluates the textFn functions.
func (f textFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	mem := ctxMem(ctx)
	var (
		out datum.Datum
		err error
	)
	switch f.id {
	case IDTrim:
		out, err = kernels.Trim(mem, args, kernels.TrimBoth, ret)
	case IDLTrim:
		out, err = kernels.Trim(mem, args, kernels.TrimLeft, ret)
	case IDRTrim:
		out, err = kernels.Trim(mem, args, kernels.TrimRight, ret)
	case IDReplace:
		out, err = kernels.Replace(mem, args, ret)
	case IDLeft:
		out, err = kernels.LeftRight(mem, args, false, ret)
	case IDRight:
		out, err = kernels.LeftRight(mem, args, true, ret)
	case IDReverse:
		out, err = kernels.Reverse(mem, args, ret)
	case IDRepeat:
		out, err = kernels.Repeat(mem, args, ret)
	case IDLPad:
		out, err = kernels.Pad(mem, args, false, ret)
	case IDRPad:
		out, err = kernels.Pad(mem, args, true, ret)
	case IDSplitPart:
		out, err = kernels.SplitPart(mem, args, ret)
	case IDStrPos:
		out, err = kernels.StrPos(mem, args, ret)
	case IDASCII:
		out, err = kernels.ASCII(mem, args, ret)
	case IDChr:
		out, err = kernels.Chr(mem, args, ret)
	case IDRegexpMatches:
		out, err = kernels.RegexpMatches(mem, args, false, ret)
	case IDRegexpFullMatch:
		out, err = kernels.RegexpMatches(mem, args, true, ret)
	case IDGlob:
		out, err = kernels.Glob(mem, args, ret)
	case IDRegexpReplace:
		out, err = kernels.RegexpReplace(mem, args, ret)
	case IDRegexpExtract:
		out, err = kernels.RegexpExtract(mem, args, ret)
	case IDRegexpCount:
		out, err = kernels.RegexpCount(mem, args, ret)
	case IDRegexpSplit:
		out, err = kernels.RegexpSplit(mem, args, ret)
	case IDRegexpExtractAll:
		out, err = kernels.RegexpExtractAll(mem, args, ret)
	default:
		return datum.Datum{}, fmt.Errorf("%s: no kernel", f.id)
	}
	return out, kernelError(f.ID(), err)
}

// Eval evaluates string_split.
func (f stringSplit) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.StringSplit(ctxMem(ctx), args, ret)
	return out, kernelError(f.ID(), err)
}

// Eval evaluates concat_ws.
func (f concatWS) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ConcatWS(ctxMem(ctx), args, ret)
	return out, kernelError(f.ID(), err)
}

// Eval evaluates format and printf. Decimals are cast to f64 and temporal
// values to utf8 first, as DuckDB formats them; a value of the null type
// makes every row null.
func (f formatFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	mem := ctxMem(ctx)
	n := args[0].Len()
	conv := make([]datum.Datum, len(args))
	copy(conv, args)
	var owned []datum.Datum
	defer func() {
		for _, d := range owned {
			d.Release()
		}
	}()
	for i, a := range args {
		var to dtype.DType
		switch t := a.DType(); {
		case t.IsNull():
			return kernels.NullResult(ret, n), nil
		case t.IsDecimal():
			to = dtype.Primitive(dtype.F64, t.Nullable())
		case t.IsTemporal():
			to = dtype.Utf8(t.Nullable())
		default:
			continue
		}
		c, err := kernels.Cast(mem, a, to, false)
		if err != nil {
			return datum.Datum{}, kernelError(f.ID(), err)
		}
		owned = append(owned, c)
		conv[i] = c
	}
	out, err := kernels.Format(mem, conv, f.id == IDPrintf, ret)
	return out, kernelError(f.ID(), err)
}
