package substrait

import (
	"strconv"
	"strings"
)

// where is the path of a node from the top of its tree, as a chain of
// segments: descending a level costs one small allocation, not a copy of
// the path so far (which made deep trees quadratic). It is spelled out only
// for an error. The nil *where is the top itself, the empty path.
type where struct {
	up  *where
	seg string // with its leading separator unless up is nil
}

// at is the path of the top-level node named seg.
func at(seg string) *where { return &where{seg: seg} }

// add is w followed by suffix, which starts with its separator (".body").
func (w *where) add(suffix string) *where {
	if w == nil {
		return &where{seg: strings.TrimPrefix(suffix, ".")}
	}
	return &where{up: w, seg: suffix}
}

// child is the path of argument i below w.
func child(w *where, i int) *where { return w.add(".args[" + strconv.Itoa(i) + "]") }

func (w *where) String() string {
	var segs []string
	for ; w != nil; w = w.up {
		segs = append(segs, w.seg)
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteString(segs[i])
	}
	return b.String()
}
