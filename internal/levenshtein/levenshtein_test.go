package levenshtein

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"lower", "lowre", 2},
		{"upper", "uper", 1},
		{"price", "prices", 1},
		// In characters: é is one, though two bytes.
		{"prix", "préx", 1},
		{"héllo", "hello", 1},
		{"日本", "日本語", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

// TestBytes: the expected distances are DuckDB's levenshtein, which counts
// bytes (bench/cmd/duckquery).
func TestBytes(t *testing.T) {
	var m Meter
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"kitten", "sitting", 3},
		{"é", "e", 2},
		{"日本", "日", 3},
		{"", "abc", 3},
		{"abcdef", "abcxef", 1},
		{"aaaa", "aa", 2},
		{"flaw", "lawn", 2},
	} {
		if got := m.Bytes([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("Bytes(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := m.Bytes([]byte(c.b), []byte(c.a)); got != c.want {
			t.Errorf("Bytes(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}
