// Package golden reads and rewrites the golden files of the coerce and
// partition tests.
//
// The format: `# comment` lines; `var name: type` adds a variable to the
// scope frame of the cases below it; `> source` is a case, followed by its
// recorded output up to the next blank line (or the next case). Rewriting
// keeps every line but the recorded outputs, which it replaces.
package golden

import (
	"os"
	"strings"
	"testing"
)

// Case is one input of a golden file and the output recorded for it.
type Case struct {
	Src  string
	Vars []string // `name: type` of the scope frame in force
	Want string
}

// File is a golden file split into its lines, with the cases found.
type File struct {
	lines []string // the file without the recorded outputs
	Cases []Case
	at    []int // index in lines of each case's `>` line
}

// Read parses the golden file at path; a missing file fails the test.
func Read(t testing.TB, path string) *File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &File{}
	var vars []string
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "var ") {
			vars = append(vars[:len(vars):len(vars)], strings.TrimPrefix(line, "var "))
		}
		if !strings.HasPrefix(line, "> ") {
			g.lines = append(g.lines, line)
			continue
		}
		c := Case{Src: strings.TrimPrefix(line, "> "), Vars: vars}
		var out []string
		for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "> ") {
			i++
			out = append(out, lines[i])
		}
		c.Want = strings.Join(out, "\n")
		g.at = append(g.at, len(g.lines))
		g.lines = append(g.lines, line)
		g.Cases = append(g.Cases, c)
	}
	return g
}

// Write rewrites the file at path with got[i] recorded as the output of
// case i.
func (g *File) Write(t testing.TB, path string, got []string) {
	t.Helper()
	var b strings.Builder
	k := 0
	for i, line := range g.lines {
		b.WriteString(line)
		b.WriteByte('\n')
		if k < len(g.at) && g.at[k] == i {
			b.WriteString(got[k])
			b.WriteByte('\n')
			if i+1 < len(g.lines) && g.lines[i+1] != "" {
				b.WriteByte('\n')
			}
			k++
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
