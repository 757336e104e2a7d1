package expr

import (
	"strconv"
	"strings"
)

// At is the node at path in e, the path as BindError names it: segments
// args[i] (argument i of a call) and body (of a lambda) joined by dots; the
// empty path is e itself. ok is false when e has no such node.
func At(e Expr, path string) (Expr, bool) {
	if path == "" {
		return e, e != nil
	}
	for seg := range strings.SplitSeq(path, ".") {
		switch n := e.(type) {
		case *Call:
			i, ok := argIndex(seg)
			if !ok || i >= len(n.Args) {
				return nil, false
			}
			e = n.Args[i]
		case *Lambda:
			if seg != "body" {
				return nil, false
			}
			e = n.Body
		default:
			return nil, false
		}
	}
	return e, e != nil
}

// argIndex reads the segment args[i].
func argIndex(seg string) (int, bool) {
	digits, ok := strings.CutPrefix(seg, "args[")
	if !ok {
		return 0, false
	}
	digits, ok = strings.CutSuffix(digits, "]")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(digits)
	return i, err == nil && i >= 0
}
