package substrait

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// A golden file holds cases, each a `> title` line, optional input lines
// ended by a `----` line, and the recorded output up to the next case.
// Lines before the first case are a header of `#` comments. Run the tests
// with -update to rewrite the outputs.
type golden struct {
	path   string
	header []string
	cases  []goldenCase
}

type goldenCase struct {
	title string
	input []string
	want  string
	got   string
}

func readGolden(t testing.TB, name string) *golden {
	t.Helper()
	path := filepath.Join("testdata", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &golden{path: path}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	i := 0
	for ; i < len(lines) && !strings.HasPrefix(lines[i], "> "); i++ {
		g.header = append(g.header, lines[i])
	}
	for i < len(lines) {
		c := goldenCase{title: strings.TrimPrefix(lines[i], "> ")}
		i++
		var block []string
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "> "); i++ {
			if lines[i] == "----" && c.input == nil {
				c.input, block = block, nil
				if c.input == nil {
					c.input = []string{}
				}
				continue
			}
			block = append(block, lines[i])
		}
		c.want = strings.TrimRight(strings.Join(block, "\n"), "\n")
		g.cases = append(g.cases, c)
	}
	return g
}

// check compares every case's output, or rewrites the file with -update.
func (g *golden) check(t *testing.T) {
	t.Helper()
	if *update {
		var b strings.Builder
		for _, h := range g.header {
			b.WriteString(h + "\n")
		}
		for _, c := range g.cases {
			b.WriteString("> " + c.title + "\n")
			if c.input != nil {
				for _, l := range c.input {
					b.WriteString(l + "\n")
				}
				b.WriteString("----\n")
			}
			b.WriteString(c.got + "\n\n")
		}
		if err := os.WriteFile(g.path, []byte(strings.TrimRight(b.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, c := range g.cases {
		if c.got != c.want {
			t.Errorf("%s: case %q:\n--- want\n%s\n--- got\n%s", g.path, c.title, c.want, c.got)
		}
	}
}

// compactJSON is the protobuf JSON of m on one line.
func compactJSON(t *testing.T, m proto.Message) string {
	t.Helper()
	raw, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// indentJSON is the protobuf JSON of m indented by two spaces.
func indentJSON(t *testing.T, m proto.Message) string {
	t.Helper()
	raw, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
