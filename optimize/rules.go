package optimize

// BuiltinRules are the built-in rules in the order New registers them:
// casts of literals first (so the trace names them), then constant
// folding, then the families null, conditional, cast, structural,
// binary and temporal. The slice is fresh; the rules are shared values.
func BuiltinRules() []*Rule {
	return []*Rule{
		CastLiteral,
		FoldConstant,

		PropagateNull,
		IsNullNonNullable,
		IsNotNullNonNullable,
		CoalesceNonNullableFirst,
		CoalescePrune,

		DropFalseBranch,
		TrueBranch,
		BoolCase,
		CaseCoalesce,

		CastSameType,
		CastWideningChain,
		CastCompareNarrow,

		GetItemPack,
		GetItemMerge,
		SelectPack,
		MergePacks,
		PackIdentity,

		LiteralRight,
		AddZero,
		SubZero,
		MulOne,
		DivOne,
		AndFalse,
		OrTrue,
		AndTrue,
		OrFalse,
		AndSelf,
		OrSelf,
		NotNot,
		NotCompare,
		InSingle,
		OrEqToIn,
		MergeConstants,

		DatePartShorthand,
	}
}
