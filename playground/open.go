package playground

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/scan"
)

// Open opens the file at path as the table of a playground, which scans
// it once for every answer. A Parquet or Arrow IPC file is opened as
// scan.Open opens it. A CSV file or an Arrow IPC stream can be scanned
// only once: it is read once, whole, into an Arrow IPC file in a
// directory of its own under os.TempDir, and that copy is the table,
// named after the file (Source.SetName), as the page and messages show
// it. done closes the table and removes the copy.
//
// colexpr serve FILE and the WebAssembly build's dropped files open
// their table with Open.
func Open(mem memory.Allocator, path string) (src *scan.Source, done func() error, err error) {
	head := make([]byte, 8)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	src, err = scan.Open(mem, path)
	if err != nil {
		return nil, nil, err
	}
	switch scan.Sniff(head[:n]) {
	case scan.FormatParquet, scan.FormatIPCFile:
		return src, src.Close, nil
	}
	dir, err := os.MkdirTemp("", "colexpr-playground-")
	if err != nil {
		src.Close()
		return nil, nil, fmt.Errorf("%s: a copy to scan more than once: %w", path, err)
	}
	remove := func() error { return os.RemoveAll(dir) }
	cp := filepath.Join(dir, filepath.Base(path)+".arrow")
	err = copyIPC(mem, src, cp)
	src.Close()
	if err == nil {
		src, err = scan.Open(mem, cp)
	}
	if err != nil {
		remove()
		return nil, nil, err
	}
	src.SetName(path) // the page and the messages name the user's file, not the copy
	return src, func() error { return errors.Join(src.Close(), remove()) }, nil
}

// copyIPC writes every row of src to an Arrow IPC file at path.
func copyIPC(mem memory.Allocator, src *scan.Source, path string) (err error) {
	plan, err := scan.Compile(src, scan.Query{}, scan.Options{Threads: threads})
	if err != nil {
		return err
	}
	r, err := plan.Read(context.Background())
	if err != nil {
		return err
	}
	defer r.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(plan.Schema()), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	for r.Next() {
		if err := w.Write(r.RecordBatch()); err != nil {
			w.Close()
			return err
		}
	}
	if err := r.Err(); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
