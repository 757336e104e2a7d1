package dtype

// Supertype is the type two values meet at when an operator combines them
// (arithmetic, comparison, CASE branches, IN lists). ok is false when there is
// none and the user must cast. The result is nullable when either input is.
//
// The rules, as DESIGN.md states them:
//   - equal types meet at themselves; Null meets anything as that thing made nullable;
//   - two integers meet at the narrowest integer holding both (u8 with i8 → i16,
//     u32 with i32 → i64); u64 with a signed integer has no common type;
//   - an integer with a float meets at the float wide enough to hold it exactly
//     (f16 holds 8-bit integers, f32 16-bit ones, 32- and 64-bit need f64);
//   - two floats meet at the wider;
//   - decimals meet by the SQL rule: the larger scale, the larger number of
//     integer digits, capped at 38 digits; an integer counts as decimal(d, 0)
//     with d its widest number of digits; a decimal with a float gives f64;
//   - a date with a timestamp gives the timestamp; two timestamps with one
//     time zone meet at the finer unit; two times at the finer unit;
//   - lists, fixed-size lists and structs (with the same field names) meet
//     element- and field-wise.
//
// Strings never meet numbers, bool meets only bool and interval only
// interval.
func Supertype(a, b DType) (DType, bool) {
	nullable := a.nullable || b.nullable
	if a.kind == KindNull {
		return b.AsNullable(), true
	}
	if b.kind == KindNull {
		return a.AsNullable(), true
	}
	if a.EqualIgnoreNullability(b) && a.kind != KindStruct && !a.IsList() {
		return a.WithNullable(nullable), true
	}
	switch {
	case a.kind == KindPrimitive && b.kind == KindPrimitive:
		p, ok := superPType(a.ptype, b.ptype)
		return Primitive(p, nullable), ok
	case a.kind == KindDecimal && b.kind == KindDecimal:
		return superDecimal(a, b, nullable)
	case a.kind == KindDecimal && b.kind == KindPrimitive:
		return decimalWithPrimitive(a, b.ptype, nullable)
	case a.kind == KindPrimitive && b.kind == KindDecimal:
		return decimalWithPrimitive(b, a.ptype, nullable)
	case a.kind == KindExtension && b.kind == KindExtension:
		return superTemporal(a, b, nullable)
	case a.kind == KindList && b.kind == KindList:
		e, ok := Supertype(a.Elem(), b.Elem())
		return List(e, nullable), ok
	case a.kind == KindFixedSizeList && b.kind == KindFixedSizeList && a.sizeN() == b.sizeN():
		e, ok := Supertype(a.Elem(), b.Elem())
		return FixedSizeList(e, int(a.sizeN()), nullable), ok
	case a.kind == KindStruct && b.kind == KindStruct && len(a.fieldList()) == len(b.fieldList()):
		fs := make([]Field, len(a.fieldList()))
		for i := range a.fieldList() {
			if a.fieldList()[i].Name != b.fieldList()[i].Name {
				return DType{}, false
			}
			t, ok := Supertype(a.fieldList()[i].Type, b.fieldList()[i].Type)
			if !ok {
				return DType{}, false
			}
			fs[i] = Field{Name: a.fieldList()[i].Name, Type: t}
		}
		return DType{kind: KindStruct, x: &nested{fields: fs}, nullable: nullable}, true
	}
	return DType{}, false
}

func superPType(a, b PType) (PType, bool) {
	if a == b {
		return a, true
	}
	switch {
	case a.IsFloat() && b.IsFloat():
		return max(a, b), true
	case a.IsFloat():
		return floatFor(a, b), true
	case b.IsFloat():
		return floatFor(b, a), true
	case a.IsSigned() == b.IsSigned():
		return max(a, b), true
	}
	s, u := a, b
	if a.IsUnsigned() {
		s, u = b, a
	}
	if u == U64 {
		return 0, false
	}
	// The signed type must be strictly wider than the unsigned one.
	need := u.BitWidth() * 2
	if s.BitWidth() >= need {
		return s, true
	}
	return signedOfWidth(need), true
}

func signedOfWidth(bits int) PType {
	switch {
	case bits <= 8:
		return I8
	case bits <= 16:
		return I16
	case bits <= 32:
		return I32
	default:
		return I64
	}
}

// floatFor is the float at least as wide as f that holds every value of the
// integer type i exactly.
func floatFor(f, i PType) PType {
	var need PType
	switch i.BitWidth() {
	case 8:
		need = F16
	case 16:
		need = F32
	default:
		need = F64
	}
	return max(f, need)
}

// IntDigits is the number of decimal digits of the widest value of the
// integer type p: what it occupies as a decimal(d, 0).
func IntDigits(p PType) int {
	switch p {
	case U8, I8:
		return 3
	case U16, I16:
		return 5
	case U32, I32:
		return 10
	case I64:
		return 19
	default:
		return 20
	}
}

func superDecimal(a, b DType, nullable bool) (DType, bool) {
	scale := max(a.Scale(), b.Scale())
	intDigits := max(a.Precision()-a.Scale(), b.Precision()-b.Scale())
	prec := min(intDigits+scale, MaxDecimalPrecision)
	return Decimal(prec, scale, nullable), true
}

func decimalWithPrimitive(d DType, p PType, nullable bool) (DType, bool) {
	if p.IsFloat() {
		return Primitive(F64, nullable), true
	}
	return superDecimal(d, Decimal(IntDigits(p), 0, false), nullable)
}

func superTemporal(a, b DType, nullable bool) (DType, bool) {
	switch {
	case a.ext == ExtDate && b.ext == ExtTimestamp:
		return b.WithNullable(nullable), true
	case a.ext == ExtTimestamp && b.ext == ExtDate:
		return a.WithNullable(nullable), true
	case a.ext == ExtTimestamp && b.ext == ExtTimestamp && a.tzName() == b.tzName():
		return Timestamp(max(a.unit, b.unit), a.tzName(), nullable), true
	case a.ext == ExtTime && b.ext == ExtTime:
		return Time(max(a.unit, b.unit), nullable), true
	}
	return DType{}, false
}
