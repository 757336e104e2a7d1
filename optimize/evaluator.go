package optimize

import "github.com/colexpr/colexpr/eval"

// defaultEvaluator folds with the evaluator's kernels.
var defaultEvaluator Evaluator = eval.EvalConstant
