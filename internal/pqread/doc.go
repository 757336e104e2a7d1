// Package pqread reads flat columns of Parquet files into Arrow record
// batches, faster than pqarrow's record reader, on several goroutines.
//
// # Use
//
// Open the file with arrow-go's parquet/file and make pqarrow's schema
// manifest of it (pqarrow.NewFileReader does, as FileReader.Manifest), then
// check that the fields to read are Supported and read them:
//
//	props := parquet.NewReaderProperties(mem)
//	props.BufferedStreamEnabled = true // read a column chunk page by page
//	pf, err := file.NewParquetReader(f, file.WithReadProps(props))
//	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
//	for _, i := range fields {
//		if !pqread.Supported(&fr.Manifest.Fields[i]) { ... read with pqarrow ... }
//	}
//	r, err := pqread.NewReader(ctx, pf, fr.Manifest, fields, rowGroups, pqread.Options{
//		BatchSize: 64 << 10, Threads: runtime.GOMAXPROCS(0), Mem: mem,
//		Source: f, // the *os.File pf reads
//	})
//	if err != nil { ... }
//	defer r.Close()
//	for {
//		rec, err := r.Next()
//		if err != nil { ... }
//		if rec == nil { break } // the end
//		... use rec ...
//		rec.Release()
//	}
//
// Fields are indices of top-level fields in the manifest (the Arrow schema
// of the file); nil means all of them. RowGroups are row group indices,
// read in the order given; nil means all, in file order. Next returns the
// batches in that order: each holds BatchSize rows of one row group, the
// last of a row group fewer; a batch never spans row groups, and empty row
// groups give none. NumRows tells how many rows there are in all.
//
// Set Options.Source to the file pf reads (anything with ReadAt that can
// be called concurrently): pqread then reads the column chunks through a
// file.Reader of its own whose memory it recycles, and decodes decimal
// pages itself. Without it, reading goes through pf and arrow-go's column
// chunk readers only, and is slower (see Speed).
//
// # What it reads
//
// The batches are interchangeable with pqarrow's: Schema is the fields of
// pqarrow's FileReader.Schema (types, nullability, field metadata and the
// stored Arrow schema's metadata), and the arrays are equal (array.Equal)
// to those pqarrow reads. Supported accepts a top-level field that is a
// leaf, not repeated, with at most one definition level (required or
// optional), of these Arrow types:
//
//   - bool (BOOLEAN)
//   - int8 to int64 and uint8 to uint64 (INT32, INT64, converted as pqarrow
//     does: truncated or sign-extended)
//   - float16 (FIXED_LEN_BYTE_ARRAY(2)), float32 (FLOAT), float64 (DOUBLE)
//   - date32, time32, time64, and timestamps of any unit and time zone
//     (INT32, INT64; INT96 for nanoseconds)
//   - decimal128 (INT32, INT64, FIXED_LEN_BYTE_ARRAY of 1 to 16 bytes,
//     BYTE_ARRAY)
//   - utf8, binary, large_utf8, large_binary (BYTE_ARRAY)
//   - fixed_size_binary (FIXED_LEN_BYTE_ARRAY)
//   - null (a column of the Parquet null logical type; nothing is read)
//
// Lists, structs and maps, decimal256, dictionaries (pqarrow's ReadDict),
// durations and extension types are not supported: read those with
// pqarrow. Every encoding arrow-go decodes (plain, dictionary, RLE, delta,
// byte stream split, ALP), both data page versions and every codec are
// read.
//
// # How
//
// Most columns are read with the typed column chunk readers of
// parquet/file: ReadBatch, or ReadBatchInPage for byte arrays, whose values
// point into the page and are copied out before the next read. Values go
// straight into the output buffer when Parquet's and Arrow's layouts agree
// (32- and 64-bit integers, floats, dates, times, timestamps); otherwise a
// few thousand at a time into a worker's scratch buffers and from there,
// converted, into the output: INT32 and INT64 decimals are widened to 16
// bytes in a tight loop, FIXED_LEN_BYTE_ARRAY decimals of up to 8 bytes
// are loaded as one big-endian 64-bit word and sign-extended by a shift.
// Values come dense; when a chunk has nulls they are spread to their rows
// by the definition levels, which also make the validity bitmap. A column
// of a batch without nulls has no bitmap, and its levels are not looked at
// beyond arrow-go's count.
//
// Decimal columns (INT32, INT64 or FIXED_LEN_BYTE_ARRAY) read from Source
// whose chunks use only PLAIN and dictionary encodings with RLE levels (as
// their metadata lists: what every common writer does) are decoded from
// their pages by pqread itself: arrow-go's page reader still reads,
// decompresses and checks the pages, but the dictionary is converted to
// decimals once per chunk and each value copied from it by its index
// (decoded from the RLE / bit-packed hybrid), and plain values converted
// straight from the page. Arrow-go's column readers hand a
// FIXED_LEN_BYTE_ARRAY value out as a []byte of its own, decoding the
// dictionary into such slices as well, which costs more than everything
// else and keeps the garbage collector busy.
//
// # Reading some rows
//
// Options.RowRanges narrows row groups to ranges of their rows (a scan
// that ruled out the other pages by the page index's statistics): the
// batches then hold the rows of the ranges, cut at BatchSize rows and at
// the end of each range, and every column is read at those rows, whatever
// its page boundaries. Each column chunk's reader moves forward from row
// to row: to a row in a later page it seeks, through the chunk's offset
// index (arrow-go's ColumnChunkReader.SeekToRow and PageReader.
// SeekToPageWithRow), so the pages in between are not read, nor
// decompressed; within a page, the rows before it are decoded and dropped.
// A chunk without an offset index, or one whose dictionary page arrow-go
// could not find after a seek (the metadata has no dictionary page offset
// and something comes before the first data page), and the chunks of an
// encrypted file, are read through, dropping the rows between the ranges.
// Chunks of row groups read in part are read from Source through a
// buffer of 16 KiB rather than 128: about a page, not the pages after it.
//
// # Threads and memory
//
// Threads goroutines decode; a task is one column of one batch, so the
// columns of a row group, and the row groups, are decoded in parallel. The
// slices of a column chunk must be decoded in order: a worker that finds
// another decoding the chunk leaves the slice to it and goes on to its next
// task rather than wait. Each chunk has a reader of its own (from a
// RowGroupReader of its own), so the workers share nothing but the file,
// read with ReadAt, and its metadata. Next hands the batches out in order;
// at most 2×Threads are dispatched ahead of the caller, or as many as make
// 2×Threads×64Ki rows when batches are smaller (a chunk's slices being
// sequential, the workers need several row groups at hand). Memory is
// thus bounded by Threads and the batch size (and a row group's page
// buffers), not by the file's size. Files with encrypted columns are
// decoded by one goroutine, since arrow-go's decryptors keep state.
//
// The output buffers come from Options.Mem through a recycle.Allocator:
// the buffers of a batch the caller releases are reused for a later batch
// rather than freed, and so are the page buffers of pqread's own file reader, so a
// long scan does not allocate and zero new memory for every batch or
// column chunk. Close gives the unused buffers back to Mem; buffers of
// batches released after Close go straight to Mem.
//
// # Speed
//
// Reading the 4 columns of TPC-H Q6 (l_shipdate date32 and three
// decimal(15,2)) of 6 000 000 rows of the demo table (128Ki-row row
// groups, Snappy), in batches of 64Ki rows, on 2 cores (go test -bench
// ScanDemo, see bench_test.go):
//
//	                          1 thread    2 threads
//	INT64 decimals   pqarrow    197 ms      169 ms
//	                 pqread     124 ms       67 ms    (through pf: 146, 92)
//	FLBA decimals    pqarrow    701 ms      549 ms
//	                 pqread     111 ms       59 ms    (through pf: 290, 193)
//
// A third of the time is Snappy's, a tenth reading the file; the rest is
// decoding, mostly dictionary indices and the copies of 16-byte values
// from the dictionaries.
//
// # Errors
//
// A corrupt or truncated file, a page that does not decompress, and a
// panic of arrow-go's decoders give an error naming the row group and the
// column. The failure stops the decoding: Next still returns the batches
// already decoded that come before it, then the error, again on every
// later call, and by then the goroutines have ended. Cancelling the
// context given to NewReader stops the workers (within the batch being
// decoded) and Next returns the context's error. At the end (Next
// returning nil, nil), after an error and after Close no goroutine of the
// reader is left running. Close must be called in every case: it releases
// the batches not handed out and the recycled buffers.
//
// A Reader is used by one goroutine; the batches it returns may go to any.
package pqread
