package expr_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/colexpr/colexpr/expr"
)

// TestShortenRuneSafe: Shorten never splits a multibyte character, whatever
// the widths of the characters around its cuts, keeps a start and an end of
// the text around the ellipsis, and leaves short texts alone.
func TestShortenRuneSafe(t *testing.T) {
	for _, unit := range []string{"a", "é", "€", "𝄞", "aé€𝄞"} {
		for n := 1; n <= 200; n++ {
			s := strings.Repeat(unit, n/utf8.RuneCountInString(unit)+1)
			for _, text := range []string{s, "x" + s, "xy" + s, "xyz" + s} {
				got := expr.Shorten(text)
				if !utf8.ValidString(got) {
					t.Fatalf("Shorten of %d bytes of %q split a character: %q", len(text), unit, got)
				}
				if len(text) <= 120 {
					if got != text {
						t.Fatalf("Shorten changed a text of %d bytes: %q", len(text), got)
					}
					continue
				}
				head, tail, ok := strings.Cut(got, " … ")
				if !ok || head == "" || tail == "" || !strings.HasPrefix(text, head) || !strings.HasSuffix(text, tail) {
					t.Fatalf("Shorten(%q) = %q: want a start and an end of it around \" … \"", text, got)
				}
			}
		}
	}
}

func TestAbbreviate(t *testing.T) {
	if got := expr.Abbreviate("a + b"); got != "a + b" {
		t.Errorf("Abbreviate of a short text = %q", got)
	}
	s := strings.Repeat("é", 200)
	want := strings.Repeat("é", 30) + " … " + strings.Repeat("é", 30) + " (140 of 200 characters left out)"
	if got := expr.Abbreviate(s); got != want {
		t.Errorf("Abbreviate = %q, want %q", got, want)
	}
}
