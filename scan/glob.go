package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Inputs to files: a glob (*, ?, [...] within a name, ** for any number
// of directories), a directory (every file of a known format below it) or
// a file, each expanded in lexical order.

// hasGlobMeta reports whether s is a pattern rather than a name.
func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// expandInput lists the files an input names, in lexical order.
func expandInput(input string) ([]string, error) {
	if hasGlobMeta(input) {
		return expandGlob(input)
	}
	st, err := os.Stat(input)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", input, err)
	}
	if !st.IsDir() {
		return []string{input}, nil
	}
	var files []string
	err = filepath.WalkDir(input, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", p, unwrapPath(err))
		}
		if p != input && hiddenName(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && FormatOfName(p) != FormatUnknown {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: the directory holds no Parquet, Arrow or CSV file (.parquet, .pq, .arrow, .feather, .ipc, .arrows, .csv)", input)
	}
	return files, nil
}

// hiddenName reports whether a directory walk skips a name: hidden files
// and the markers and checksums Spark and Hadoop write (_SUCCESS, .crc).
func hiddenName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// expandGlob lists the files matching pattern: its leading directories
// without a wildcard are the base, below which each segment matches a
// name (path.Match), and ** any number of directories.
func expandGlob(pattern string) ([]string, error) {
	segs := strings.Split(filepath.ToSlash(pattern), "/")
	base := ""
	i := 0
	for ; i < len(segs)-1 && !hasGlobMeta(segs[i]); i++ {
		if i == 0 && segs[i] == "" {
			base = "/"
			continue
		}
		base = path.Join(base, segs[i])
	}
	rest := segs[i:]
	for _, s := range rest {
		if s != "**" {
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("%s: a bad pattern: %w", pattern, err)
			}
		}
	}
	if base == "" {
		base = "."
	}
	seen := map[string]bool{}
	var files []string
	var walk func(dir string, segs []string) error
	walk = func(dir string, segs []string) error {
		if len(segs) == 0 {
			return nil
		}
		if segs[0] == "**" {
			// Zero directories, then one more and ** again.
			if err := walk(dir, segs[1:]); err != nil {
				return err
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				return nil // not a directory, or unreadable: nothing matches
			}
			for _, e := range entries {
				// A trailing ** matches every file below, as DuckDB's does.
				if len(segs) == 1 && !e.IsDir() && !hiddenName(e.Name()) {
					if p := filepath.Join(dir, e.Name()); !seen[p] {
						seen[p] = true
						files = append(files, p)
					}
				}
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					if err := walk(filepath.Join(dir, e.Name()), segs); err != nil {
						return err
					}
				}
			}
			return nil
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil
		}
		for _, e := range entries {
			if ok, _ := path.Match(segs[0], e.Name()); !ok {
				continue
			}
			p := filepath.Join(dir, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(p); err == nil {
					isDir = st.IsDir()
				}
			}
			switch {
			case len(segs) == 1 && !isDir:
				if !seen[p] {
					seen[p] = true
					files = append(files, p)
				}
			case len(segs) > 1 && isDir:
				if err := walk(p, segs[1:]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(filepath.FromSlash(base), rest); err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no file matches the pattern", pattern)
	}
	sort.Strings(files)
	return files, nil
}
