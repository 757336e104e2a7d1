// Package levenshtein measures how far apart two strings are: in
// characters for the "did you mean" suggestions of unknown columns
// (package colexpr) and unknown functions (package parse), and in bytes for
// the levenshtein function (package internal/kernels), as DuckDB counts.
// One dynamic program serves both.
package levenshtein

// Distance is the Levenshtein distance between a and b in characters
// (runes, not bytes): the fewest insertions, deletions and substitutions
// of one character that turn a into b.
func Distance(a, b string) int {
	var m Meter
	return distance(&m, []rune(a), []rune(b))
}

// Meter measures distances with rows it keeps from one call to the next,
// so that measuring every row of a column allocates once. The zero Meter
// is ready; a Meter is not safe for concurrent use.
type Meter struct{ prev, cur []int }

// Bytes is the Levenshtein distance between a and b in bytes, as DuckDB's
// levenshtein counts it: 'é' and 'e' are two apart (one substitution, one
// deletion).
func (m *Meter) Bytes(a, b []byte) int { return distance(m, a, b) }

// distance is the classic dynamic program over two rows of len(b)+1 cells,
// after the common prefix and suffix are set aside (they cost nothing).
func distance[E comparable](m *Meter, a, b []E) int {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return len(a) + len(b)
	}
	if cap(m.prev) < len(b)+1 {
		m.prev, m.cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev, cur := m.prev[:len(b)+1], m.cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
