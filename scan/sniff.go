package scan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
)

// Formats are told from a file's first bytes; the name's extension is only
// a hint, which the bytes must agree with.

// Format is a file format colexpr reads.
type Format int

const (
	// FormatUnknown is no format: a name without a known extension.
	FormatUnknown Format = iota
	// FormatParquet begins (and ends) with PAR1.
	FormatParquet
	// FormatIPCFile is the Arrow IPC file format (Feather v2), which begins
	// with ARROW1.
	FormatIPCFile
	// FormatIPCStream is the Arrow IPC stream format, which begins with the
	// continuation marker 0xFFFFFFFF.
	FormatIPCStream
	// FormatCSV is anything else: text with a header row.
	FormatCSV
)

func (f Format) String() string {
	switch f {
	case FormatParquet:
		return "Parquet"
	case FormatIPCFile:
		return "an Arrow IPC file"
	case FormatIPCStream:
		return "an Arrow IPC stream"
	case FormatCSV:
		return "CSV"
	}
	return "unknown"
}

// sniffLen is how many bytes Sniff looks at.
const sniffLen = 8

var (
	parquetMagic = []byte("PAR1")
	ipcFileMagic = []byte("ARROW1")
)

// Sniff tells a format from the first bytes of a file (8 are enough): PAR1
// is Parquet, ARROW1 an Arrow IPC file, the continuation marker 0xFFFFFFFF
// an Arrow IPC stream, anything else (an empty file too) CSV.
func Sniff(head []byte) Format {
	switch {
	case bytes.HasPrefix(head, parquetMagic):
		return FormatParquet
	case bytes.HasPrefix(head, ipcFileMagic):
		return FormatIPCFile
	case len(head) >= 4 && binary.LittleEndian.Uint32(head) == 0xFFFFFFFF:
		return FormatIPCStream
	}
	return FormatCSV
}

// FormatOfName is the format a file's extension names: .parquet or .pq,
// .arrow, .feather or .ipc (an IPC file), .arrows (an IPC stream) and
// .csv. Other names are FormatUnknown.
func FormatOfName(path string) Format {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet", ".pq":
		return FormatParquet
	case ".arrow", ".feather", ".ipc":
		return FormatIPCFile
	case ".arrows":
		return FormatIPCStream
	case ".csv":
		return FormatCSV
	}
	return FormatUnknown
}

// sniffedFormat is the format of a file whose first bytes are head and
// whose name is path: the bytes decide, and a name that says otherwise is
// an error that says what the bytes are. The two Arrow IPC formats are
// taken for each other: .arrow names both in the wild.
func sniffedFormat(path string, head []byte) (Format, error) {
	got, hint := Sniff(head), FormatOfName(path)
	arrowFamily := func(f Format) bool { return f == FormatIPCFile || f == FormatIPCStream }
	switch {
	case hint == FormatUnknown, hint == got, arrowFamily(hint) && arrowFamily(got):
		return got, nil
	case got == FormatCSV:
		return 0, fmt.Errorf("%s: not %s: the name says so, but the file does not begin with its magic bytes (it begins with %q)", path, hint, head)
	}
	return 0, fmt.Errorf("%s: the name says %s, but the bytes are %s (they begin with %q); rename the file, or let colexpr tell the format by giving it no known extension", path, hint, got, head[:min(len(head), len(magicOf(got)))])
}

// magicOf is the magic prefix of a format that has one.
func magicOf(f Format) []byte {
	switch f {
	case FormatParquet:
		return parquetMagic
	case FormatIPCFile:
		return ipcFileMagic
	case FormatIPCStream:
		return []byte{0xff, 0xff, 0xff, 0xff}
	}
	return nil
}
