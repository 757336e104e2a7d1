package expr

import (
	"fmt"
	"unicode/utf8"
)

// Shorten keeps the text of a huge expression readable in an error message:
// its first and last 60 bytes or so around an ellipsis, cut at character
// boundaries, so a multibyte character is never split. Every package's
// error messages shorten node texts with it.
func Shorten(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	head, tail := max/2, len(s)-max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + " … " + s[tail:]
}

// Abbreviate is Shorten followed, when it cut s, by how many characters it
// left out: "a + … + b (1 234 of 1 354 characters left out)". Explain and the
// optimizer's trace print long trees with it.
func Abbreviate(s string) string {
	short := Shorten(s)
	if len(short) == len(s) {
		return s
	}
	total := utf8.RuneCountInString(s)
	kept := utf8.RuneCountInString(short) - utf8.RuneCountInString(" … ")
	return fmt.Sprintf("%s (%d of %d characters left out)", short, total-kept, total)
}
