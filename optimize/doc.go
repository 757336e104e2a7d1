// Package optimize is colexpr's rule engine: it rewrites bound expressions
// (*expr.Bound) into simpler ones with the same dtype and the same result,
// deterministically, with named rules that a trace shows one by one.
//
//	out, err := optimize.Optimize(bound)          // the built-in rules
//
//	o := optimize.New()                            // or an optimizer of your own
//	o.Disable("binary/or_eq_to_in")
//	out, trace, err := o.Explain(bound)
//	fmt.Print(trace)                               // what explain prints
//
// # The engine
//
// One call of Optimize is one run over the tree, bottom-up: a rule sees a
// node whose children are already optimized. The run is iterative, with an
// explicit stack of frames (the path from the top of the tree to the node
// being worked on) and a stack of results, so a tree as deep as
// expr.MaxDepth allows neither overflows the Go stack nor slows down: the
// time is linear in the size of the tree.
//
// A parent is rebuilt only when one of its children changed, with
// expr.Bound.WithArgs, which retypes that one node; nothing is bound again.
// A tree in which no rule applies comes back as the same pointer, and so
// does every unchanged subtree of a tree that changed.
//
// The rules that can match a node are tried in registration order; the
// first whose replacement is accepted wins. A rule names the functions it
// applies to (Rule.Fns, by value: fn.Add, fn.CastFn{}), or sets AnyCall for
// every call with arguments, or
// nothing for every node; so a call of add tries only the rules for add,
// for any call and for any node, and a literal or $ only the rules for any
// node. The lists are computed when rules are registered, enabled or
// disabled, in up to four versions: without the rules that set ChainTop
// for the links of a chain, and without those that set ConstArg for calls
// with no literal or lambda argument; per node, finding them is one small
// hash-table probe, then a look at the parent or the arguments where the
// versions differ.
//
// A node may appear in a tree more than once: expr.Bind makes one node per
// column read, so the $.x of x = 0 OR x = 1 OR … is one node under every
// comparison. When the rules leave such a node alone, and its children
// are leaves or such nodes, none of them asking the Context about its
// position (Context.Parent, Context.Lookup), the run remembers it (a few
// entries, by address) and takes it as its own result wherever else it
// meets it under a parent of the same kind (one that calls the node's
// function, or not), without calling the rules again; its parents, whose
// children then need no work, go to the rules without a frame. The result,
// the trace and the counters are those of the same tree with every node
// distinct (a test checks it over every golden case).
//
// After a rewrite the replacement takes the node's place and is optimized
// again: its new children first (children and grandchildren of the replaced
// node are already optimized and are not walked again), then the
// replacement itself. A node position may take Budget rewrites in a run
// (DefaultBudget, 16; SetBudget changes it); new nodes a rewrite creates
// count from the rewrite that created them, so rules that rewrite each
// other's output forever still stop. When the budget is spent the node stays
// as it is and the trace records a BudgetExhausted event.
//
// The run as a whole has a budget as well, proportional to the size of the
// input tree (n nodes): 8n + 256 rewrites and 16n + 256 nodes walked, new
// nodes included. A rule that wraps its input in new nodes (-x → -(-(-x)))
// keeps within the budget of every position, yet each new node is rewritten
// again, which made 2^budget rule calls; the run's budget bounds the work
// and the growth of the tree whatever the rules do. When it is spent no
// rule runs for the rest of the run, the tree so far is kept (every
// replacement was checked, so it still means what the input meant), and
// the trace records one BudgetExhausted event.
//
// # The hook: trace, counters, disabling
//
// Every application of a rule goes through one hook. It checks the
// replacement: it must have exactly the original's dtype, nullability
// included at every level, and it must differ from the original
// (expr.Bound.Equal); otherwise the replacement is rejected, the node stays,
// the next rule is tried, and a Rejected event is recorded. A rejection is a
// bug in the rule: the tests of this package fail on any. The hook then
// enforces the budget, counts the application (Stats, per rule, over every
// run of an optimizer; ResetStats zeroes them) and, in Explain, appends an
// Event to the run's Trace: the rule's name, the node before and the node
// after. Trace.String prints the events the way explain shows them:
//
//	binary/mul_one
//	  before: a * 1
//	  after:  a
//
// Disable turns rules off by name ("binary/add_zero") or by family
// ("binary/*"), Enable turns them back on; a disabled rule is never called.
//
// # Constant folding
//
// fold/constant replaces a call whose arguments are all literals by the
// literal result, evaluated with the evaluator's own kernels
// (eval.EvalConstant; SetEvaluator replaces it, SetAllocator sets the
// allocator). It folds only Immutable functions and only when evaluation
// succeeds: `1::i8 + 127::i8` overflows and stays, so its error is raised
// where a row reaches it, not in a branch no row takes. A lambda argument
// counts as constant when its body reads only its own parameters, so
// `list_transform([1, 2], x -> x * 2)` folds; a subtree that reads $ or a
// free variable never does.
//
// Rules run inside lambda bodies as everywhere else. Variables are typed
// there (the bound lambda node records its parameters' dtypes, and
// Context.Lookup resolves them), and a subtree with a variable is not
// constant.
//
// # Writing a rule
//
// A rule is a *Rule value: a name "family/rule", the functions it applies
// to (or AnyCall for every call, or none for every node, $,
// variables and lambdas included), and a Rewrite function that returns the
// replacement or nil:
//
//	var SubSelf = &optimize.Rule{
//		Name: "mine/sub_self",
//		Fns:  []fn.Function{fn.Sub},
//		Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
//			x := n.Arg(0)
//			if !x.DType().IsInt() || x.DType().Nullable() || !x.Equal(n.Arg(1)) {
//				return nil
//			}
//			zero, err := scalar.Cast(scalar.Int64(0), n.DType())
//			if err != nil {
//				return nil
//			}
//			return expr.NewLiteral(zero)
//		},
//	}
//	o := optimize.New()
//	err := o.Register(SubSelf)
//
// Build the replacement with expr.NewCall (it types the new node), compare
// its dtype with the node's before returning it, and return nil rather than
// a replacement of another dtype: when a rewrite would change nullability,
// skip it, or keep the dtype with `CAST(x AS t?)` when only the top-level
// nullability grows. A rule must be a pure function of the node (and of
// the Context): that keeps runs deterministic, and lets a run skip calling
// it again on a node it left alone elsewhere in the tree (see The engine). It must not assume more than
// the dtypes say: a nullable expression may be null, a float may be NaN or
// -0.0, and integer arithmetic can fail. Removing an evaluation error is
// fine (`x AND false` is false even where x would fail); introducing one is
// not.
//
// A rule that takes a whole chain apart at once (binary/or_eq_to_in turns
// a OR b OR c, which is or(or(a, b), c), into one IN list) sets
// Rule.ChainTop: the engine then calls it only at the top of a chain, a
// call whose parent does not call the same function, and never at the
// links, so a chain of n links costs it O(n), not O(n²).
// A rule that rewrites only calls with a literal or lambda argument (x + 0,
// p OR true, folding) sets Rule.ConstArg, and the engine does not call it
// elsewhere; it must still return nil there, as every built-in rule that
// sets it does (a test runs the golden cases with the property cleared).
// Context.Parent is the function of the node's parent.
// Context.Fold folds a constant call with the evaluator. Context.Reuse
// names subtrees deeper than the node's grandchildren that the replacement
// reuses, so the engine does not walk them again (without it they are
// walked, and come back unchanged).
//
// # Built-in rules
//
// In the order New registers them (BuiltinRules); each is an exported
// variable whose documentation shows its forms, and each is shown firing by
// a case in testdata/<family>.txt.
//
//	cast/literal                          CAST(5 AS i64) → 5::i64, when the cast succeeds
//	fold/constant                         1 + 2 → 3, when evaluation succeeds
//	null/propagate                        a + null → null (arithmetic, comparison, LIKE)
//	null/is_null_non_nullable             a IS NULL → false, a non-nullable
//	null/is_not_null_non_nullable         a IS NOT NULL → true, a non-nullable
//	null/coalesce_non_nullable_first      coalesce(a, …) → a, a non-nullable
//	null/coalesce_prune                   coalesce(a, null, b, 0, c) → coalesce(a, b, 0)
//	conditional/drop_false_branch         CASE WHEN false THEN … → the rest, its ELSE, or null
//	conditional/true_branch               CASE … WHEN true THEN v … → CASE … ELSE v END, or v
//	conditional/bool_case                 CASE WHEN p THEN true ELSE false END → p
//	conditional/case_coalesce             CASE WHEN a IS NULL THEN b ELSE a END → coalesce(a, b)
//	cast/same_type                        CAST(a AS t) → a, a of type t
//	cast/widening_chain                   CAST(CAST(a AS i32) AS i64) → CAST(a AS i64), a: i8
//	cast/compare_narrow                   CAST(a AS i32) = 5 → a = 5::i8, a: i8
//	structural/get_item_pack              {a: x, b: y}.b → y
//	structural/get_item_merge             merge(s, t).f → t.f, t the last with field f
//	structural/select_pack                struct_select({a: x, b: y}, 'b') → {b: y}
//	structural/merge_packs                merge({a: x}, {b: y}) → {a: x, b: y}
//	structural/pack_identity              {a: $.a, b: $.b} → $
//	binary/literal_right                  5 < a → a > 5
//	binary/add_zero                       a + 0 → a (integers; floats: a + -0.0)
//	binary/sub_zero                       a - 0 → a
//	binary/mul_one                        a * 1 → a
//	binary/div_one                        a / 1 → a
//	binary/and_false                      p AND false → false
//	binary/or_true                        p OR true → true
//	binary/and_true                       p AND true → p
//	binary/or_false                       p OR false → p
//	binary/and_self                       p AND p → p
//	binary/or_self                        p OR p → p
//	binary/not_not                        NOT NOT p → p
//	binary/not_compare                    NOT a < b → a >= b (no floats)
//	binary/in_single                      a IN (5) → a = 5
//	binary/or_eq_to_in                    a = 1 OR a = 2 OR a = 3 → a IN (1, 2, 3)
//	binary/merge_constants                a + 1 + 2 → a + 3 (integers of one sign); s || 'a' || 'b' → s || 'ab'
//	temporal/date_part_shorthand          date_part('year', d) (extract(year FROM d)) → year(d)
//
// Decisions worth knowing:
//
//   - x + 0 → x is exact for integers only; for floats -0.0 + 0.0 is +0.0,
//     so the float identity is x + -0.0 (and x - 0.0, x * 1.0, x / 1.0).
//     Decimal arithmetic widens its type, so decimals keep their identities.
//   - NOT (a < b) → a >= b is skipped for floats (NaN makes both false) and
//     for nested types.
//   - A comparison of a widened column with a literal that does not fit the
//     column's type (CAST(a AS i32) = 300 for an i8 a) is left alone.
//   - Dropping a CASE branch can make the rest non-nullable; the rewrite then
//     keeps the dtype with CAST(… AS t?).
package optimize
