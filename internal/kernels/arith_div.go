package kernels

// Integer division and modulo, checked: a zero divisor is
// errs.ErrDivideByZero, MIN / -1 and MIN % -1 overflow; / truncates toward
// zero and % takes the dividend's sign.

// Division runs in float64 when that is exact: for integers below 2^53 in
// magnitude, the correctly rounded quotient of their float64 values
// truncates to the integer quotient (the quotient is at least 1/|y| away
// from the next integer, more than its rounding error), and the float
// divider is several times faster than the integer one. In 64-bit columns
// the rows holding larger values (often arbitrary values under nulls) are
// divided again as integers in a second pass. A zero divisor gives an
// arbitrary value and a flag, never a trap.

// exactInFloat is the bound below which integers divide exactly in
// float64.
const exactInFloat = 1 << 53

// beyondFloat reports whether |v| >= 2^53 (never for narrow types).
func beyondFloat[T Integer](v T) bool {
	if bitWidth[T]() < 64 {
		return false
	}
	if isSigned[T]() {
		return (uint64(v)+exactInFloat)>>54 != 0
	}
	return uint64(v)>>53 != 0
}

// divInt is x / y or x % y in integers, for the rows the float loop
// cannot do; a zero divisor gives 0 (the caller has flagged it) and
// MIN / -1 wraps.
func divInt[T Integer](op ArithOp, x, y T) T {
	switch {
	case y == 0:
		return 0
	case isSigned[T]() && y == ^T(0):
		if op == OpDiv {
			return -x
		}
		return 0
	case op == OpDiv:
		return x / y
	}
	return x % y
}

// divModVS divides by one scalar: a zero divisor fails every row (the
// caller finds the first valid one), -1 only MIN.
func divModVS[T Integer](op ArithOp, dst, a []T, y T, valid []uint64) bool {
	dst = dst[:len(a)]
	if y == 0 {
		clear(dst)
		return len(a) > 0
	}
	if isSigned[T]() && y == ^T(0) {
		// x / -1 = -x and x % -1 = 0; only MIN fails.
		mn := minOf[T]()
		var bad uint64
		for i, x := range a {
			bad |= b2u(x == mn) & validBit(valid, i)
			if op == OpDiv {
				dst[i] = -x
			} else {
				dst[i] = 0
			}
		}
		return bad != 0
	}
	if beyondFloat(y) {
		for i, x := range a {
			dst[i] = divInt(op, x, y)
		}
		return false
	}
	fy := float64(y)
	var big uint64
	for i, x := range a {
		q := T(float64(x) / fy)
		if op == OpMod {
			q = x - q*y
		}
		dst[i] = q
		big |= b2u(beyondFloat(x))
	}
	if big != 0 {
		for i, x := range a {
			if beyondFloat(x) {
				dst[i] = divInt(op, x, y)
			}
		}
	}
	return false
}

// validBit is row i of valid as 0 or 1 (1 when valid is nil).
func validBit(valid []uint64, i int) uint64 {
	if valid == nil {
		return 1
	}
	return valid[i>>6] >> uint(i&63) & 1
}

// divModV divides by a column of divisors (a is a column or a scalar),
// flagging zero divisors and MIN / -1.
func divModV[T Integer](op ArithOp, dst []T, a Fixed[T], b []T, valid []uint64) bool {
	dst = dst[:len(b)]
	signed := isSigned[T]()
	mn := minOf[T]()
	var flags, big uint64
	x := a.Scalar
	vw := ^uint64(0)
	for i, y := range b {
		if !a.IsScalar {
			x = a.Vals[i]
		}
		if valid != nil && i&63 == 0 {
			vw = valid[i>>6]
		}
		q := T(float64(x) / float64(y))
		if op == OpMod {
			q = x - q*y
		}
		dst[i] = q
		flags |= (b2u(y == 0) | b2u(signed && y == ^T(0) && x == mn)) & (vw >> uint(i&63))
		big |= b2u(beyondFloat(x)) | b2u(beyondFloat(y))
	}
	if big != 0 {
		for i, y := range b {
			if !a.IsScalar {
				x = a.Vals[i]
			}
			if beyondFloat(x) || beyondFloat(y) {
				dst[i] = divInt(op, x, y)
			}
		}
	}
	// A -1 divisor of MIN: the float quotient overflows T; the flag stands.
	return flags != 0
}
